"""Issue #33 in Firefox (Debian firefox-esr over WebDriver BiDi, driven by puppeteer-core): the
book and its helpers online and from the offline export, one browser for both
(tests/crossbrowser/conftest.py, smoke.py)."""

from __future__ import annotations

import pytest

from tests.conftest import Unzipped

from . import smoke
from .conftest import Engine

pytestmark = pytest.mark.browser


def test_online_helpers_roll_like_cpython_without_violation(firefox: Engine, site_url: str) -> None:
    """Issue #33, point 1 (online) and point 3: a Kampfhelfer page served over http becomes
    ready, its seeded attack equals CPython's, instant navigation keeps the engine, Material's
    key n follows <link rel="next">; no uncaught error and no CSP violation – Firefox
    prefetches the page that <link rel="next"> names, which `default-src 'none'` blocked on
    every online page (and again for each page instant navigation brought)."""
    smoke.online(firefox, site_url)


def test_offline_helpers_roll_like_cpython_without_violation(
    firefox: Engine, export: Unzipped
) -> None:
    """Issue #33, point 1 (offline) and point 4: the unzipped export opened from file:// is
    ready from its snapshot and its seeded attack equals CPython's; no error, no violation."""
    smoke.offline(firefox, export)
