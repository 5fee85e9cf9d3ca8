"""The engine's memory snapshot: named by everything in it, refused by the build when it does
not answer like CPython (the snapshot issue, deliverable 1)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from site_plugins import snapshot
from site_plugins.plugin import engine_archive
from tests.conftest import ROOT

PYODIDE = ROOT / "node_modules" / "pyodide"


def test_the_key_names_every_input(tmp_path: Path) -> None:
    archive = engine_archive()
    key = snapshot.runtime_key(archive, PYODIDE)
    assert key == snapshot.runtime_key(archive, PYODIDE)
    assert len(key) == 16
    assert snapshot.runtime_key(archive + b"x", PYODIDE) != key
    fake = tmp_path / "pyodide"
    shutil.copytree(PYODIDE, fake, ignore=shutil.ignore_patterns("pyodide.asm.wasm"))
    with pytest.raises(snapshot.SnapshotError, match="npm ci"):
        snapshot.runtime_key(archive, fake)
    (fake / "pyodide.asm.wasm").write_bytes(b"\0asm-anders")
    assert snapshot.runtime_key(archive, fake) != key


@pytest.mark.slow
def test_the_maker_refuses_a_snapshot_that_answers_differently(tmp_path: Path) -> None:
    archive = tmp_path / "engine.zip"
    archive.write_bytes(engine_archive())
    request = {"system": "allgemein", "action": "wurf", "params": {"notation": "1W6"}, "seed": 3}
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps({"requests": [request], "answers": ['{"ok": false}']}), "utf-8")
    proc = subprocess.run(
        ["node", str(snapshot.MAKER), str(PYODIDE), str(archive), str(probe), str(tmp_path / "s")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1
    assert "Schnellstart-Abbild: antwortet anders als CPython" in proc.stderr


def test_the_site_ships_the_snapshot_it_names(built_site: Path) -> None:
    index = (built_site / "index.html").read_text(encoding="utf-8")
    key = index.split('<meta name="regelwerk-engine" content="', 1)[1].split('"', 1)[0]
    shipped = built_site / "assets" / "regelwerk" / f"engine-{key}.snap"
    assert shipped.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    assert (built_site / "assets" / "regelwerk" / f"engine-{key}.zip").exists()
    assert len(list((built_site / "assets" / "regelwerk").glob("engine-*.snap"))) == 1
