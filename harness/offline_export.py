"""Build the offline export: a folder and a zip that work by double-click, with no network.

    .venv/bin/python -m harness.offline_export [--dist dist] [--site site]

In the site of the working directory (this repository or a group's own site), writes
``DIST/regelwerk-offline/`` (``mkdocs build --strict -f mkdocs-offline.yml``) and
``DIST/regelwerk-offline.zip`` (one top folder ``regelwerk-offline/``, fixed timestamps: the
same files give the same zip). With ``--site`` the zip is also copied to
``SITE/downloads/regelwerk-offline.zip``, the target of the home page's download link, so run
it after the online build (``make site`` does). Prints the sizes.

Tests and the benchmark call :func:`build_offline` with their own folders.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

CONFIG = "mkdocs-offline.yml"
NAME = "regelwerk-offline"
DOWNLOAD = f"downloads/{NAME}.zip"  # the online site's link target (docs/index.md)
MAX_ZIP_BYTES = 16_000_000  # one download; the snapshot issue allows up to 16 MB
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


class BuildError(RuntimeError):
    """The export could not be built (the message says why)."""


@dataclass(frozen=True)
class Export:
    folder: Path
    zip_path: Path
    zip_bytes: int
    folder_bytes: int
    runtime_bytes: int
    build_s: float


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def write_zip(folder: Path, target: Path) -> None:
    """Zip ``folder`` as ``NAME/…``, deterministic (sorted names, fixed timestamps)."""
    tmp = target.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(f"{NAME}/{path.relative_to(folder).as_posix()}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    tmp.replace(target)


def build_offline(
    dist: Path, site: Path | None = None, site_url: str | None = None, root: Path | None = None
) -> Export:
    """Build the export into ``dist`` (and copy the zip into ``site`` when given). The export's
    links to a roll point to the published site (``site_url``; default: ``REGELWERK_SITE_URL``,
    as for the online build) unless that is this computer (site_plugins/offline/plugin.py)."""
    root = (root or Path.cwd()).resolve()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if site_url is not None:
        env["REGELWERK_SITE_URL"] = site_url
    dist.mkdir(parents=True, exist_ok=True)
    folder = dist / NAME
    zip_path = dist / f"{NAME}.zip"
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=dist) as tmp:
        staging = Path(tmp) / NAME
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "build",
                "--strict",
                "--quiet",
                "--config-file",
                str(root / CONFIG),
                "--site-dir",
                str(staging),
            ],
            cwd=root,
            capture_output=True,
            text=True,
            env=env,
        )
        if proc.returncode != 0:
            raise BuildError(
                f"Offline-Export: mkdocs build fehlgeschlagen\n{proc.stdout}\n{proc.stderr}"
            )
        if folder.exists():
            shutil.rmtree(folder)
        staging.replace(folder)
    write_zip(folder, zip_path)
    build_s = time.perf_counter() - started
    zip_bytes = zip_path.stat().st_size
    if zip_bytes > MAX_ZIP_BYTES:
        raise BuildError(
            f"Offline-Export: {zip_path} ist {zip_bytes / 1e6:.1f} MB groß, "
            f"erlaubt sind {MAX_ZIP_BYTES / 1e6:.0f} MB"
        )
    if site is not None:
        target = site / DOWNLOAD
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(zip_path, target)
    return Export(
        folder=folder,
        zip_path=zip_path,
        zip_bytes=zip_bytes,
        folder_bytes=folder_size(folder),
        runtime_bytes=folder_size(folder / "assets" / "offline"),
        build_s=build_s,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=Path("dist"), help="target folder")
    parser.add_argument(
        "--site", type=Path, default=None, help=f"online site: copy the zip to SITE/{DOWNLOAD}"
    )
    args = parser.parse_args()
    try:
        export = build_offline(args.dist, args.site)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"Offline-Export: {export.folder} ({export.folder_bytes / 1e6:.1f} MB entpackt,")
    print(f"  davon Laufzeit assets/offline/ {export.runtime_bytes / 1e6:.1f} MB)")
    print(f"  {export.zip_path}: {export.zip_bytes / 1e6:.2f} MB, in {export.build_s:.1f} s")
    if args.site is not None:
        print(f"  zum Herunterladen: {args.site / DOWNLOAD}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
