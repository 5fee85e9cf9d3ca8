"""The engine in Node + Pyodide, started from the site's memory snapshot, answers exactly like
CPython (byte for byte). The browser side of the same check is tests/browser/test_parity.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from site_plugins.laufzeit.snapshot import Snapshot
from tests.conftest import ROOT
from tests.parity.batch import expected, requests

RUNNER = Path(__file__).with_name("pyodide_runner.mjs")
PYODIDE = ROOT / "node_modules" / "pyodide"


@pytest.mark.slow
def test_snapshot_in_node_matches_cpython(tmp_path: Path, engine_snapshot: Snapshot) -> None:
    if shutil.which("node") is None:
        pytest.fail("node is required (npm ci installs Pyodide)")
    if not PYODIDE.is_dir():
        pytest.fail("node_modules/pyodide missing: run `npm ci`")
    batch = requests()
    assert len(batch) >= 60
    made = engine_snapshot
    snapshot = tmp_path / "engine.snap"
    snapshot.write_bytes(made.compressed)
    stdlib = tmp_path / made.restore_stdlib_name  # what the site ships for the snapshot boot
    stdlib.write_bytes(made.restore_stdlib)
    request_file = tmp_path / "requests.json"
    request_file.write_text(json.dumps(batch), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(RUNNER), str(snapshot), str(stdlib), str(request_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Python 3.14" in proc.stderr and "from the snapshot" in proc.stderr, proc.stderr
    answers = proc.stdout.splitlines()
    assert len(answers) == len(batch)
    mismatches = [
        (request, want[:300], got[:300])
        for request, want, got in zip(batch, expected(batch), answers, strict=True)
        if got != want
    ]
    assert not mismatches, mismatches[:3]
    ok = sum(1 for a in answers if json.loads(a)["ok"])
    assert ok >= 50, f"only {ok} successful answers compared"
