"""The generator as a package (#47, deliverable 2): what a group's own site installs by version
(``requirements.txt``: ``regelwerk[site,pruefen] @ git+…@<stand>``) carries the engine core, the
MkDocs plugins, the browser runtime and page assets, the harness and the own-site template –
every file of them, also those that are not Python – and none of this site's content."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from tests.conftest import ROOT

CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = CONFIG["tool"]["setuptools"]


def tracked(folder: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in out]


def test_the_package_is_the_generator_without_this_sites_systems() -> None:
    include = SETUPTOOLS["packages"]["find"]["include"]
    assert sorted(include) == ["engine*", "harness*", "site_plugins*"]
    # this site's systems are content beside the package, found like a group's rules
    assert (ROOT / "regeln" / "__init__.py").is_file()
    assert not any(p.startswith("regeln") for p in include)
    assert not (ROOT / "engine" / "systems" / "ryssea").exists()


def test_every_file_the_generator_needs_ships_with_it() -> None:
    """Each tracked file of the generator's packages is Python or matched by package-data:
    a group's site built from the installed package finds its bundler, its runtime, its
    pages, its template (a file left out fails their build, not ours)."""
    data = SETUPTOOLS["package-data"]
    for package in ("site_plugins", "harness", "engine"):
        base = ROOT / package
        shipped = {p for pattern in data.get(package, []) for p in base.glob(pattern)}
        missing = [
            path.relative_to(ROOT).as_posix()
            for path in tracked(package)
            if path.suffix != ".py" and path not in shipped and path.exists()
        ]
        assert not missing, f"nicht im Paket (pyproject.toml package-data): {missing}"
