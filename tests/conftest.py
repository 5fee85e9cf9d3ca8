"""Shared fixtures: paths, one strict site build per test run, and the offline export (both
shared by the pytest-xdist workers)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from harness.browser import SiteServer, build_site
from harness.layout import systems_with_pages

ROOT = Path(__file__).resolve().parent.parent
# this site's rule systems (content, regeln/) for every engine the tests import or start,
# wherever they run (engine.data_files: REGELWERK_REGELN)
os.environ.setdefault("REGELWERK_REGELN", str(ROOT / "regeln"))


def search_labels() -> dict[str, str]:
    """Each system folder's label in the search (mkdocs.yml, regelwerk-suche: systeme)."""
    from mkdocs.utils.yaml import yaml_load

    with (ROOT / "mkdocs.yml").open(encoding="utf-8") as handle:
        config = yaml_load(handle)
    return {str(k): str(v) for k, v in config["plugins"]["regelwerk-suche"]["systeme"].items()}


def rule_systems() -> tuple[str, ...]:
    """This site's rule systems that have pages, in the engine's order (harness.layout)."""
    return systems_with_pages(ROOT)


SOURCES = ROOT / "quellen"  # the canonical source texts, unchanged bytes (quellen/README.md)


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    """The canonical source texts, kept in the repository."""
    return SOURCES


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder that all pytest-xdist workers of this run share (their own temporary
    folders are inside it); without xdist the session's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def run_lock(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Path]:
    """One worker at a time, across the xdist workers of this run; yields the shared folder."""
    shared = run_folder(tmp_path_factory)
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield shared


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> None:
    """``make(shared folder)`` by the first xdist worker of this run that asks, under the
    lock ``name``; the others wait for it and then find it done (``<name>-fertig``)."""
    with run_lock(tmp_path_factory, name) as shared:
        done = shared / f"{name}-fertig"
        if not done.exists():
            make(shared)
            done.touch()


def _worker_host() -> str:
    """gw0 → 127.0.0.1, gw1 → 127.0.0.2, …: one loopback address per xdist worker, so that
    all can serve the one shared build on the same port."""
    found = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    return f"127.0.0.{int(found.group(1)) % 250 + 1}" if found else "127.0.0.1"


def _shared_site_server(tmp_path_factory: pytest.TempPathFactory) -> SiteServer | None:
    """A server for the site build that the xdist workers of this run share: the first
    worker builds it (``built_site``), every worker serves it on its own loopback address and
    the same port, which the build's ``site_url`` names. One build instead of one per worker
    (≈ 6 CPU-s each). None if that port is taken on this worker's address: then a build of
    its own."""
    with run_lock(tmp_path_factory, "site") as shared:
        port_file = shared / "site-port"
        port = int(port_file.read_text()) if port_file.exists() else 0
        try:
            server = SiteServer(shared / "site", _worker_host(), port)
        except OSError:
            return None
        if not port:
            port_file.write_text(str(server.port))
        return server


@pytest.fixture(scope="session")
def site_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    """The server for the session's build (started by the browser fixtures)."""
    reuse = os.environ.get("REGELWERK_SITE_DIR")
    if reuse:
        server = SiteServer(Path(reuse))
    elif os.environ.get("PYTEST_XDIST_WORKER"):
        server = _shared_site_server(tmp_path_factory) or SiteServer(
            tmp_path_factory.mktemp("site")
        )
    else:
        server = SiteServer(tmp_path_factory.mktemp("site"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def built_site(site_server: SiteServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site once with ``mkdocs build --strict`` for ``site_server``'s URL; the
    xdist workers of a run share one build (see ``_shared_site_server``).

    Set REGELWERK_SITE_DIR to reuse an existing build (then instant navigation only works if
    that build's site_url matches the server).
    """
    if os.environ.get("REGELWERK_SITE_DIR"):
        return site_server.directory
    if site_server.directory != run_folder(tmp_path_factory) / "site":
        _build_for(site_server)  # a build of its own
        return site_server.directory
    once_per_run(tmp_path_factory, "site", lambda _: _build_for(site_server))
    return site_server.directory


def _build_for(server: SiteServer) -> None:
    proc = build_site(server.directory, server.url, root=ROOT)
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}")


# ------------------------------------------------------------------ the offline export

UNZIP_INTO = "Regelwerk Übung"  # a space and an umlaut in the path, as on a reader's desktop


LOCAL_SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default: `make serve` on this computer


def _load_build_script() -> ModuleType:
    from harness import offline_export

    return offline_export


@dataclass(frozen=True)
class Unzipped:
    zip_path: Path
    root: Path  # …/Regelwerk Übung/regelwerk-offline

    def url(self, page: str) -> str:
        return (self.root / page).as_uri()

    def published(self, folder: Path, site_url: str) -> Unzipped:
        """A copy in ``folder`` as a build that knows the published site writes it: every page
        through the offline plugin's own ``on_post_page`` with that site_url (instead of a
        second export build, ≈ 5 CPU-s; that the build takes site_url from REGELWERK_SITE_URL
        is tested in test_offline.py)."""
        from types import SimpleNamespace

        from site_plugins.offline import plugin

        root = folder / "regelwerk-offline"
        shutil.copytree(self.root, root)
        config = SimpleNamespace(site_url=site_url)
        hook = plugin.OfflinePlugin()
        for path in root.rglob("*.html"):
            # the export has no directory URLs: ryssea/kampfhelfer.html is ryssea/kampfhelfer.md
            src_uri = path.relative_to(root).with_suffix(".md").as_posix()
            page = SimpleNamespace(file=SimpleNamespace(src_uri=src_uri))
            html = path.read_text(encoding="utf-8")
            path.write_text(hook.on_post_page(html, page=page, config=config), encoding="utf-8")  # type: ignore[arg-type]
        return Unzipped(zip_path=self.zip_path, root=root)


@pytest.fixture(scope="session")
def export(tmp_path_factory: pytest.TempPathFactory) -> Unzipped:
    """The offline export, built and unzipped once per test run: the pytest-xdist workers
    share it (built by the first that needs it, under a lock in the folder all workers of the
    run share; ≈ 5 CPU-s per build). The tests only read it."""
    folder = run_folder(tmp_path_factory) / "offline-export"
    zip_path = folder / "dist" / "regelwerk-offline.zip"
    target = folder / "entpackt" / UNZIP_INTO

    def make(_: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
        # built for mkdocs.yml's default site_url (this computer): no published site to link to
        built = _load_build_script().build_offline(folder / "dist", site_url=LOCAL_SITE_URL)
        assert built.zip_path == zip_path, built.zip_path
        with zipfile.ZipFile(built.zip_path) as archive:
            archive.extractall(target)

    once_per_run(tmp_path_factory, "offline-export", make)
    return Unzipped(zip_path=zip_path, root=target / "regelwerk-offline")


# ------------------------------------------------------------------ the engine's snapshot


@pytest.fixture(scope="session")
def engine_snapshot() -> Any:
    """The site's memory snapshot of the engine (``site_plugins.laufzeit.snapshot.build_snapshot``:
    from ``.cache/snapshots``, or made and proven now – on a fresh clone by whichever build
    asks first, the others wait for it). A fixture, so that ``_work_order`` sees which files
    need it."""
    from site_plugins.laufzeit.plugin import engine_archive
    from site_plugins.laufzeit.snapshot import build_snapshot

    return build_snapshot(engine_archive(), ROOT / "node_modules" / "pyodide")


# ------------------------------------------------------------------ the order of the files

# What a file's tests need, in the order the xdist workers should start on them (see
# ``pytest_collection_modifyitems``).
_NEEDS_SITE = "built_site"
_NEEDS_EXPORT = "export"
_NEEDS_SNAPSHOT = "engine_snapshot"


def _work_order(files: dict[str, list[pytest.Item]]) -> list[str]:
    """The test files in the order that keeps both cores busy from the first second.

    With ``--dist loadfile --no-loadscope-reorder`` (Makefile) xdist hands out whole files in
    this order, two to each worker at the start. The first worker gets a file that needs the
    site and builds it (``built_site``, ≈ 30–50 s on a fresh clone: the engine snapshot is
    made anew); the second a file that needs only the offline export (built meanwhile) – or,
    if there is none, files that need neither. Then come the files that need neither (engine,
    node units), so no worker waits for the build, and last the files that need the site or
    the engine's snapshot (the parity test: on a fresh clone the site build is making the
    snapshot, and a worker that asked for it first would wait idle for it, ≈ 20 CPU-s of the
    other worker's): those with a test marked ``slow`` first, then the browser files, larger
    before smaller, so that no long file is left for the end while the other worker idles."""

    def needs(path: str, fixture: str) -> bool:
        return any(fixture in item.fixturenames for item in files[path])

    def slow(path: str) -> bool:
        return any(item.get_closest_marker("slow") for item in files[path])

    site = [p for p in files if needs(p, _NEEDS_SITE)]
    export_only = [p for p in files if needs(p, _NEEDS_EXPORT) and p not in site]
    snapshot_only = [p for p in files if needs(p, _NEEDS_SNAPSHOT) and p not in site + export_only]
    neither = [p for p in files if p not in site + export_only + snapshot_only]
    first = site[:1] + export_only[:1]
    rest = [p for p in site + export_only + snapshot_only if p not in first]
    rest.sort(key=lambda p: (not slow(p), not needs(p, "browsers"), -len(files[p])))
    neither.sort(key=lambda p: (not slow(p), -len(files[p])))
    return first + neither + rest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the files in ``_work_order`` (the tests of a file keep their order)."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    items[:] = [item for path in _work_order(files) for item in files[path]]
