"""Worst-case request times: prints figures, asserts nothing.

    .venv/bin/python scripts/worst_case.py [--top 25] [--random 150] [--seed 1] [--quick]

For every action of the catalog it builds complete requests (every field given explicitly,
so it runs against any engine version) and times ``engine.api.run_json``:

- every field alone at its extremes: ints at their minimum and maximum, both booleans, every
  choice, texts at their maximum length, lists at their maximum number of rows (rows at their
  extremes too), for the Tickleiste full states with every command;
- dice fields: the largest expressions the parser allows (100 dice, 1000 sides, 20 terms,
  keep-highest / keep-lowest at several keep counts) and, per number of sides, the largest
  count the engine still answers with a result (binary search), each combined with every
  choice and boolean of the action;
- random search: requests mixing random extremes and random values of every field.

Every request is timed once (CPU time of the process, which other load on the machine disturbs
far less than the wall clock); the slowest ones (overall and per action) are timed again, and
their median of 3 is printed, wall time and CPU time, with the overall worst (by CPU time) at
the end. On an otherwise idle machine both agree.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import api, dice  # noqa: E402

Request = dict[str, Any]
SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 50, 100, 200, 324, 500, 660, 1000)
QUICK_SIDES = (2, 6, 20, 100, 324, 1000)
NAMES = [f"Kämpfer{i:02d}" for i in range(40)]


def timed(request: Request) -> tuple[float, str]:
    """CPU time of one ``run_json`` call (JSON text in, JSON text out) and the answer."""
    text = json.dumps(request, ensure_ascii=False)
    started = time.process_time()
    answer = api.run_json(text)
    return time.process_time() - started, answer


def median_time(request: Request, runs: int = 3) -> float:
    """Median wall time (what a user waits for)."""
    text = json.dumps(request, ensure_ascii=False)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        api.run_json(text)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cpu_time(request: Request, runs: int = 3) -> float:
    """Median CPU time of the process (robust against other load on the machine)."""
    text = json.dumps(request, ensure_ascii=False)
    times = []
    for _ in range(runs):
        started = time.process_time()
        api.run_json(text)
        times.append(time.process_time() - started)
    return statistics.median(times)


def complete(spec: dict[str, Any]) -> dict[str, Any]:
    """Every field of the schema with its (form) default, given explicitly."""
    return {f["name"]: f["default"] for f in spec["params"]}


def dice_extremes() -> list[str]:
    """The largest expressions the parser allows, in several shapes."""
    most, sides, terms = dice.MAX_DICE, dice.MAX_SIDES, dice.MAX_TERMS
    out = [
        f"{most}W{sides}",
        f"{most}W{sides}kh1",
        f"{most}W{sides}kl1",
        f"{most}W{sides}kh{most // 2}",
        f"{most}W{sides}kh{most - 1}",
        f"{most}W{sides}kl{most - 1}",
        f"2W{sides}kh1",
        f"{most}W2",
        f"{most}W2kh{most // 2}",
        "+".join([f"{most // terms}W{sides}"] * terms),
        "+".join([f"{most // terms}W{sides}kh{most // terms // 2}"] * terms),
        "+".join([f"{most // terms}W{sides}kh1"] * (terms - 1) + ["10000"]),
        "-".join([f"{most // 2}W{sides}"] * 2),
        f"-{most}W{sides}+10000",
        "+".join(f"{most // terms}W{s}" for s in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29) * 2),
    ]
    for keep in (2, 5, 10, 25, 75, 90):
        out.append(f"{most}W{sides}kh{keep}")
    for count in (10, 30, 50, 75):
        out.append(f"{count}W{sides}kh{count // 2}")
        out.append(f"{count}W{sides}kh1")
    return out


def with_field(base: Request, field: str, value: Any) -> Request:
    params = dict(base["params"])
    params[field] = value
    return {**base, "params": params}


def rows_at(field: dict[str, Any], pick: Callable[[dict[str, Any], int], Any]) -> list[Any]:
    rows = []
    for index in range(field["max_items"]):
        rows.append({item["name"]: pick(item, index) for item in field["item"]})
    return rows


def item_value(item: dict[str, Any], index: int, extreme: str) -> Any:
    kind = item["type"]
    if kind == "text":
        if item["name"] == "name":
            return NAMES[index][: item["max_length"]]
        return item["default"] or "Helden"
    if kind == "int":
        return {"min": item["min"], "max": item["max"]}.get(extreme, item["default"])
    if kind == "bool":
        return extreme == "max"
    if kind == "choice":
        values = [c["value"] for c in item["choices"]]
        return values[-1] if extreme == "max" else values[0]
    return item["default"]


def list_values(field: dict[str, Any], rng: random.Random) -> Iterator[list[Any]]:
    for extreme in ("default", "min", "max"):
        yield rows_at(field, lambda item, i, e=extreme: item_value(item, i, e))
    for _ in range(3):  # mixed rows: many equal values (ties) and some extremes
        yield rows_at(
            field,
            lambda item, i: item_value(item, i, rng.choice(("default", "min", "max"))),
        )


def field_values(field: dict[str, Any], rng: random.Random) -> list[Any]:
    kind = field["type"]
    if kind == "int":
        return [field["min"], field["max"], field["default"]]
    if kind == "bool":
        return [True, False]
    if kind == "choice":
        return [c["value"] for c in field["choices"]]
    if kind == "text":
        return ["Ä" * field["max_length"], field["default"] or "x"]
    if kind == "dice":
        return dice_extremes()
    if kind == "list":
        return list(list_values(field, rng))
    return []


def random_value(field: dict[str, Any], rng: random.Random) -> Any:
    kind = field["type"]
    if kind == "int":
        return rng.choice((field["min"], field["max"], rng.randint(field["min"], field["max"])))
    if kind == "dice":
        return random_dice(rng)
    if kind == "list":
        count = rng.choice((field["min_items"], field["max_items"], rng.randint(1, 8)))
        count = max(field["min_items"], min(field["max_items"], count))
        return [
            {
                item["name"]: NAMES[i][: item.get("max_length", 40)]
                if item["name"] == "name"
                else random_value(item, rng)
                for item in field["item"]
            }
            for i in range(count)
        ]
    values = field_values(field, rng)
    return rng.choice(values) if values else field["default"]


def random_dice(rng: random.Random) -> str:
    """A random expression within the parser's limits, biased to large ones."""
    left = dice.MAX_DICE
    parts: list[str] = []
    for _ in range(rng.randint(1, 4)):
        if left < 1:
            break
        count = rng.randint(1, left)
        left -= count
        sides = rng.choice((*SIDES, rng.randint(2, dice.MAX_SIDES)))
        text = f"{count}W{sides}"
        if rng.random() < 0.4:
            text += rng.choice(("kh", "kl")) + str(rng.randint(1, count))
        parts.append(("-" if rng.random() < 0.2 else "+") + text)
    if rng.random() < 0.3:
        parts.append(f"+{rng.randint(0, dice.MAX_CONSTANT)}")
    return "".join(parts).lstrip("+") or "1W6"


def accepted(request: Request, field: str) -> bool:
    """True when the engine answers with a result (not a refusal of this dice field)."""
    answer = json.loads(timed(request)[1])
    return bool(answer["ok"]) or answer["error"]["field"] != field


def largest_count(base: Request, field: str, sides: int, keep: str) -> Request | None:
    """The request with the most dice of ``sides`` (1 … MAX_DICE) the engine still answers."""

    def make(count: int) -> Request:
        suffix = {"": "", "kh1": "kh1", "half": f"kh{max(1, count // 2)}"}[keep]
        return with_field(base, field, f"{count}W{sides}{suffix}")

    low, high = 0, dice.MAX_DICE
    if accepted(make(high), field):
        return make(high)
    while high - low > 1:
        middle = (low + high) // 2
        if accepted(make(middle), field):
            low = middle
        else:
            high = middle
    return make(low) if low else None


def tickleiste_requests(base: Request, rng: random.Random) -> Iterator[Request]:
    """Full states (20 fighters, 30 log lines of 300 characters) with every command."""
    spec = api.describe("ryssea", "tickleiste")
    params = {f["name"]: f for f in spec["params"]}
    commands = [c["value"] for c in params["command"]["choices"]]
    actions = [c["value"] for c in params["action"]["choices"]]
    for tick in (0, 99_990, 99_999, -99_999):
        for ready in (False, True):
            fighters = [
                {
                    "name": NAMES[i][:30],
                    "ini": 99,
                    "intuition": i % 3,
                    "modifier": 99,
                    "surprised": False,
                    "status": "bereit" if ready else "aktiv",
                    "tick": None if ready else tick + i % 2,
                    "order": 99_000 + i,
                }
                for i in range(20)
            ]
            state = {
                "version": 1,
                "started": not ready,
                "seq": 99_999,
                "fighters": fighters,
                "log": ["x" * 300] * 30,
            }
            for command in commands:
                for action in rng.sample(actions, 4):
                    params = {
                        **base["params"],
                        "state": state,
                        "command": command,
                        "fighter": NAMES[0][:30],
                        "action": action,
                        "ticks": 200,
                        "name": "Neu",
                    }
                    yield {**base, "params": params}


def candidates(
    system: str, action: str, rng: random.Random, sides: tuple[int, ...], random_count: int
) -> Iterator[Request]:
    spec = api.describe(system, action)
    base: Request = {"system": system, "action": action, "params": complete(spec), "seed": 1}
    fields = [f for f in spec["params"] if f["type"] != "state"]
    yield base
    for field in fields:
        for value in field_values(field, rng):
            yield with_field(base, field["name"], value)
    flags = [
        (f["name"], v)
        for f in fields
        if f["type"] in {"bool", "choice"}
        for v in field_values(f, rng)
    ]
    for field in (f for f in fields if f["type"] == "dice"):
        heavy: list[Request] = []
        for count_sides in sides:
            for keep in ("", "kh1", "half"):
                found = largest_count(base, field["name"], count_sides, keep)
                if found is not None:
                    heavy.append(found)
        heavy += [with_field(base, field["name"], d) for d in dice_extremes()]
        for request in heavy:
            yield request
            for name, value in flags:
                yield with_field(request, name, value)
    if action == "tickleiste":
        yield from tickleiste_requests(base, rng)
    for _ in range(random_count):
        params = {f["name"]: random_value(f, rng) for f in fields}
        if action == "tickleiste":
            params["state"] = {}
        yield {**base, "params": {**base["params"], **params}, "seed": rng.randrange(2**32)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25, help="how many slowest requests to list")
    parser.add_argument("--random", type=int, default=150, help="random requests per action")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer sides in the binary search")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sides = QUICK_SIDES if args.quick else SIDES
    started = time.perf_counter()
    measured: list[tuple[float, str, Request]] = []
    per_action: dict[str, list[tuple[float, Request]]] = {}
    total = 0
    for system in api.catalog()["systems"]:
        for action in system["actions"]:
            key = f"{system['name']}.{action['name']}"
            for request in candidates(system["name"], action["name"], rng, sides, args.random):
                seconds = timed(request)[0]
                total += 1
                measured.append((seconds, key, request))
                slowest = per_action.setdefault(key, [])
                slowest.append((seconds, request))
                slowest.sort(key=lambda item: -item[0])
                del slowest[3:]
            measured.sort(key=lambda item: -item[0])
            del measured[4 * args.top :]
    print(f"{total} Anfragen in {time.perf_counter() - started:.0f} s gemessen")
    print()
    print(f"Die {args.top} langsamsten Anfragen (Median aus 3 Läufen, Wand- und CPU-Zeit):")
    rows = [(median_time(r), cpu_time(r), key, r) for _, key, r in measured[: 2 * args.top]]
    rows.sort(key=lambda item: -item[1])
    for wall, cpu, key, request in rows[: args.top]:
        print(f"  {line(wall, cpu, key, request)}")
    print()
    print("Langsamste Anfrage je Aktion (Median aus 3 Läufen, Wand- und CPU-Zeit):")
    for key, slowest in sorted(per_action.items()):
        # the three slowest single runs, timed again: the worst CPU median counts
        timed_again = [(median_time(r), cpu_time(r), key, r) for _, r in slowest]
        worst_here = max(timed_again, key=lambda item: item[1])
        rows.append(worst_here)
        print(f"  {line(*worst_here)}")
    print()
    wall, cpu, key, request = max(rows, key=lambda item: item[1])
    print(
        f"Schlechteste Anfrage insgesamt: CPU {cpu * 1000:.1f} ms (Wand {wall * 1000:.1f} ms), "
        f"{key}"
    )
    print(f"  {json.dumps(request, ensure_ascii=False)[:400]}")
    return 0


def line(wall: float, cpu: float, key: str, request: Request) -> str:
    answer = json.loads(api.run_json(json.dumps(request, ensure_ascii=False)))
    status = "Ergebnis" if answer["ok"] else f"abgelehnt ({answer['error']['field']})"
    return (
        f"{wall * 1000:7.1f} ms {cpu * 1000:7.1f} ms  {key:27} {status:22} "
        f"{describe_request(request)}"
    )


def describe_request(request: Request) -> str:
    """The fields that matter for the time, short: dice expressions, lists, choices."""
    spec = api.describe(request["system"], request["action"])
    defaults = complete(spec)
    changed = {
        name: value
        for name, value in request["params"].items()
        if value != defaults.get(name) and name != "state"
    }
    text = json.dumps(changed, ensure_ascii=False)
    if "state" in request["params"] and request["params"]["state"]:
        state = request["params"]["state"]
        text = f"state({len(state.get('fighters', []))} Kämpfer) " + text
    return text if len(text) <= 110 else text[:109] + "…"


if __name__ == "__main__":
    raise SystemExit(main())
