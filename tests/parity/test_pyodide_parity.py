"""The engine in Node + Pyodide (npm ``pyodide``) answers exactly like CPython.

Same seed + same params ⇒ the same JSON everywhere (ARCHITECTURE.md, "One engine, three
doors"). The archive under test is the one the site ships (``engine_archive()``).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine import api
from site_plugins.plugin import engine_archive
from tests.conftest import ROOT

RUNNER = Path(__file__).with_name("pyodide_runner.mjs")


def _vary(fields: list[dict[str, Any]], values: dict[str, Any], rng: random.Random) -> None:
    """Replace the integer fields (also inside lists) by random values within their limits."""
    for field in fields:
        if field["type"] == "int":
            values[field["name"]] = rng.randint(field["min"], field["max"])
        elif field["type"] == "bool":
            values[field["name"]] = rng.random() < 0.5
        elif field["type"] == "list":
            for row in values[field["name"]]:
                _vary(field["item"], row, rng)


def requests() -> list[dict[str, Any]]:
    """Seeded requests for every action: defaults, varied values, and some invalid ones."""
    rng = random.Random(20261129)
    out: list[dict[str, Any]] = []
    actions = [(s["name"], a["name"]) for s in api.catalog()["systems"] for a in s["actions"]]
    per_action = max(8, -(-60 // len(actions)))
    for system, action in actions:
        spec = api.describe(system, action)
        defaults = {p["name"]: p["default"] for p in spec["params"]}
        for index in range(per_action):
            params = json.loads(json.dumps(defaults))
            if index % 2:
                _vary(spec["params"], params, rng)
            seed = rng.randrange(2**32)
            out.append({"system": system, "action": action, "params": params, "seed": seed})
        out.append({"system": system, "action": action, "params": {"nicht_da": 1}, "seed": 1})
    out.append({"system": "gibt-es-nicht", "action": "x", "params": {}, "seed": 1})
    return out


@pytest.mark.slow
def test_pyodide_in_node_matches_cpython(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.fail("node is required (npm ci installs Pyodide)")
    if not (ROOT / "node_modules" / "pyodide").is_dir():
        pytest.fail("node_modules/pyodide missing: run `npm ci`")
    batch = requests()
    assert len(batch) >= 50
    archive = tmp_path / "engine.zip"
    archive.write_bytes(engine_archive())
    request_file = tmp_path / "requests.json"
    request_file.write_text(json.dumps(batch), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(RUNNER), str(archive), str(request_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Python 3.14" in proc.stderr, proc.stderr
    answers = proc.stdout.splitlines()
    assert len(answers) == len(batch)
    mismatches = []
    for request, answer in zip(batch, answers, strict=True):
        expected = api.run_json(json.dumps(request))
        if answer != expected:
            mismatches.append((request, expected[:300], answer[:300]))
    assert not mismatches, mismatches[:3]
    ok = sum(1 for a in answers if json.loads(a)["ok"])
    assert ok >= 50, f"only {ok} successful answers compared"
