"""Chromium answers exactly like CPython: online and from file://, from the memory snapshot,
and once through the fallback (the plain boot, when the snapshot cannot be loaded).

The same seeded batch as the Node check (tests/parity/batch.py), compared byte for byte with
``engine.run_json``: the worker hands the engine's JSON text through unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.browser import ENGINE_READY_MS
from tests.browser.conftest import LOCAL_SCHEMES, Browsers, SharedVisit, Unzipped
from tests.parity.batch import expected, requests

pytestmark = pytest.mark.browser

PAGE = "ryssea/kampfhelfer/"
RUN_BATCH = """
async (batch) => {
  const out = [];
  for (const request of batch) out.push(await window.Regelwerk.runEngine(request, {raw: true}));
  return out;
}
"""


def _answers(page: Any) -> list[str]:
    page.wait_for_selector(".rw-status[data-state='ready']", timeout=ENGINE_READY_MS)
    batch = requests()
    answers: list[str] = page.evaluate(RUN_BATCH, batch)
    mismatches = [
        (json.dumps(request)[:200], want[:200], got[:200])
        for request, want, got in zip(batch, expected(batch), answers, strict=True)
        if got != want
    ]
    assert not mismatches, mismatches[:3]
    assert sum(1 for a in answers if json.loads(a)["ok"]) >= 50
    return answers


def test_online_from_the_snapshot(reader: SharedVisit) -> None:
    """The shared visit's engine (booted once for the module's visit, from the snapshot)."""
    page = reader.go(PAGE)
    _answers(page)
    assert page.evaluate("window.__regelwerk.mode") == "snapshot"


def test_online_fallback_when_the_snapshot_is_missing(
    page: Any, site_url: str, browsers: Browsers
) -> None:
    """A missing snapshot is announced (status line and console), then the plain boot answers
    the same."""
    page.route("**/*.snap", lambda route: route.fulfill(status=404, body="fehlt"))
    page.goto(site_url + PAGE)
    _answers(page)
    assert page.evaluate("window.__regelwerk.mode") == "plain"
    status = page.locator(".rw-status").first.inner_text()
    assert status.startswith("Bereit.") and "Schnellstart nicht möglich (engine-" in status
    assert "HTTP 404" in status
    console = browsers.console(page)
    warnings = [m for m in console if m.startswith("warning:")]
    assert any("Schnellstart nicht möglich" in m for m in warnings), console


def test_offline_from_the_snapshot(offline: tuple[Any, list[str]], export: Unzipped) -> None:
    page, requests_seen = offline
    page.goto(export.url("ryssea/kampfhelfer.html"))
    _answers(page)
    assert page.evaluate("window.__regelwerk.mode") == "snapshot"
    assert [url for url in requests_seen if not url.startswith(LOCAL_SCHEMES)] == []
