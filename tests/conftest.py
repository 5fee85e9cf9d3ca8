"""Shared fixtures: paths, and one strict site build per test session."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "quellen"  # the canonical source texts, unchanged bytes (quellen/README.md)


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    """The canonical source texts, kept in the repository."""
    return SOURCES


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle(self) -> None:
        # a page closed by its test while a file was on its way: the browser hung up, nothing
        # to report (the server thread would print a traceback into the test output)
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            super().handle()


class SiteServer:
    """A static server on 127.0.0.1 bound before the build, so the build knows its URL.

    Material's instant navigation needs ``site_url`` to match host, port and path of the
    server; the site is built with ``REGELWERK_SITE_URL`` set to this server's URL.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        handler = functools.partial(QuietHandler, directory=str(directory))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread:
            self.server.shutdown()
        self.server.server_close()


def build_site(out: Path, site_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` into ``out`` for a site served at ``site_url``."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", REGELWERK_SITE_URL=site_url)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )


@pytest.fixture(scope="session")
def site_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    """The server for the session's build (started by the browser fixtures)."""
    reuse = os.environ.get("REGELWERK_SITE_DIR")
    server = SiteServer(Path(reuse) if reuse else tmp_path_factory.mktemp("site"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def built_site(site_server: SiteServer) -> Path:
    """Build the site once with ``mkdocs build --strict`` for ``site_server``'s URL.

    Set REGELWERK_SITE_DIR to reuse an existing build (then instant navigation only works if
    that build's site_url matches the server).
    """
    if os.environ.get("REGELWERK_SITE_DIR"):
        return site_server.directory
    proc = build_site(site_server.directory, site_server.url)
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}")
    return site_server.directory
