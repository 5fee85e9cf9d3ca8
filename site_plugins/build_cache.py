"""Files the build keeps in ``.cache/`` between builds (the engine snapshot, the bundled
browser code): written atomically, since parallel builds (the test workers) share the cache,
and only the newest few of a kind are kept."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(folder: Path, name: str, content: bytes) -> None:
    """``folder/name`` with ``content``, never half-written for a reader."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
    os.replace(tmp, folder / name)


def keep_newest(folder: Path, pattern: str, count: int, companions: tuple[str, ...] = ()) -> None:
    """Remove all but the ``count`` newest files of ``folder`` matching ``pattern``, each with
    its companions (the same name with these suffixes)."""
    files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[count:]:
        old.unlink(missing_ok=True)
        for suffix in companions:
            old.with_suffix(suffix).unlink(missing_ok=True)
