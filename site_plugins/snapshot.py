"""The engine's Pyodide memory snapshot: made at build time, named by what goes into it.

A browser that boots Pyodide and imports the engine waits several seconds; restoring a memory
snapshot taken right after ``import engine.api`` takes well under one. ``make_snapshot.mjs``
(Node and the pinned npm ``pyodide``, nothing downloaded) makes it and proves that it loads
back and answers like CPython; this module runs it, compresses the result and keeps it in a
cache keyed by :func:`runtime_key`.

The key is a hash of everything the snapshot depends on: the engine archive, Pyodide's
version and files, and the maker script. The site ships ``engine-<key>.zip`` and
``engine-<key>.snap`` (gzip bytes), so a page can never load a snapshot of another engine or
another Pyodide, and a new deployment never reuses a cached old one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from site_plugins.build_cache import keep_newest, write_atomically

MAKER = Path(__file__).resolve().parent / "make_snapshot.mjs"
CACHE_DIR = Path(__file__).resolve().parent.parent / ".cache" / "snapshots"
# Pyodide files the snapshot is bound to (the wasm's memory layout, the stdlib it imported).
PYODIDE_INPUTS = (
    "package.json",
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
FORMAT = "regelwerk-snapshot-1"  # bump when the way the snapshot is made changes
KEEP_CACHED = 4
MAKER_TIMEOUT_S = 300


class SnapshotError(RuntimeError):
    """The snapshot could not be made, or it does not load back correctly."""


@dataclass(frozen=True)
class Snapshot:
    key: str
    compressed: bytes
    raw_bytes: int
    figures: dict[str, Any]

    @property
    def snapshot_name(self) -> str:
        return f"engine-{self.key}.snap"

    @property
    def archive_name(self) -> str:
        return f"engine-{self.key}.zip"


def runtime_key(archive: bytes, pyodide_dir: Path) -> str:
    """16 hex digits of a SHA-256 over the engine archive, Pyodide's files and the maker."""
    digest = hashlib.sha256(FORMAT.encode())
    digest.update(hashlib.sha256(archive).digest())
    digest.update(hashlib.sha256(MAKER.read_bytes()).digest())
    for name in PYODIDE_INPUTS:
        path = pyodide_dir / name
        if not path.exists():
            raise SnapshotError(f"{path} fehlt – bitte zuerst `npm ci` ausführen")
        digest.update(name.encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def probe_requests() -> list[dict[str, Any]]:
    """One seeded request per action (its defaults) and a schema request: every system's
    modules must work from the snapshot alone."""
    requests: list[dict[str, Any]] = [{"type": "describe", "system": "ryssea", "action": "attack"}]
    for index, (system, action) in enumerate(_actions()):
        requests.append({"system": system, "action": action, "params": {}, "seed": 1000 + index})
    return requests


def _actions() -> list[tuple[str, str]]:
    return [(s["name"], a["name"]) for s in engine.catalog()["systems"] for a in s["actions"]]


def build_snapshot(archive: bytes, pyodide_dir: Path, cache_dir: Path = CACHE_DIR) -> Snapshot:
    """The snapshot for this engine archive and Pyodide: from the cache, or made now."""
    key = runtime_key(archive, pyodide_dir)
    cached = cache_dir / f"{key}.gz"
    figures_file = cache_dir / f"{key}.json"
    if cached.exists() and figures_file.exists():
        figures = json.loads(figures_file.read_text(encoding="utf-8"))
        return Snapshot(key, cached.read_bytes(), int(figures["bytes"]), figures)
    if shutil.which("node") is None:
        raise SnapshotError("Node.js fehlt (wird zum Erstellen des Schnellstart-Abbilds gebraucht)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "engine.zip").write_bytes(archive)
        requests = probe_requests()
        answers = [engine.run_json(json.dumps(request)) for request in requests]
        probe = {"requests": requests, "answers": answers}
        (folder / "probe.json").write_text(json.dumps(probe, ensure_ascii=False), "utf-8")
        out = folder / "snapshot.bin"
        try:
            proc = subprocess.run(
                [
                    "node",
                    str(MAKER),
                    str(pyodide_dir),
                    str(folder / "engine.zip"),
                    str(folder / "probe.json"),
                    str(out),
                ],
                capture_output=True,
                text=True,
                timeout=MAKER_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired as error:
            raise SnapshotError(f"Erstellen dauerte über {MAKER_TIMEOUT_S} s") from error
        if proc.returncode != 0:
            raise SnapshotError(
                (proc.stderr.strip() or proc.stdout.strip())[-2000:] or "unbekannter Fehler"
            )
        figures = json.loads(proc.stdout.strip().splitlines()[-1])
        raw = out.read_bytes()
    compressed = gzip.compress(raw, compresslevel=6, mtime=0)
    figures["compressed_bytes"] = len(compressed)
    _store(cache_dir, key, compressed, figures)
    return Snapshot(key, compressed, len(raw), figures)


def _store(cache_dir: Path, key: str, compressed: bytes, figures: dict[str, Any]) -> None:
    """Write atomically (parallel builds may share the cache) and keep the newest few."""
    write_atomically(cache_dir, f"{key}.gz", compressed)
    write_atomically(cache_dir, f"{key}.json", json.dumps(figures).encode())
    keep_newest(cache_dir, "*.gz", KEEP_CACHED, companions=(".json",))
