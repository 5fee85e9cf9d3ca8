"""``make system`` (harness/scaffold.py) into a copy of the files it touches: the source
under its canonical name with its checksum, a data skeleton whose declared actions load and
roll, the pages with nav and Druckansicht, the search label, glossary and search entries, test
stubs – and nothing overwritten."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from engine import api, declarative
from engine.data_files import RuleData
from engine.registry import SYSTEMS, System

ROOT = Path(__file__).resolve().parent.parent
TEXT = ROOT / "tests" / "fixtures" / "klingenspiel" / "quelle.txt"


def script() -> ModuleType:
    from harness import scaffold

    return scaffold


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The files the scaffold reads or changes, copied."""
    for name in ("mkdocs.yml", "glossary.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "quellen", tmp_path / "quellen")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    (tmp_path / "regeln").mkdir(parents=True)
    (tmp_path / "tests" / "site").mkdir(parents=True)
    shutil.copy(ROOT / "tests/site/search_queries.yml", tmp_path / "tests/site/search_queries.yml")
    return tmp_path


def test_a_new_system_gets_everything_it_needs(repo: Path) -> None:
    # the next free number after the texts already there (CONTRIBUTING „Anlegen“): 005 beside
    # the five shipped texts, 006 once a group has added its first – never a fixed number
    taken = [int(p.name[:3]) for p in (repo / "quellen").glob("[0-9][0-9][0-9]_*.txt")]
    written = script().scaffold(repo, "klingen", TEXT, "Klingenspiel")
    raw = TEXT.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    canonical = f"{max(taken) + 1:03d}_{digest[:16]}.txt"
    assert (repo / "quellen" / canonical).read_bytes() == raw
    sums = (repo / "quellen" / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    assert sums[-1] == f"{digest}  {canonical}"
    assert f"| `{canonical}` | Klingenspiel |" in (repo / "quellen/README.md").read_text()
    config = yaml.safe_load((repo / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))
    section = next(e for e in config["nav"] if isinstance(e, dict) and "Klingenspiel" in e)
    pages = section["Klingenspiel"]
    assert pages[0] == "klingen/index.md"
    assert {"Kampfhelfer": "klingen/kampfhelfer.md"} in pages
    assert pages[-1] == {"Druckansicht": "klingen/druck.md"}
    assert config["plugins"]["regelwerk-suche"]["systeme"]["klingen"] == "Klingenspiel"
    assert "klingen" in yaml.safe_load((repo / "glossary.yml").read_text(encoding="utf-8"))
    queries = yaml.safe_load((repo / "tests/site/search_queries.yml").read_text())
    assert queries[-1]["seite"] == "klingen/regeln/"
    assert queries[-1]["suche"] in TEXT.read_text(encoding="utf-8")
    for page in ("index.md", "regeln.md", "kampfhelfer.md"):
        assert (repo / "docs" / "klingen" / page).exists()
    for line in TEXT.read_text(encoding="utf-8").splitlines():
        for cell in filter(None, (c.strip() for c in line.split("\t"))):
            assert cell in (repo / "docs/klingen/regeln.md").read_text(encoding="utf-8")
    assert (repo / "tests/engine/klingen/test_rules.py").exists()
    assert repo / "regeln/klingen.json" in written

    # the skeleton: one declared action of each kind, loaded and rolled like any other
    content = json.loads((repo / "regeln/klingen.json").read_text(encoding="utf-8"))
    assert content == yaml.safe_load((repo / "regeln/klingen.yaml").read_text())
    kinds = {spec["art"] for spec in content["aktionen"].values()}
    assert kinds == set(declarative.KINDS)
    system = System("klingen", content["system"]["titel"], content["system"]["quelle"])
    data = RuleData("klingen.yaml", content)
    for action in content["aktionen"]:
        declarative.register(system, data, action)
    SYSTEMS["klingen"] = system
    try:
        for action in system.actions:
            described = api.describe("klingen", action)
            params = {p["name"]: p["default"] for p in described["params"]}
            assert api.run("klingen", action, params, 7)["ok"], action
    finally:
        del SYSTEMS["klingen"]


def test_nothing_is_overwritten(repo: Path) -> None:
    new_system = script()
    new_system.scaffold(repo, "klingen", TEXT, "Klingenspiel")
    before = (repo / "mkdocs.yml").read_text(encoding="utf-8")
    with pytest.raises(new_system.ScaffoldError, match="schon vorhanden"):
        new_system.scaffold(repo, "klingen", TEXT, "Klingenspiel")
    assert (repo / "mkdocs.yml").read_text(encoding="utf-8") == before
    with pytest.raises(new_system.ScaffoldError, match="NAME"):
        new_system.scaffold(repo, "Klingen-Spiel", TEXT, "Klingenspiel")


def test_the_scaffolded_python_passes_make_lint(repo: Path) -> None:
    """``make lint`` runs ruff check and ruff format --check over tests/: a scaffolded system
    must not fail it before its author has written a line (inner functions bind the loop's
    values as default arguments, no unused names)."""
    written = script().scaffold(repo, "klingen", TEXT, "Klingenspiel")
    python = [path for path in written if path.suffix == ".py"]
    assert python
    ruff = Path(sys.executable).parent / "ruff"
    for path in python:
        # read as the file it becomes in the repository: the project's settings apply
        where = str(path.relative_to(repo))
        source = path.read_text(encoding="utf-8")
        for command in (["check"], ["format", "--check"]):
            done = subprocess.run(
                [str(ruff), *command, "--stdin-filename", where, "-"],
                input=source,
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
            )
            assert done.returncode == 0, (where, command, done.stdout + done.stderr)


def test_a_source_table_written_with_bars_becomes_a_table(repo: Path, tmp_path: Path) -> None:
    """A text that brings its table in Markdown (``| W6 | Folge |``) gets that table on its
    rules page, not the rows as escaped text (#47: „A source table written with `|` becomes
    escaped text“); without a rule line under the first row one is added (structure, not
    wording), and every cell stays word for word."""
    from harness import scaffold
    from harness.fidelity import source_sentences, visible_text

    text = tmp_path / "tabelle.txt"
    text.write_text(
        "Nach einem Patzer würfelt man auf der Schwertbruchtabelle.\n"
        "| W6 | Folge |\n| 1–3 | Die Waffe fällt. |\n| 4–6 | Man stolpert. |\n"
        "Danach geht es weiter.\n",
        encoding="utf-8",
    )
    scaffold.scaffold(repo, "tabellen", text, "Tabellen")
    page = (repo / "docs" / "tabellen" / "regeln.md").read_text(encoding="utf-8")
    assert "\\|" not in page
    assert "| W6 | Folge |\n|---|---|\n| 1–3 | Die Waffe fällt. |" in page
    import markdown

    html = markdown.markdown(page, extensions=["tables", "attr_list"])
    assert "<table>" in html and "<td>Die Waffe fällt.</td>" in html
    shown = visible_text(html)
    assert all(sentence in shown for sentence in source_sentences(text))
