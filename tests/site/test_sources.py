"""The source texts live in the repository, byte for byte as handed over (quellen/README.md)."""

from __future__ import annotations

import hashlib
from pathlib import Path

# how code would name the folder beside the repository that a clone does not have
OUTSIDE = ("../" + "shared", '"shared"' + ' / "sources"')


def test_source_texts_are_unchanged(sources_dir: Path) -> None:
    """Every text listed in quellen/SHA256SUMS is there with exactly those bytes, and no
    other text sits beside them unlisted."""
    listed = {}
    for line in (sources_dir / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split(maxsplit=1)
        listed[name] = digest
    assert listed
    for name, digest in listed.items():
        assert hashlib.sha256((sources_dir / name).read_bytes()).hexdigest() == digest, name
    assert {p.name for p in sources_dir.glob("*.txt")} == set(listed)


def test_nothing_reads_outside_the_repository() -> None:
    """A clone on its own must build and test: no code refers to a folder beside the repo."""
    root = Path(__file__).resolve().parents[2]
    offenders = []
    for folder in ("engine", "site_plugins", "scripts", "tests", ".github", ".ci"):
        for path in (root / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".js", ".mjs", ".yml", ".yaml", ""}:
                text = path.read_text(encoding="utf-8", errors="replace")
                if any(pattern in text for pattern in OUTSIDE):
                    offenders.append(str(path.relative_to(root)))
    assert not offenders
