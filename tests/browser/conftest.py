"""Browser fixtures: the built site served on 127.0.0.1, Debian Chromium through Playwright."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import QuietHandler, SiteServer

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "QuietHandler", "navigate", "wait_engine_ready"]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
]


@pytest.fixture(scope="session")
def site_url(built_site: Path, site_server: SiteServer) -> str:
    """The built site, served on 127.0.0.1 for the whole session (instant navigation works)."""
    site_server.start()
    return site_server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is not installed (make test installs it)")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


ENGINE_READY_MS = 180_000  # generous: a loaded CI machine can be slow; measured by the benchmark


def wait_engine_ready(page: Any) -> None:
    """Wait until the page's engine worker has booted Pyodide and the engine."""
    page.wait_for_function(
        "() => window.__regelwerk && window.__regelwerk.ready", timeout=ENGINE_READY_MS
    )


def navigate(page: Any, url: str) -> None:
    """Go to ``url`` the way a reader does: a link click that Material's instant navigation
    takes over, so the page's scripts and the booted engine stay (one boot per visit)."""
    target = page.evaluate(
        """url => {
            const href = new URL(url, location.href).href;
            document.querySelector("article").dataset.rwLeaving = "1";
            const link = document.createElement("a");
            link.href = href;
            document.body.appendChild(link);
            link.click();
            link.remove();
            return href;
        }""",
        url,
    )
    page.wait_for_function(
        """url => location.href.split("#")[0] === url.split("#")[0]
            && document.querySelector("article")
            && !document.querySelector("article[data-rw-leaving]")""",
        arg=target,
    )


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    messages: list[str] = []
    page.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda err: messages.append(f"pageerror: {err}"))
    page.console_messages = messages  # type: ignore[attr-defined]
    yield page
    context.close()
