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

Pyodide's ``python_stdlib.zip`` (2.5 MB that gzip cannot shrink) is not shipped: the maker
records which of its modules are loaded – by the plain boot (Pyodide's start, the engine's
import, every probe request) and after the snapshot is restored (what the snapshot does not
hold already) – and this module cuts two archives from it, ``python_stdlib-<key>.zip`` for
the snapshot boot and ``python_stdlib-plain-<key>.zip`` for the plain boot (the fallback, and
the offline export's one archive). Nor is its pyodide-lock.json (119 kB, every package
Pyodide could load): the engine loads none, so the site's lock file (:func:`lock_file`) lists
no package. The maker then proves them: started from the snapshot with only the first
archive, and plainly with only the second, both with that lock file, Pyodide answers every
probe request (one per action, the parity batch) byte for byte like CPython – or the build
fails.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import random
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from site_plugins import project
from site_plugins.laufzeit.build_cache import keep_newest, one_maker, write_atomically

MAKER = Path(__file__).resolve().parent / "make_snapshot.mjs"
# how the shipped snapshot differs from Pyodide's (the worker undoes it with the same module)
CODEC = Path(__file__).resolve().parent / "js" / "snapshot-codec.js"
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
FORMAT = "regelwerk-snapshot-2"  # bump when the way the snapshot is made changes
KEEP_CACHED = 4
MAKER_TIMEOUT_S = 300


class SnapshotError(RuntimeError):
    """The snapshot could not be made, or it does not load back correctly."""


ZIP_TIME = (2020, 1, 1, 0, 0, 0)
# the cut standard libraries in the cache, beside <key>.gz: <key>.restore and <key>.plain
STDLIBS = (".restore", ".plain")


@dataclass(frozen=True)
class Snapshot:
    key: str
    compressed: bytes
    raw_bytes: int
    figures: dict[str, Any]
    restore_stdlib: bytes  # what the snapshot boot loads from the standard library
    plain_stdlib: bytes  # what the plain boot loads

    @property
    def snapshot_name(self) -> str:
        return f"engine-{self.key}.snap"

    @property
    def archive_name(self) -> str:
        return f"engine-{self.key}.zip"

    @property
    def restore_stdlib_name(self) -> str:
        return f"python_stdlib-{self.key}.zip"

    @property
    def plain_stdlib_name(self) -> str:
        return f"python_stdlib-plain-{self.key}.zip"


def runtime_key(archive: bytes, pyodide_dir: Path) -> str:
    """16 hex digits of a SHA-256 over the engine archive, Pyodide's files, the maker, the
    snapshot's codec and the probe requests it is proven with (a cached snapshot was proven
    with exactly these)."""
    digest = hashlib.sha256(FORMAT.encode())
    digest.update(hashlib.sha256(archive).digest())
    probes = json.dumps(probe_requests(), ensure_ascii=False, sort_keys=True).encode()
    digest.update(hashlib.sha256(probes).digest())
    digest.update(hashlib.sha256(MAKER.read_bytes()).digest())
    digest.update(hashlib.sha256(CODEC.read_bytes()).digest())
    for name in PYODIDE_INPUTS:
        path = pyodide_dir / name
        if not path.exists():
            raise SnapshotError(f"{path} fehlt – bitte zuerst `npm ci` ausführen")
        digest.update(name.encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def probe_requests() -> list[dict[str, Any]]:
    """One seeded request per action (its defaults), a schema request and the parity batch:
    every system's modules must work from the snapshot alone, with the cut stdlib."""
    requests: list[dict[str, Any]] = [{"type": "describe", "system": "ryssea", "action": "attack"}]
    for index, (system, action) in enumerate(_actions()):
        requests.append({"system": system, "action": action, "params": {}, "seed": 1000 + index})
    return requests + parity_requests()


def _actions() -> list[tuple[str, str]]:
    return [(s["name"], a["name"]) for s in engine.catalog()["systems"] for a in s["actions"]]


def _vary(fields: list[dict[str, Any]], values: dict[str, Any], rng: random.Random) -> None:
    """Replace the integer fields (also inside lists) by random values within their limits."""
    for field in fields:
        if field["type"] == "int":
            values[field["name"]] = rng.randint(field["min"], field["max"])
        elif field["type"] == "bool":
            values[field["name"]] = rng.random() < 0.5
        elif field["type"] == "list":
            for row in values[field["name"]]:
                _vary(field["item"], row, rng)


def parity_requests() -> list[dict[str, Any]]:
    """The parity batch (tests/parity): seeded requests for every action – defaults, varied
    values, and some invalid ones – and every system's fight (its contract, the state at the
    limits of each life value, a bad value)."""
    rng = random.Random(20261129)
    out: list[dict[str, Any]] = []
    actions = _actions()
    per_action = max(8, -(-60 // len(actions)))
    for system, action in actions:
        spec = engine.describe(system, action)
        defaults = {p["name"]: p["default"] for p in spec["params"]}
        for index in range(per_action):
            params = json.loads(json.dumps(defaults))
            if index % 2:
                _vary(spec["params"], params, rng)
            seed = rng.randrange(2**32)
            out.append({"system": system, "action": action, "params": params, "seed": seed})
        out.append({"system": system, "action": action, "params": {"nicht_da": 1}, "seed": 1})
    out.append({"system": "gibt-es-nicht", "action": "x", "params": {}, "seed": 1})
    for system in engine.catalog()["systems"]:
        name = system["name"]
        fight = engine.api.fight_contract(name)
        out.append({"type": "fight", "system": name})
        for value in fight["values"]:
            for limit in (value["min"], value["max"]):
                values = {value["name"]: limit, **{r["name"]: r["min"] for r in fight["reads"]}}
                out.append({"type": "state", "system": name, "values": values})
        out.append({"type": "state", "system": name, "values": {"nicht_da": 1}})
    return out


def lock_file(pyodide_dir: Path) -> str:
    """Pyodide's lock file without its packages (the engine loads none): the site's
    pyodide-lock.json, proven with the snapshot (:func:`build_snapshot`)."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    return json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True)


WASM = "pyodide.asm.wasm"
WASM_LEVEL = 9  # once per Pyodide version (cached): 3.53 MB instead of level 6's 3.55 MB


def compressed_wasm(pyodide_dir: Path, cache_dir: Path | None = None) -> bytes:
    """Pyodide's ``pyodide.asm.wasm`` (9.6 MB) gzip-compressed (3.5 MB), as the site ships it
    (``pyodide.asm.wasm.gz``; the worker inflates it while it downloads, see worker.js):
    fixed bytes for the same wasm (no time stamp), kept in ``.cache/wasm`` by the wasm's
    hash (compressing takes several seconds)."""
    cache_dir = cache_dir or project.cache("wasm")
    path = pyodide_dir / WASM
    if not path.exists():
        raise SnapshotError(f"{path} fehlt – bitte zuerst `npm ci` ausführen")
    wasm = path.read_bytes()
    name = f"{hashlib.sha256(wasm).hexdigest()[:16]}-{WASM_LEVEL}.gz"
    cached = cache_dir / name
    with one_maker(cache_dir, name.removesuffix(".gz")):
        if cached.exists():
            content = cached.read_bytes()
            if gzip.decompress(content) == wasm:
                return content
        content = gzip.compress(wasm, WASM_LEVEL, mtime=0)
        write_atomically(cache_dir, name, content)
        keep_newest(cache_dir, "*.gz", KEEP_CACHED, companions=(".lock",))
    return content


def cut_stdlib(full: Path, members: list[str]) -> bytes:
    """The standard library archive with only ``members`` (same bytes for the same list)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(full) as source, zipfile.ZipFile(buffer, "w") as target:
        present = set(source.namelist())
        missing = sorted(set(members) - present)
        if missing:
            raise SnapshotError(f"{full.name} enthält nicht: {', '.join(missing[:5])}")
        for name in sorted(set(members)):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, source.read(name), compresslevel=9)
    return buffer.getvalue()


def build_snapshot(archive: bytes, pyodide_dir: Path, cache_dir: Path | None = None) -> Snapshot:
    """The snapshot and its cut standard libraries for this engine archive and Pyodide: from
    the cache, or made and proven now."""
    cache_dir = cache_dir or project.cache("snapshots")
    key = runtime_key(archive, pyodide_dir)
    with one_maker(cache_dir, key):
        cached = _cached_snapshot(key, cache_dir)
        return cached or _make_snapshot(key, archive, pyodide_dir, cache_dir)


def _cached_snapshot(key: str, cache_dir: Path) -> Snapshot | None:
    cached = cache_dir / f"{key}.gz"
    figures_file = cache_dir / f"{key}.json"
    stdlibs = [cache_dir / f"{key}{suffix}" for suffix in STDLIBS]
    if cached.exists() and figures_file.exists() and all(p.exists() for p in stdlibs):
        figures = json.loads(figures_file.read_text(encoding="utf-8"))
        restore, plain = (p.read_bytes() for p in stdlibs)
        return Snapshot(key, cached.read_bytes(), int(figures["bytes"]), figures, restore, plain)
    return None


def _make_snapshot(key: str, archive: bytes, pyodide_dir: Path, cache_dir: Path) -> Snapshot:
    """Make the snapshot and prove it (the maker's verify step), and keep it in the cache."""
    if shutil.which("node") is None:
        raise SnapshotError("Node.js fehlt (wird zum Erstellen des Schnellstart-Abbilds gebraucht)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "engine.zip").write_bytes(archive)
        requests = probe_requests()
        answers = [engine.run_json(json.dumps(request)) for request in requests]
        probe = {"requests": requests, "answers": answers}
        (folder / "probe.json").write_text(json.dumps(probe, ensure_ascii=False), "utf-8")
        inputs = [str(pyodide_dir), str(folder / "engine.zip"), str(folder / "probe.json")]
        out = folder / "snapshot.bin"
        figures = _maker("make", *inputs, str(out))
        full = pyodide_dir / "python_stdlib.zip"
        restore = cut_stdlib(full, figures["stdlib_restore"])
        # the plain archive also serves the snapshot boot (offline: one archive for both)
        plain = cut_stdlib(full, figures["stdlib_plain"] + figures["stdlib_restore"])
        (folder / "restore.zip").write_bytes(restore)
        (folder / "plain.zip").write_bytes(plain)
        (folder / "lock.json").write_text(lock_file(pyodide_dir), "utf-8")
        shipped = [str(folder / name) for name in ("restore.zip", "plain.zip", "lock.json")]
        figures["verify"] = _maker("verify", *inputs, str(out), *shipped)
        raw = out.read_bytes()
    compressed = gzip.compress(raw, compresslevel=9, mtime=0)
    figures["compressed_bytes"] = len(compressed)
    figures["stdlib_bytes"] = {
        "full": full.stat().st_size,
        "restore": len(restore),
        "plain": len(plain),
    }
    _store(cache_dir, key, compressed, figures, (restore, plain))
    return Snapshot(key, compressed, len(raw), figures, restore, plain)


def _maker(*args: str) -> dict[str, Any]:
    """Run make_snapshot.mjs; its figures (the last line of its output) or SnapshotError."""
    try:
        proc = subprocess.run(
            ["node", str(MAKER), *args],
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
    figures: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return figures


def _store(
    cache_dir: Path,
    key: str,
    compressed: bytes,
    figures: dict[str, Any],
    stdlibs: tuple[bytes, bytes],
) -> None:
    """Write atomically (parallel builds may share the cache) and keep the newest few; the
    snapshot last, since its presence says the rest is there."""
    for suffix, content in zip(STDLIBS, stdlibs, strict=True):
        write_atomically(cache_dir, f"{key}{suffix}", content)
    write_atomically(cache_dir, f"{key}.json", json.dumps(figures).encode())
    write_atomically(cache_dir, f"{key}.gz", compressed)
    keep_newest(cache_dir, "*.gz", KEEP_CACHED, companions=(".json", ".lock", *STDLIBS))
