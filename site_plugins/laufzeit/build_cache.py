"""Files the build keeps in ``.cache/`` between builds (the engine snapshot, the bundled
browser code): written atomically, since parallel builds (the test workers) share the cache,
and only the newest few of a kind are kept; a file that takes long to make is made by one
build while the others wait for it (``one_maker``)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; parallel builds then each make their own
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def one_maker(folder: Path, key: str) -> Iterator[None]:
    """Hold the lock ``folder/key.lock`` (waiting while another build holds it): whoever
    holds it makes the file for ``key``, and whoever waited finds it made (check the cache
    again inside). The site build, the offline export and the tests may start together on a
    fresh clone; without the lock each made the same snapshot (≈ 12 CPU-s)."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{key}.lock").open("w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


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
