"""Shared fixtures: paths, and one strict site build per test session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT.parent / "shared" / "sources"


def _sources_dir() -> Path:
    override = os.environ.get("REGELWERK_SOURCES")
    return Path(override) if override else SOURCES


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    """The canonical source texts (../shared/sources, or $REGELWERK_SOURCES)."""
    path = _sources_dir()
    if not path.is_dir():
        pytest.fail(f"source texts not found at {path} (set REGELWERK_SOURCES)")
    return path


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site once with ``mkdocs build --strict`` into a temporary folder.

    Set REGELWERK_SITE_DIR to reuse an existing build (e.g. the one `make site` wrote).
    """
    reuse = os.environ.get("REGELWERK_SITE_DIR")
    if reuse:
        return Path(reuse)
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}")
    return out
