"""Declared roll actions: a system's helpers written in its YAML, without Python.

A data file ``regeln/<system>.yaml`` with ``aktionen:`` declares actions of these kinds,
the shapes most combat chapters use:

- ``art: tabelle`` – roll dice, find the row of a rule table by its range (:mod:`.table`);
- ``art: initiative`` – dice + a value per fighter (one field or the sum of several), the
  order, tie rules (:mod:`.initiative`);
- ``art: probe`` – dice + value + modifiers against a target, criticals, fumbles, confirmation
  rolls (:mod:`.check`);
- ``art: schaden`` – dice + bonus − armour, a minimum, criticals, the resource it reduces
  (:mod:`.damage`);
- ``art: wurf`` – one roll ± shares of fields, its total said in words (:mod:`.roll`);
- ``art: keine_regel`` – the text has no rule for this: the helper says so (:mod:`.no_rule`).

Every action has ``titel``, ``zusammenfassung`` and ``quelle`` (lines of the system's source,
„L12–L20“; the file is the system's ``system.quelle``), its fields as ``{name, label, hilfe,
vorgabe, min, max, pflicht, wer, pro_wurf …}`` (:mod:`.spec`) and may write any value as an
Annahme (``{wert, annahme: true, text, quelle}``) or list free ones under ``annahmen:``; the
helper shows them collapsed, a result names those it relied on.

A file with ``system: {titel, quelle}`` is a system of its own (no Python package needed); a
system that has Python actions may declare more in its own file (both mix: the Python ones come
first, the declared ones in name order – ``nach: <Aktion>`` places one right after an
action). :func:`load_all` registers every declared action – the actions are ``Action`` objects
with ``Param`` fields, so ``describe``, ``run``, the forms, the CLI and the fight treat them as
any other. A mistake in a declaration fails at import with a :class:`DataError` naming the
file and the key.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import fight_contract
from engine.data_files import (
    DataError,
    RuleData,
    load,
    note_assumption,
    system_names,
)
from engine.declarative import check, damage, initiative, no_rule, roll, table
from engine.declarative.spec import Spec
from engine.params import BoolParam, ChoiceParam, IntParam, Param
from engine.registry import SYSTEMS, ActionFunc, System, new_system

Builder = Callable[[Spec], tuple[tuple[Param, ...], ActionFunc]]
KINDS: dict[str, tuple[Builder, frozenset[str]]] = {
    "tabelle": (table.build, table.ALLOWED),
    "initiative": (initiative.build, initiative.ALLOWED),
    "probe": (check.build, check.ALLOWED),
    "schaden": (damage.build, damage.ALLOWED),
}
# the kinds beyond the four roll helpers every new system starts with (harness/scaffold.py
# writes one of each of ``KINDS``): a single roll said in words, a rule the text lacks
MORE_KINDS: dict[str, tuple[Builder, frozenset[str]]] = {
    "wurf": (roll.build, roll.ALLOWED),
    "keine_regel": (no_rule.build, no_rule.ALLOWED),
}
ALL_KINDS = {**KINDS, **MORE_KINDS}
SYSTEM_KEYS = {"titel", "quelle"}


def declared_files() -> list[str]:
    """The systems whose data file declares actions (``aktionen:``), in name order."""
    return [name for name in system_names() if "aktionen" in load(name).content]


DECLARED: dict[str, list[str]] = {}
"""What :func:`load_all` registered: per system the declared actions (a system of its own has
``""`` first)."""


def load_all() -> None:
    for name in declared_files():
        if name not in DECLARED:
            load_system(name)


def reload() -> None:
    """Register the declared actions again from the data files as they are now (``make
    serve`` after an edit): what was declared before goes, the Python actions stay."""
    for name, actions in DECLARED.items():
        if actions[:1] == [""]:
            SYSTEMS.pop(name, None)
        elif name in SYSTEMS:
            for action in actions:
                SYSTEMS[name].actions.pop(action, None)
    DECLARED.clear()
    load.cache_clear()
    load_all()


def load_system(name: str) -> System:
    data = load(name)
    system = SYSTEMS.get(name)
    declared = DECLARED.setdefault(name, [])
    if system is None:
        declared.append("")
        head = data.raw("system")
        if not isinstance(head, dict) or set(head) - SYSTEM_KEYS:
            raise DataError(data.file, "system", "muss {titel, quelle} sein")
        system = new_system(name, data.text("system.titel"), data.text("system.quelle"))
    actions = data.raw("aktionen")
    fight_contract.declare(name, data)  # its fight: ``kampf:`` or the short form (checked)
    if not isinstance(actions, dict) or not actions:
        raise DataError(data.file, "aktionen", "muss Aktionen als Name: {art, titel, …} enthalten")
    for action in actions:
        register(system, data, str(action))
        declared.append(str(action))
    for action in actions:
        _check_follow_ups(system, data, str(action))
    _place(system, data, [str(a) for a in actions])
    return system


def register(system: System, data: RuleData, name: str) -> None:
    spec = Spec(data, name, system)
    kind = spec.text("art")
    if kind not in ALL_KINDS:
        raise spec.error("art", f"muss eine von {', '.join(ALL_KINDS)} sein, ist {kind!r}")
    builder, allowed = ALL_KINDS[kind]
    spec.mapping("", allowed)
    params, func = builder(spec)
    lines = spec.text("quelle")
    source = lines if ".txt" in lines else f"{system.source} {lines}"
    free = _free_assumptions(spec)
    prefix = f"{spec.prefix}."
    texts = data.assumptions_for(prefix, *spec.listed)

    def run(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        for text in free:
            note_assumption(text)
        return func(values, rng)

    what_if, compare = _odds_fields(spec, kind, params)
    system.action(
        name,
        title=spec.text("titel"),
        summary=spec.text("zusammenfassung"),
        source=source,
        params=params,
        assumptions=texts,
        what_if=what_if,
        compare=compare,
        result_formerly=spec.result_formerly,
        rolls_dice=spec.rolls_dice,
    )(run)
    if spec.has("nach"):
        spec.text("nach")  # placed by ``load_system`` once every action is there


def _place(system: System, data: RuleData, names: list[str]) -> None:
    """``nach: <Aktion>``: a declared helper stands right after that action of its system (in
    the catalogue, the pages' tabs, the command line) – after the ones placed there before it;
    without it, declared helpers follow the Python ones in name order (the compiled JSON's).
    So a Python system keeps its order when one of its actions moves into the YAML."""
    after = {}
    for name in names:
        spec = Spec(data, name, system)
        if spec.has("nach"):
            target = spec.text("nach")
            if target not in system.actions or target == name:
                raise spec.error("nach", f"„{target}“ ist keine andere Aktion von {system.title}")
            after[name] = target
    order = [n for n in system.actions if n not in after]
    placed_after: dict[str, str] = {}
    while after:
        ready = [n for n, target in after.items() if target in order]
        if not ready:
            name = next(iter(after))
            raise Spec(data, name, system).error("nach", "die Angaben nach: bilden einen Kreis")
        for name in ready:
            target = after.pop(name)
            index = order.index(target) + 1
            while index < len(order) and placed_after.get(order[index]) == target:
                index += 1
            order.insert(index, name)
            placed_after[name] = target
    actions = dict(system.actions)
    system.actions.clear()
    system.actions.update({name: actions[name] for name in order})


def _odds_fields(spec: Spec, kind: str, params: tuple[Param, ...]) -> tuple[str, tuple[str, ...]]:
    """„Was wäre wenn“ and „Vergleichen“ (engine/odds.py) without code: ``was_waere_wenn:
    <feld>`` (a number field of the action; a ``probe`` goes across its ``ziel`` unless told
    otherwise) and ``vergleichen: [<feld>, …]`` (its ja/nein fields)."""
    numbers = [p.name for p in params if isinstance(p, IntParam)]
    choices = [p.name for p in params if isinstance(p, BoolParam | ChoiceParam)]
    what_if = ""
    if spec.has("was_waere_wenn"):
        what_if = str(spec.raw("was_waere_wenn"))
        if what_if not in numbers:
            raise spec.error(
                "was_waere_wenn",
                f"„{what_if}“ ist kein Zahlenfeld dieser Aktion (möglich: "
                f"{', '.join(numbers) or 'keins'})",
            )
    elif kind == "probe" and spec.has("ziel"):
        what_if = spec.text("ziel.name")
    compare: list[str] = []
    for index, entry in enumerate(spec.items("vergleichen")):
        if entry not in choices or entry in compare:
            problem = (
                "steht schon in der Liste"
                if entry in compare
                else (
                    f"„{entry}“ ist kein Ja/Nein-Feld dieser Aktion (möglich: "
                    f"{', '.join(choices) or 'keins'})"
                )
            )
            raise spec.error(f"vergleichen.{index}", problem)
        compare.append(str(entry))
    return what_if, tuple(compare)


def _free_assumptions(spec: Spec) -> list[str]:
    """``annahmen:`` – Annahmen that hold for every roll of the action."""
    out = []
    for index, entry in enumerate(spec.items("annahmen")):
        if not isinstance(entry, dict) or entry.get("annahme") is not True:
            raise spec.error(f"annahmen.{index}", "muss {annahme: true, text, quelle} sein")
        out.append(spec.text(f"annahmen.{index}.text"))
    return out


def _check_follow_ups(system: System, data: RuleData, name: str) -> None:
    spec = Spec(data, name, system)
    if not spec.has("folgen"):
        return
    for key, target in spec.mapping("folgen", {"erfolg", "patzer"}).items():
        if target not in system.actions:
            raise spec.error(f"folgen.{key}", f"„{target}“ ist keine Aktion von {system.title}")
