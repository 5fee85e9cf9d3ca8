"""The browser modules' unit and property tests (tests/js/, Node's own runner).

`node --test tests/js/` runs them; this test runs exactly that inside the test suite, so they
share the suite's workers instead of adding their seconds before it (the property tests alone
are ≈ 5 CPU-s). A failure shows Node's report.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT


@pytest.mark.slow  # long: scheduled first (tests/conftest.py _work_order)
def test_the_browser_modules_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js fehlt (wird für die Tests der Browser-Module gebraucht)")
    proc = subprocess.run(
        [node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    summary = [line for line in proc.stdout.splitlines() if line.startswith("# ")]
    failed = [line for line in proc.stdout.splitlines() if line.startswith("not ok")]
    assert proc.returncode == 0, "\n".join(failed + summary) + "\n" + proc.stdout[-4000:]
    assert any(line.startswith("# pass ") and line != "# pass 0" for line in summary), summary
