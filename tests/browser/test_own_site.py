"""A group's own site, end to end (#47 „Your own rulebook site“, deliverables 1, 3 and 7):
``regelwerk-neue-seite`` makes a folder outside this repository with only the group's rules –
from a fixture text (tests/fixtures/klingenspiel/quelle.txt: initiative with ties, 2W6 attack
with double 6 / double 1, damage minus armour with a minimum, a Patzertabelle) – which builds
(with its offline export), passes its own tests, rolls on the command line and rolls in a
browser. None of this repository's pages, sources or tests goes with it.

The site is built with this checkout's Python environment and npm packages (the install step
is what its Makefile does with ``requirements.txt`` and ``python -m harness.own_site npm``;
that the pins it installs are ours is asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import own_site
from tests.browser.conftest import roll_seeded, wait_engine_ready
from tests.conftest import ROOT, SiteServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXT = ROOT / "tests" / "fixtures" / "klingenspiel" / "quelle.txt"


def run(folder: Path, *command: str, **env: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, *command],
        cwd=folder,
        capture_output=True,
        text=True,
        # the group's rules only: its ./regeln, never this site's (tests/conftest.py names
        # those for the tests' own engines)
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "REGELWERK_REGELN": "", **env},
        timeout=300,
    )
    assert proc.returncode == 0, (
        f"{' '.join(command)}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    )
    return proc


def attack_on_the_command_line(folder: Path, value: int, seed: int) -> dict[str, Any]:
    """The group's attack on its command line (``python -m engine``), as JSON."""
    command = ["-m", "engine", "klingen", "angriff", "--angriffswert", str(value)]
    proc = run(folder, *command, "--seed", str(seed), "--json")
    answer: dict[str, Any] = json.loads(proc.stdout)
    return answer


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteServer]]:
    folder = tmp_path_factory.mktemp("eigene") / "klingenrunde"
    written = own_site.create(
        folder,
        "klingen",
        TEXT,
        "Klingenspiel",
        "Regelwerk der Klingenrunde",
        own_site.package_spec(),
    )
    assert folder / "regeln" / "klingen.yaml" in written
    # its npm packages are the generator's, in the generator's versions
    assert own_site.write_npm_pins(folder)
    assert (folder / "package-lock.json").read_bytes() == (ROOT / "package-lock.json").read_bytes()
    (folder / "node_modules").symlink_to(ROOT / "node_modules")
    # the build cache shared with ours (bundled code and compressed wasm do not depend on the
    # site's rules; the snapshot is named by its archive): made once for both, under the
    # cache's own locks, whichever build comes first
    (ROOT / ".cache").mkdir(exist_ok=True)
    (folder / ".cache").symlink_to(ROOT / ".cache")
    server = SiteServer(folder / "site")
    run(folder, "-m", "site_plugins.compile_data", "regeln")
    run(folder, "-m", "mkdocs", "build", "--strict", REGELWERK_SITE_URL=server.url)
    run(folder, "-m", "harness.offline_export", "--dist", "dist", "--site", "site")
    server.start()
    yield folder, server
    server.stop()


def test_the_site_holds_only_the_groups_rules(own: tuple[Path, SiteServer]) -> None:
    folder, _ = own
    pages = sorted(
        p.relative_to(folder / "docs").as_posix() for p in (folder / "docs").rglob("*.md")
    )
    assert pages == ["index.md", "klingen/index.md", "klingen/kampfhelfer.md", "klingen/regeln.md"]
    assert [p.name for p in (folder / "quellen").glob("*.txt")] == [
        p.name for p in (folder / "quellen").glob("000_*.txt")
    ]
    assert sorted(p.name for p in (folder / "regeln").iterdir()) == ["klingen.json", "klingen.yaml"]
    built = {p.parent.name for p in (folder / "site").glob("*/index.html")}
    assert built == {"klingen", "meine-werte", "offline", "spieler"}
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8")
    assert "regelwerk[site,pruefen] @ git+" in requirements
    assert (folder / "dist" / "regelwerk-offline" / "klingen" / "kampfhelfer.html").is_file()
    # the engine the pages run carries the group's rules only
    (archive,) = (folder / "site" / "assets" / "regelwerk").glob("engine-*.zip")
    names = zipfile.ZipFile(archive).namelist()
    assert [n for n in names if n.startswith("engine/data/")] == ["engine/data/klingen.json"]
    assert not [n for n in names if n.startswith("regeln/")]
    for workflow in ("ci.yml", "pages.yml"):
        assert "bash .ci/run" in (folder / ".github" / "workflows" / workflow).read_text()


def test_the_site_passes_its_own_tests(own: tuple[Path, SiteServer]) -> None:
    folder, _ = own
    proc = run(folder, "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert " passed" in proc.stdout.splitlines()[-1]


def test_the_site_rolls_on_the_command_line(own: tuple[Path, SiteServer]) -> None:
    """The group's CLI finds its rules in ./regeln (no variable set): the same roll as the
    engine with that folder."""
    folder, _ = own
    answer = attack_on_the_command_line(folder, 5, 3)
    assert answer["ok"], answer
    assert answer["result"]["display"]["outcome"]
    # its engine knows its system and the engine's own dice rolls – none of this site's
    listed = run(folder, "-m", "engine", "list").stdout
    systems = [line.split(":")[0] for line in listed.splitlines() if line[:1].isalpha()]
    assert systems == ["klingen", "allgemein"], listed


def test_the_site_rolls_in_the_browser(own: tuple[Path, SiteServer], page: Any) -> None:
    folder, server = own
    page.goto(server.url + "klingen/kampfhelfer/")
    wait_engine_ready(page)
    helper = page.locator(".rw-helper[data-action='angriff']").first
    roll_seeded(helper, 7)
    shown = helper.locator(".rw-result .rw-outcome").inner_text()
    # the same roll on the group's command line (the form's defaults: Angriffswert 4)
    assert shown == attack_on_the_command_line(folder, 4, 7)["result"]["display"]["outcome"]
