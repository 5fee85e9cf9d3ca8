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


BROWSER_CODE = (ROOT / "site_plugins" / "assets" / "js", ROOT / "site_plugins" / "pwa")
LINES_MAX = 400


def test_every_browser_module_is_one_idea_of_at_most_400_lines() -> None:
    """Issue #48: „Browser code in a folder per concern …, no file over 400 lines“
    (CONTRIBUTING „Wo was im Browser passiert“: each module begins with a header saying what
    it owns). fight.js had 608 lines, fight-journal.js 541, worker.js 633."""
    too_long = []
    headless = []
    for folder in BROWSER_CODE:
        for path in sorted(folder.rglob("*.js")):
            text = path.read_text(encoding="utf-8")
            if text.count("\n") > LINES_MAX:
                too_long.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
            if not text.startswith("//"):
                headless.append(str(path.relative_to(ROOT)))
    assert not too_long, too_long
    assert not headless, f"no header comment: {headless}"
