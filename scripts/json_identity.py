"""Byte-identical engine answers before and after a refactoring.

    .venv/bin/python scripts/json_identity.py --save before.jsonl    # on the old code
    .venv/bin/python scripts/json_identity.py --compare before.jsonl # on the new code

Generates a fixed set of seeded requests for every action (defaults, values varied within
their limits, every choice, several dice expressions, Tickleiste command chains, and some
invalid requests), runs each through ``engine.run_json`` and writes one line per request:
the request and the exact answer. ``--compare`` runs the same requests again and reports
every answer that differs. Prints how many requests, actions and differences there are.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import api  # noqa: E402

DICE = ["1W6", "2W6+3", "1W8+2", "1W10", "3W6-2", "1W12+1W4-1", "2W10kh1", "W20", "1W4"]
NAMES = ["Alrik", "Bruna", "Ork", "Zara", "Gero", "Ilka"]
PER_ACTION = 32


def _int(field: dict[str, Any], rng: random.Random) -> int:
    low, high, default = field["min"], field["max"], field["default"]
    if rng.random() < 0.2:
        return rng.randint(low, high)
    return max(low, min(high, default + rng.randint(-6, 6)))


def _value(field: dict[str, Any], rng: random.Random, row: int = 0) -> Any:
    kind = field["type"]
    if kind == "int":
        return _int(field, rng)
    if kind == "bool":
        return rng.random() < 0.4
    if kind == "choice":
        return rng.choice(field["choices"])["value"]
    if kind == "dice":
        return rng.choice(DICE)
    if kind == "text":
        return NAMES[row % len(NAMES)] if field["name"] == "name" else rng.choice(NAMES)
    if kind == "list":
        count = rng.randint(field["min_items"], min(field["max_items"], 5))
        return [
            {item["name"]: _value(item, rng, index) for item in field["item"]}
            for index in range(count)
        ]
    return field["default"]


def _varied(spec: dict[str, Any], rng: random.Random, share: float) -> dict[str, Any]:
    """Some fields changed (``share`` of them), the others left to their defaults."""
    params: dict[str, Any] = {}
    for field in spec["params"]:
        if field["type"] == "state":
            continue
        if rng.random() < share:
            params[field["name"]] = _value(field, rng)
    return params


def _tickleiste_chain(rng: random.Random) -> list[dict[str, Any]]:
    """A fight on the Tickleiste: commands applied to the state the previous one returned."""
    out: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    names = NAMES[: rng.randint(2, 5)]
    commands: list[dict[str, Any]] = [
        {
            "command": "hinzufuegen",
            "name": name,
            "ini": rng.randint(5, 15),
            "intuition": rng.randint(1, 6),
            "surprised": rng.random() < 0.2,
        }
        for name in names
    ]
    commands.append({"command": "start"})
    spec = api.describe("ryssea", "tickleiste")
    field = next(f for f in spec["params"] if f["name"] == "action")
    actions = [c["value"] for c in field["choices"]]
    for _ in range(rng.randint(3, 8)):
        pick = rng.random()
        who = rng.choice(names)
        if pick < 0.6:
            commands.append(
                {
                    "command": "handeln",
                    "fighter": who,
                    "action": rng.choice(actions),
                    "ticks": rng.randint(0, 12),
                }
            )
        elif pick < 0.75:
            commands.append({"command": "abwarten", "fighter": who})
        elif pick < 0.85:
            commands.append({"command": "bereithalten", "fighter": who})
        elif pick < 0.95:
            commands.append({"command": "eingreifen", "fighter": who})
        else:
            commands.append({"command": "hinzufuegen", "name": "Spät", "ini": 8})
    for command in commands:
        request = {
            "system": "ryssea",
            "action": "tickleiste",
            "params": {**command, "state": state},
            "seed": rng.randrange(2**32),
        }
        out.append(request)
        answer = api.run(**request)
        if answer["ok"]:
            state = answer["result"]["state"]
    return out


def requests() -> list[dict[str, Any]]:
    rng = random.Random(20261201)
    out: list[dict[str, Any]] = []
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            spec = api.describe(system["name"], action["name"])
            # actions with many interlocking fields get more requests, so enough succeed
            count = PER_ACTION if len(spec["params"]) < 15 else 4 * PER_ACTION
            for index in range(count):
                share = (0.15, 0.3, 0.7)[index % 3]
                params = {} if index == 0 else _varied(spec, rng, share)
                out.append(
                    {
                        "system": system["name"],
                        "action": action["name"],
                        "params": params,
                        "seed": rng.randrange(2**32),
                    }
                )
            out.append(
                {"system": system["name"], "action": action["name"], "params": {"x": 1}, "seed": 1}
            )
    for _ in range(12):
        out.extend(_tickleiste_chain(rng))
    out.append({"system": "nicht-da", "action": "x", "params": {}, "seed": 1})
    return out


def answers(batch: list[dict[str, Any]]) -> list[str]:
    return [api.run_json(json.dumps(request, ensure_ascii=False)) for request in batch]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write requests and answers to this file")
    group.add_argument("--compare", type=Path, help="compare with a file written by --save")
    args = parser.parse_args()
    batch = requests()
    got = answers(batch)
    actions = {(r["system"], r["action"]) for r in batch} - {("nicht-da", "x")}
    ok = sum(1 for a in got if json.loads(a)["ok"])
    print(f"{len(batch)} Anfragen über {len(actions)} Aktionen ({ok} mit Ergebnis)")
    if args.save:
        lines = [
            json.dumps({"request": r, "answer": a}, ensure_ascii=False)
            for r, a in zip(batch, got, strict=True)
        ]
        args.save.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"gespeichert: {args.save}")
        return 0
    saved = [json.loads(line) for line in args.compare.read_text(encoding="utf-8").splitlines()]
    if [s["request"] for s in saved] != batch:
        print("Die Anfragen unterscheiden sich von der gespeicherten Datei.")
        return 1
    differ = [
        (s["request"], s["answer"], a) for s, a in zip(saved, got, strict=True) if s["answer"] != a
    ]
    print(f"byte-gleich: {len(batch) - len(differ)} von {len(batch)}; verschieden: {len(differ)}")
    for request, old, new in differ[:5]:
        print(json.dumps(request, ensure_ascii=False)[:300])
        print("  vorher :", old[:300])
        print("  nachher:", new[:300])
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
