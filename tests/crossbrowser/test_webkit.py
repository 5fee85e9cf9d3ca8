"""Issue #33 in WebKit (Debian webkit2gtk-driver: WebKitGTK's MiniBrowser over W3C WebDriver
with selenium, on Xvfb): the book and its helpers online and from the offline export, one
browser for both (tests/crossbrowser/conftest.py, smoke.py)."""

from __future__ import annotations

import pytest

from tests.conftest import Unzipped

from . import smoke
from .conftest import Engine

pytestmark = [
    pytest.mark.browser,
    # selenium 4.51 warns about its own way of starting a local driver
    pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning"),
]


def test_online_helpers_roll_like_cpython_without_violation(webkit: Engine, site_url: str) -> None:
    """Issue #33, point 1 (online): a Kampfhelfer page served over http becomes ready, its
    seeded attack equals CPython's, instant navigation keeps the engine, Material's key n
    follows <link rel="next">; no uncaught error and no CSP violation (point 3: 0 in every
    engine)."""
    smoke.online(webkit, site_url)


def test_offline_helpers_roll_like_cpython_without_violation(
    webkit: Engine, export: Unzipped
) -> None:
    """Issue #33, point 1 (offline) and point 4: the unzipped export opened from file:// is
    ready from its snapshot and its seeded attack equals CPython's – WebKit threw
    NotReadableError there while the worker inflated from a Blob stream; no error, no
    violation."""
    smoke.offline(webkit, export)
