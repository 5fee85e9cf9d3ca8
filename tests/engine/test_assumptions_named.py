"""Every Annahme a result rests on is named in it – over the whole catalogue.

Every action of every system in the registry, and the declared (YAML) system of the fixture
``tests/fixtures/klingenspiel`` – as it is and as if its text left every rule value open (each
one an Annahme, in variants that use every rule value of every kind) – runs across its choices:
the form's defaults from ``describe``, every choice, both ways of every flag, the limits of every
number, lists whose rows all carry the same value (ties), pairwise combinations of the choices
and flags, a few seeds; a field whose ``when`` does not hold is not sent, as the form does.

While a request runs, the data layer is watched: every read of a key on whose path an Annahme
lies (``RuleData`` of a system, ``Spec`` of a declaration) and every ``DATA.assume`` – outside
``forecast()``, whose reads only give the odds before the roll. Each Annahme read must be among
the result's „Für dieses Ergebnis angenommen“. A declaration is read when it is registered; its
kinds read again, at the roll, what they rely on – so for the declared variants the converse is
checked too: every rule value a kind knows (all but ``spec.NOT_DECIDING``) is named in some
result, and a table row marked as an Annahme when it is rolled.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine import api, data_files
from engine.data_files import RuleData
from engine.declarative import ALL_KINDS, register
from engine.declarative.spec import NOT_DECIDING, Spec
from engine.registry import SYSTEMS, System

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "klingenspiel" / "klingenspiel.yaml"
SEEDS = (1, 2, 3)
DECLARED_SEEDS = tuple(range(20))  # the declared variants: ties, crits, every table row


# ------------------------------------------------------------------ watching the data layer


def annahmen_on_path(content: Any, key: str, through_wert: bool) -> list[str]:
    """The texts of the Annahmen on the way to ``key`` and at it; ``through_wert``: an
    Annahme ``{wert, …}`` stands for its value (a declaration's ``Spec``)."""
    texts: list[str] = []
    node = content

    def note(here: Any) -> None:
        if isinstance(here, dict) and here.get("annahme") is True and "text" in here:
            texts.append(" ".join(str(here["text"]).split()))

    for part in key.split(".") if key else []:
        note(node)
        if through_wert and isinstance(node, dict) and "wert" in node and part not in node:
            node = node["wert"]
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return texts
    note(node)
    return texts


@dataclass
class Watch:
    """The Annahmen read while one request runs, outside ``forecast()``."""

    request: list[str] | None = None
    read: list[str] = field(default_factory=list)

    def seen(self, content: Any, key: str, through_wert: bool) -> None:
        if self.request is None or data_files._USED.get() is not self.request:
            return  # outside a request (import, registration) or inside forecast()
        for text in annahmen_on_path(content, key, through_wert):
            if text not in self.read:
                self.read.append(text)


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Watch:
    seen = Watch()
    real_node, real_walk, real_used = RuleData._node, Spec._walk, data_files.assumptions_used

    def node(self: RuleData, key: str) -> Any:  # every read and every assume goes through it
        value = real_node(self, key)
        seen.seen(self.content, key, through_wert=False)
        return value

    def walk(self: Spec, key: str) -> tuple[bool, Any, list[str]]:
        out = real_walk(self, key)
        seen.seen(self.data.content, self.key(key), through_wert=True)
        return out

    @contextmanager
    def request() -> Iterator[list[str]]:
        with real_used() as used:
            seen.request, seen.read = used, []
            try:
                yield used
            finally:
                seen.request = None

    monkeypatch.setattr(RuleData, "_node", node)
    monkeypatch.setattr(Spec, "_walk", walk)
    monkeypatch.setattr(api, "assumptions_used", request)
    return seen


# ------------------------------------------------------------------ the requests


def applies(item: dict[str, Any], values: dict[str, Any]) -> bool:
    return all(values.get(other) in allowed for other, allowed in item.get("when", {}).items())


def enabled(fields: list[dict[str, Any]], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with every field a changed field's ``when`` names set so that it applies."""
    by_name = {f["name"]: f for f in fields}
    out = dict(values)
    for _ in fields:  # a parent may have a parent of its own
        for item in fields:
            if out[item["name"]] == item["default"]:
                continue
            for other, allowed in item.get("when", {}).items():
                if out[other] not in allowed and other in by_name:
                    out[other] = allowed[0]
    return out


def choices(item: dict[str, Any]) -> list[Any]:
    if item["type"] == "choice":
        return [c["value"] for c in item["choices"]]
    if item["type"] == "bool":
        return [False, True]
    if item["type"] == "int":
        return [item["default"], item["min"], item["max"]]
    return [item["default"]]


def pairwise(domains: list[list[Any]]) -> list[list[int]]:
    """Rows (an index into each domain) in which every pair of values of two domains appears:
    greedy, deterministic – far fewer rows than every combination."""
    open_pairs = {
        (i, a, j, b)
        for i, j in itertools.combinations(range(len(domains)), 2)
        for a in range(len(domains[i]))
        for b in range(len(domains[j]))
    }
    rows = []
    while open_pairs:
        i, a, j, b = min(open_pairs)
        row = {i: a, j: b}
        for k, domain in enumerate(domains):
            if k not in row:
                row[k] = max(
                    range(len(domain)),
                    key=lambda value, k=k, row=row: (_gain(open_pairs, row, k, value), -value),
                )
        open_pairs -= {
            (m, row[m], n, row[n]) for m, n in itertools.combinations(range(len(domains)), 2)
        }
        rows.append([row[k] for k in range(len(domains))])
    return rows


def _gain(
    open_pairs: set[tuple[int, int, int, int]], row: dict[int, int], k: int, value: int
) -> int:
    """How many open pairs ``value`` of domain ``k`` covers with the values ``row`` has."""
    return sum(
        ((m, v, k, value) if m < k else (k, value, m, v)) in open_pairs for m, v in row.items()
    )


def requests(system: str, action: str) -> list[dict[str, Any]]:
    """What the form sends: its defaults, each choice, flag and limit on its own, uniform list
    rows, pairwise combinations of choices and flags (each with the fields its ``when`` needs)."""
    fields = [f for f in api.describe(system, action)["params"] if f["type"] != "state"]
    base = {f["name"]: f["default"] for f in fields}
    wanted = [base]
    for item in fields:
        for value in choices(item):
            wanted.append({**base, item["name"]: value})
        if item["type"] == "list" and base[item["name"]]:
            for column in item["item"]:
                for value in choices(column):
                    rows = [{**row, column["name"]: value} for row in base[item["name"]]]
                    wanted.append({**base, item["name"]: rows})
    factors = [f for f in fields if f["type"] in ("choice", "bool")]
    for row in pairwise([choices(f) for f in factors]):
        wanted.append(
            {**base, **{f["name"]: choices(f)[v] for f, v in zip(factors, row, strict=True)}}
        )
    out: dict[str, dict[str, Any]] = {}
    for values in wanted:
        values = enabled(fields, values)
        sent = {f["name"]: values[f["name"]] for f in fields if applies(f, values)}
        out.setdefault(json.dumps(sent, sort_keys=True), sent)
    return list(out.values())


def unnamed(
    watch: Watch, system: str, action: str, seeds: tuple[int, ...]
) -> tuple[list[str], set[str]]:
    """Every Annahme read but not named (with the request), and every Annahme named."""
    missing: list[str] = []
    named: set[str] = set()
    for params, seed in itertools.product(requests(system, action), seeds):
        answer = api.run(system, action, params, seed)
        if not answer["ok"]:
            continue
        said = [
            item
            for section in answer["result"]["display"]["sections"]
            if section.get("caption") == api.ASSUMED_CAPTION
            for item in section["items"]
        ]
        named.update(said)
        missing += [
            f"{system}.{action} {json.dumps(params, ensure_ascii=False)} Seed {seed}: {text}"
            for text in watch.read
            if text not in said
        ]
    return missing, named


# ------------------------------------------------------------------ the catalogue

ACTIONS = [(s, a) for s in SYSTEMS for a in SYSTEMS[s].actions]


@pytest.mark.parametrize(("system", "action"), ACTIONS)
def test_every_annahme_read_is_named(watch: Watch, system: str, action: str) -> None:
    missing, _ = unnamed(watch, system, action, SEEDS)
    assert not missing, "\n".join(missing[:5])


def test_the_watch_sees_the_annahmen_read(watch: Watch) -> None:
    """Not empty: every system whose data has Annahmen has some read in some result (here:
    its first action whose answers read one)."""
    for system, spec in SYSTEMS.items():
        if data_files.data_file(system) is None:
            continue
        if not data_files.load(system).assumptions():
            continue
        reads = 0
        for action in spec.actions:
            for params in requests(system, action)[:20]:
                api.run(system, action, params, 1)
                reads += len(watch.read)
            if reads:
                break
        assert reads, system


def test_a_quiet_read_is_caught(watch: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: an action that reads an Annahme without naming it – a table row
    marked as one, read with the table – fails it."""
    data = RuleData(
        "watch_test.yaml",
        {"zeilen": [{"wirkung": "Stolpern", "annahme": True, "text": "Zeile angenommen."}]},
    )
    system = System("watch_test", "Test", "005_0123456789abcdef.txt")

    @system.action("quiet", title="Leise", summary="Liest leise.", source="L1", params=())
    def quiet(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        row = data.raw("zeilen.0")  # the row itself: no wert, so raw does not name it
        return {"display": {"headline": "Leise", "outcome": row["wirkung"], "sections": []}}

    monkeypatch.setitem(SYSTEMS, "watch_test", system)
    missing, _ = unnamed(watch, "watch_test", "quiet", (1,))
    assert missing and missing[0].endswith("Zeile angenommen.")


# ------------------------------------------------------------------ the declared kinds


def fixture() -> dict[str, Any]:
    content: dict[str, Any] = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    return content


def open_everywhere(content: dict[str, Any]) -> dict[str, Any]:
    """The declaration as if its text left every rule value open: each an Annahme whose text
    names its action and key, each row of a table too."""
    out = copy.deepcopy(content)
    for name, action in out["aktionen"].items():
        for key in list(action):
            if key not in NOT_DECIDING:
                text = f"Annahme {name}.{key}"
                action[key] = {"wert": action[key], "annahme": True, "text": text, "quelle": "L1"}
    for name, table in out["tabellen"].items():
        for index, row in enumerate(table["zeilen"]):
            row.update(annahme=True, text=f"Annahme {name}.{index}", quelle="L1")
    return out


def variants() -> dict[str, dict[str, Any]]:
    """The fixture, and declarations that use every rule value of every kind, each open."""
    plain = fixture()
    more = fixture()
    more["aktionen"]["initiative"].update(
        gleichstand=[
            "hoeherer_wert",
            {"feld": {"name": "mut", "label": "Mut", "vorgabe": 1}},
            "stechen",
        ],
        wurf="1W2",  # equal totals and a roll-off settled by lot: often enough for the seeds
        stechen_wurf="1W2",
        stechen_hoechstens=1,
    )
    angriff = more["aktionen"]["angriff"]
    del angriff["ziel"]
    angriff.update(zielwert=11, gelingt="ueber", kritisch={"augen": [12], "bestaetigen": True})
    more["aktionen"]["schaden"].update(wurf="1W6", kritisch={"zusatzwurf": "1W4"})
    # a single roll with every rule value (art: wurf) and a helper for a rule the text lacks
    more["aktionen"]["sturz"] = {
        "art": "wurf",
        "titel": "Sturz",
        "zusammenfassung": "1W6 + 1 je 3 Meter über 2 m, höchstens +4.",
        "quelle": "L1",
        "wurf": "1W6",
        "felder": [
            {"name": "hoehe", "label": "Höhe", "vorgabe": 7, "min": 0, "max": 30},
            {"name": "greifen", "label": "Gegriffen", "art": "ja_nein"},
        ],
        "modifikatoren": [
            {
                "feld": "hoehe",
                "label": "Höhe {wert} m",
                "faktor": 1,
                "ab": 2,
                "je": 3,
                "hoechstens": 4,
                "rundung": "abrunden",
            }
        ],
        "ergebnis": [
            {"bis": 2, "meldung": "Kaum etwas."},
            {"wenn": "greifen", "meldung": "{summe} gegriffen."},
            {"meldung": "{summe} Schaden."},
        ],
        "chancen": [{"name": "kaum etwas", "bis": 2}],
        "zusatzwurf": {"name": "beute", "wenn": "greifen", "wurf": "1W4", "meldung": "+{summe}"},
    }
    more["aktionen"]["keine"] = {
        "art": "keine_regel",
        "titel": "Keine Regel",
        "zusammenfassung": "Der Text hat keine.",
        "quelle": "L1",
        "erklaerung": "Der Text enthält keine Regel dafür.",
    }
    together = fixture()
    together["aktionen"]["initiative"]["gleichstand"] = ["hoeherer_wert", "gleichzeitig"]
    # the fight contract's short form: the states on the damage action, no kampf:
    short = fixture()
    del short["kampf"]
    short["aktionen"]["schaden"]["zustand"] = [
        {"bis": -5, "zustand": "tot", "text": "tot"},
        {"bis": 0, "zustand": "kampfunfähig", "text": "bewusstlos"},
    ]
    # a critical doubled after the armour, the minimum raising what is left (issue 47)
    after = fixture()
    after["aktionen"]["schaden"].update(kritisch={"verdoppeln": "nach_ruestung"}, minimum=1)
    return {
        "klingen": plain,
        "klingen_danach": open_everywhere(after),
        "klingen_offen": open_everywhere(plain),
        "klingen_mehr": open_everywhere(more),
        "klingen_gleichzeitig": open_everywhere(together),
        "klingen_kurz": open_everywhere(short),
    }


def declare(content: dict[str, Any], name: str) -> System:
    system = System(name, content["system"]["titel"], content["system"]["quelle"])
    data = RuleData(f"{name}.yaml", json.loads(json.dumps(content)))
    for action in content["aktionen"]:
        register(system, data, action)
    return system


def test_the_declared_kinds_name_every_annahme_they_read_and_each_decides(
    watch: Watch, monkeypatch: pytest.MonkeyPatch
) -> None:
    named_by_kind: dict[str, set[str]] = {kind: set() for kind in ALL_KINDS}
    rows: set[str] = set()
    named_rows: set[str] = set()
    for name, content in variants().items():
        monkeypatch.setitem(SYSTEMS, name, declare(content, name))
        for action, declared in content["aktionen"].items():
            missing, named = unnamed(watch, name, action, DECLARED_SEEDS)
            assert not missing, "\n".join(missing[:5])
            kind = declared["art"]
            prefix = f"Annahme {action}."
            named_by_kind[kind] |= {t.removeprefix(prefix) for t in named if t.startswith(prefix)}
            if kind == "tabelle" and name != "klingen":
                table = content["tabellen"][declared["tabelle"]["wert"]]
                rows |= {row["text"] for row in table["zeilen"]}
                named_rows |= named
    never = {
        kind: sorted(set(allowed - NOT_DECIDING) - named_by_kind[kind])
        for kind, (_, allowed) in ALL_KINDS.items()
    }
    assert never == {kind: [] for kind in ALL_KINDS}, "never named in a result"
    assert rows and rows <= named_rows, sorted(rows - named_rows)
