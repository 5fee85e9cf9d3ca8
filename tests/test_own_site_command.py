"""``regelwerk-neue-seite`` without a build (#47, deliverables 1 and 5): what it writes, what it
refuses, and that the group's README names every step with real values – no placeholder left,
none of this site's systems, the guide at the generator's pinned state."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness import own_site
from tests.conftest import ROOT

TEXT = ROOT / "tests" / "fixtures" / "klingenspiel" / "quelle.txt"
PACKAGE = "git+https://github.com/runde/regelwerk.git@v0.2.0"


def make(folder: Path) -> list[Path]:
    return own_site.create(folder, "klingen", TEXT, "Klingenspiel", "Klingenrunde", PACKAGE)


def test_the_new_site_says_every_step_with_its_own_values(tmp_path: Path) -> None:
    folder = tmp_path / "runde"
    written = make(folder)
    texts = {p: p.read_text(encoding="utf-8") for p in written if p.suffix != ".txt"}
    leftovers = [p.name for p, text in texts.items() if "@@" in text]
    assert not leftovers, leftovers
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for step in ("make site", "make test", "make check-system NAME=klingen", "GitHub Actions"):
        assert step in readme, step
    assert "https://github.com/runde/regelwerk/blob/v0.2.0/CONTRIBUTING.md" in readme
    assert (folder / "requirements.txt").read_text().strip().endswith(PACKAGE)
    others = [s.name for s in (ROOT / "regeln").glob("*.yaml")]
    named = [n for n in others if re.search(rf"\b{n[:-5]}\b", " ".join(texts.values()))]
    assert not named, named  # none of this site's systems goes with it
    assert (folder / ".ci" / "run").stat().st_mode & 0o111  # executable, as CI calls it


def test_a_second_system_joins_the_start_page_too(tmp_path: Path) -> None:
    """``make system`` in the group's site: the start page's table lists both systems."""
    from harness import scaffold

    folder = tmp_path / "runde"
    make(folder)
    text = tmp_path / "sturm.txt"
    text.write_text("Jeder Flieger würfelt 1W10 für die Reihenfolge im Sturmgefecht.\n")
    scaffold.scaffold(folder, "sturm", text, "Sturmfeder")
    page = (folder / "docs" / "index.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| [")]
    assert rows == [
        "| [Klingenspiel](klingen/index.md) | [Regeln](klingen/regeln.md), "
        "[Kampfhelfer](klingen/kampfhelfer.md) |",
        "| [Sturmfeder](sturm/index.md) | [Regeln](sturm/regeln.md), "
        "[Kampfhelfer](sturm/kampfhelfer.md) |",
    ]


def test_it_refuses_a_folder_in_use_or_inside_the_generator(tmp_path: Path) -> None:
    (tmp_path / "voll").mkdir()
    (tmp_path / "voll" / "notiz.txt").write_text("x", encoding="utf-8")
    with pytest.raises(own_site.OwnSiteError, match="nicht leer"):
        make(tmp_path / "voll")
    with pytest.raises(own_site.OwnSiteError, match="außerhalb"):
        make(ROOT / "eigene-seite-hier")
    assert not (ROOT / "eigene-seite-hier").exists()
    with pytest.raises(own_site.OwnSiteError, match="--name"):
        own_site.create(tmp_path / "neu", "Klingen-Spiel", TEXT, "K", "K", PACKAGE)


def test_the_guide_is_found_at_the_pinned_state() -> None:
    assert own_site.guide_address("git+https://gitlab.com/r/regelwerk.git@abc") == (
        "https://gitlab.com/r/regelwerk/-/blob/abc/CONTRIBUTING.md"
    )
    assert own_site.guide_address("git+file:///srv/regelwerk@1234") == (
        "/srv/regelwerk/CONTRIBUTING.md"
    )


def test_the_generator_pins_the_checkout_it_runs_from() -> None:
    """Run from this checkout, a new site installs the generator from it at its commit – a real
    address, never an invented one (a fresh clone's metadata names no origin)."""
    import subprocess

    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert own_site.package_spec() == f"git+file://{ROOT}@{head}"
