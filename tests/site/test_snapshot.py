"""The engine's memory snapshot: named by everything in it, refused by the build when it does
not answer like CPython (the snapshot issue, deliverable 1); the standard library cut to what
the engine loads, proven by the build (issue 29, deliverable 1)."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import threading
import time
import zipfile
from pathlib import Path

import pytest

import engine
from site_plugins.laufzeit import snapshot
from site_plugins.laufzeit.plugin import engine_archive
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
    proc = _maker("make", str(PYODIDE), str(archive), str(probe), str(tmp_path / "s"))
    assert proc.returncode == 1
    assert "Schnellstart-Abbild: Python ohne Abbild antwortet anders als CPython" in proc.stderr


def _maker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(snapshot.MAKER), *args], capture_output=True, text=True, timeout=300
    )


def _members(archive: bytes) -> set[str]:
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        return set(opened.namelist())


@pytest.mark.slow
def test_the_build_refuses_a_standard_library_cut_too_far(tmp_path: Path) -> None:
    """The proof the build runs on its cut archives: one module fewer than the plain boot
    loads, and a plain boot with only that archive cannot import the engine. That the whole
    archives pass the same proof is the build's own record: ``_make_snapshot`` keeps the
    figures of its verify run (every probe request, with these very archives) only when it
    passed – no second run of it here (≈ 4 CPU-s: two Pyodide boots)."""
    made = snapshot.build_snapshot(engine_archive(), PYODIDE)
    assert made.figures["verify"]["probes"] == len(snapshot.probe_requests()), made.figures
    (tmp_path / "engine.zip").write_bytes(engine_archive())
    (tmp_path / "engine.snap").write_bytes(gzip.decompress(made.compressed))
    (tmp_path / "restore.zip").write_bytes(made.restore_stdlib)
    request = {"system": "allgemein", "action": "wurf", "params": {"notation": "1W6"}, "seed": 3}
    answer = engine.run_json(json.dumps(request))
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps({"requests": [request], "answers": [answer]}), "utf-8")
    inputs = [str(PYODIDE), str(tmp_path / "engine.zip"), str(probe), str(tmp_path / "engine.snap")]
    lock = tmp_path / "lock.json"
    lock.write_text(snapshot.lock_file(PYODIDE), "utf-8")
    restore = str(tmp_path / "restore.zip")
    assert "fractions.py" in _members(made.plain_stdlib)  # the engine's dice use Fraction
    with (
        zipfile.ZipFile(io.BytesIO(made.plain_stdlib)) as source,
        zipfile.ZipFile(tmp_path / "short.zip", "w") as short,
    ):
        for name in source.namelist():
            if name != "fractions.py":
                short.writestr(name, source.read(name))
    proc = _maker("verify", *inputs, restore, str(tmp_path / "short.zip"), str(lock))
    assert proc.returncode == 1
    assert "ohne Abbild mit nur short.zip: Engine-Import" in proc.stderr, proc.stderr
    assert "fractions" in proc.stderr, proc.stderr


def test_the_site_ships_the_snapshot_it_names(built_site: Path) -> None:
    index = (built_site / "index.html").read_text(encoding="utf-8")
    key = index.split('<meta name="regelwerk-engine" content="', 1)[1].split('"', 1)[0]
    shipped = built_site / "assets" / "regelwerk" / f"engine-{key}.snap"
    assert shipped.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    assert (built_site / "assets" / "regelwerk" / f"engine-{key}.zip").exists()
    assert len(list((built_site / "assets" / "regelwerk").glob("engine-*.snap"))) == 1


def test_the_site_ships_the_standard_library_cut_to_what_the_engine_loads(
    built_site: Path,
) -> None:
    """No python_stdlib.zip of 2.5 MB: two archives named by the key, cut from it – the one
    for the snapshot boot holds no more than the plain boot's, and far less than the whole;
    no list of packages the engine never loads."""
    index = (built_site / "index.html").read_text(encoding="utf-8")
    key = index.split('<meta name="regelwerk-engine" content="', 1)[1].split('"', 1)[0]
    assert not list(built_site.rglob("python_stdlib.zip"))
    folder = built_site / "assets" / "regelwerk"
    restore = (folder / f"python_stdlib-{key}.zip").read_bytes()
    plain = (folder / f"python_stdlib-plain-{key}.zip").read_bytes()
    whole = (PYODIDE / "python_stdlib.zip").read_bytes()
    assert _members(restore) <= _members(plain) < _members(whole)
    assert len(plain) < len(whole) / 2
    assert {"json/__init__.py", "random.py", "fractions.py"} <= _members(plain)
    # the lock file names no package: the engine loads none (119 kB in Pyodide's)
    lock = json.loads((built_site / "assets" / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    assert lock["packages"] == {} and lock["info"]["python"].startswith("3.14")
    with (
        zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as source,
        zipfile.ZipFile(io.BytesIO(plain)) as cut,
    ):
        assert all(cut.read(name) == source.read(name) for name in cut.namelist())


def test_builds_started_together_make_the_snapshot_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a fresh clone the site build, the offline export and the Node parity test ask for
    the same snapshot at once: one makes it (≈ 12 CPU-s), the others wait and take it from
    the cache (site_plugins/laufzeit/build_cache.py, one_maker)."""
    made: list[str] = []

    def make(key: str, archive: bytes, pyodide_dir: Path, cache_dir: Path) -> str:
        made.append(key)
        time.sleep(0.3)  # long enough for the others to ask meanwhile
        (cache_dir / f"{key}.fertig").write_text("", encoding="utf-8")
        return "abbild"

    def cached(key: str, cache_dir: Path) -> str | None:
        return "abbild" if (cache_dir / f"{key}.fertig").exists() else None

    monkeypatch.setattr(snapshot, "runtime_key", lambda archive, pyodide_dir: "schluessel")
    monkeypatch.setattr(snapshot, "_make_snapshot", make)
    monkeypatch.setattr(snapshot, "_cached_snapshot", cached)
    answers: list[object] = []
    builds = [
        threading.Thread(
            target=lambda: answers.append(
                snapshot.build_snapshot(b"", tmp_path, tmp_path / "cache")
            )
        )
        for _ in range(3)
    ]
    for build in builds:
        build.start()
    for build in builds:
        build.join()
    assert made == ["schluessel"]
    assert answers == ["abbild"] * 3
