"""The players' link and its QR code, measured with the page's own modules in Node
(``site_plugins/assets/js/players/``: link.js packs the picture, qr.js draws the code): for
2, 8 and 20 fighters of a DSA-like fight the bytes as JSON and in the compact form that
travels, the link's length, its QR version and the level the page sends. Used by
``scripts/benchmark_player_link.py`` (the figures) and ``tests/browser/test_pwa.py``; and the
link's data read and written in Python (``base42.js``, ``link.js``) for the tests that decode
every link themselves instead of asking the page."""

from __future__ import annotations

import json
import subprocess
import zlib
from pathlib import Path
from typing import Any

import site_plugins

PLAYERS = Path(site_plugins.__file__).resolve().parent / "assets" / "js" / "players"

# ------------------------------------------------------------------ the link's data in Python

BASE42 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ$*+-./"  # players/base42.js ALPHABET


def to_base42(data: bytes) -> str:
    """players/base42.js toBase42: two bytes as three characters, a last one as two."""
    out = []
    for i in range(0, len(data) - 1, 2):
        n = data[i] * 256 + data[i + 1]
        out += [BASE42[n % 42], BASE42[n // 42 % 42], BASE42[n // 1764]]
    if len(data) % 2:
        out += [BASE42[data[-1] % 42], BASE42[data[-1] // 42]]
    return "".join(out)


def from_base42(text: str) -> bytes:
    """players/base42.js fromBase42 (ValueError where the page says „beschädigt“)."""
    if len(text) % 3 == 1:
        raise ValueError(f"base42: no bytes have {len(text)} characters")
    out = bytearray()
    for i in range(0, len(text), 3):
        group = text[i : i + 3]
        n = sum(BASE42.index(c) * 42**k for k, c in enumerate(group))
        out += n.to_bytes(2 if len(group) == 3 else 1, "big")
    return bytes(out)


def picture_text(link: str) -> str:
    """The picture a players' link carries, as it travels (link.js: the compact text,
    deflate-raw, base42 after „#s=3.“) – decoded here, not by the page."""
    data = link.split("#s=3.", 1)[1].split("&", 1)[0]
    return zlib.decompress(from_base42(data), -15).decode("utf-8")


def fragment_of(text: str) -> str:
    """The fragment for a picture's compact text (link.js fragmentOf)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return "#s=3." + to_base42(compressor.compress(text.encode("utf-8")) + compressor.flush())


# ------------------------------------------------------------------ the measure

COUNTS = (2, 8, 20)
NAMES = (
    "Alrik", "Grashak", "Bruna", "Ork 1", "Yasmina", "Ork 2", "Rondrian", "Goblin 1",
    "Travian", "Goblin 2", "Ilsa", "Ork 3", "Gerion", "Goblin 3", "Thalia", "Ork 4",
    "Wulf", "Goblin 4", "Nedime", "Ork 5",
)  # fmt: skip

# The measured fight for ``count`` of ``names`` (JavaScript, for the Node scripts of the
# player-link and live-table benchmarks): heroes with their LeP and Wunden shown, enemies
# „grob“, every fourth fighter „betäubt“.
PICTURE_JS = r"""
function picture(count) {
  const fighters = names.slice(0, count).map((name, i) => {
    const hero = i % 2 === 0;
    const f = { name, place: `Phase ${20 - i}`, show: hero ? "werte" : "grob", effects: [] };
    if (hero) f.values = [32 - i, i % 3];
    else f.health = HEALTH[i % 4];
    if (i % 4 === 1) f.effects = [{ name: "betäubt", left: "noch 1 Runde" }];
    return f;
  });
  return { system: "dsa", at: Date.UTC(2026, 11, 3, 19, 30, 5), clock: "Runde 2 · Phase 14",
           actor: 0, next: 1, resources: ["LeP", "Wunden"], level: "voll", fighters };
}
"""

SCRIPT = r"""
import { compact, fragmentOf, HEALTH, LEVELS, reduced }
  from "@@LINK@@";
import { qrOf, VERSION_MAX } from "@@QR@@";
const { page, counts, names } = JSON.parse(process.argv[1]);
@@PICTURE@@const rows = [];
for (const count of counts) {
  const full = picture(count);
  const json = JSON.stringify(full).length;
  const text = new TextEncoder().encode(compact(full)).length;
  const link = page + (await fragmentOf(full));
  const needed = qrOf(link, 40);
  let sent = null;
  for (const level of LEVELS) {
    const l = page + (await fragmentOf(reduced(full, level)));
    const qr = qrOf(l, VERSION_MAX);
    if (qr) { sent = { level, length: l.length, version: qr.version }; break; }
  }
  const version = needed ? needed.version : null;
  const fragment = await fragmentOf(full);
  rows.push({ count, json, text, link: link.length, version, sent, fragment });
}
process.stdout.write(JSON.stringify(rows));
"""


def _script() -> str:
    """The measuring module, importing the page's modules by their file URLs."""
    return (
        SCRIPT.replace("@@PICTURE@@", PICTURE_JS)
        .replace("@@LINK@@", (PLAYERS / "link.js").as_uri())
        .replace("@@QR@@", (PLAYERS / "qr.js").as_uri())
    )


def run_module(script: str, arg: dict[str, Any]) -> Any:
    """Run ``script`` (an ES module that imports the page's modules by their file URLs) in
    Node with ``arg`` as JSON; → what it wrote to stdout, as JSON."""
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script, json.dumps(arg)],
        cwd=PLAYERS,  # qr.js imports lean-qr from the node_modules above it (a checkout's)
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"Node fehlgeschlagen: {proc.stderr.strip()[-1000:]}")
    return json.loads(proc.stdout)


def measure(page: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = run_module(
        _script(), {"page": page, "counts": COUNTS, "names": NAMES}
    )
    return rows
