"""The initiative toolkit every system that orders fighters shares (``engine/ordering.py``)."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import pkgutil
import random

import engine
from engine import dice
from engine.ordering import Fighter, RolledFighter, place_turns, roll_off


def test_every_fighter_of_an_initiative_order_is_the_shared_one() -> None:
    """One base fighter for the systems that order fighters (issue 27, point 5): a system's
    ``Fighter`` adds its own fields to ``engine.ordering.Fighter`` instead of copying index,
    name, roll-off and tie note."""
    fighters = []
    import regeln  # this site's systems (content) beside the engine's own modules

    walked = [
        *pkgutil.walk_packages(engine.__path__, "engine."),
        *pkgutil.walk_packages(regeln.__path__, "regeln."),
    ]
    for module in walked:
        if module.name == "engine.__main__":
            continue
        found = getattr(importlib.import_module(module.name), "Fighter", None)
        if isinstance(found, type) and found.__module__ == module.name:
            fighters.append(found)
    assert len(fighters) >= 5  # pathfinder, dsa, ryssea, aktionswuerfel, declarative
    copies = [f"{f.__module__}.Fighter" for f in fighters if not issubclass(f, Fighter)]
    assert not copies, copies
    for fighter in fighters:
        names = [f.name for f in dataclasses.fields(fighter)]
        assert names[:2] == ["index", "name"], fighter.__module__


def test_a_roll_off_is_recorded_on_each_fighter_until_the_order_is_clear() -> None:
    """Tied fighters roll the Stechen die, higher first; those still equal roll again among
    themselves. Every die is kept on its fighter, and his tie note reads them in order."""
    rng = random.Random(7)
    group = [Fighter(index, name) for index, name in enumerate(["Alrik", "Bruna", "Ork"])]
    ordered, unresolved = roll_off(group, dice.parse("1W2"), rng, rounds=1000)
    assert not unresolved
    assert sorted(f.name for f in ordered) == ["Alrik", "Bruna", "Ork"]
    for fighter in group:
        assert fighter.rolloff
        assert fighter.tie_note == "Stechen " + " · ".join(map(str, fighter.rolloff))
    for before, after in itertools.pairwise(ordered):
        common = 0  # the rounds both rolled in (together in a still tied group)
        while (
            common < min(len(before.rolloff), len(after.rolloff))
            and before.rolloff[common] == after.rolloff[common]
        ):
            common += 1
        assert before.rolloff[common] > after.rolloff[common]


def test_a_roll_off_out_of_rounds_leaves_the_group_in_its_order() -> None:
    group = [Fighter(0, "Alrik"), Fighter(1, "Bruna")]
    ordered, unresolved = roll_off(group, dice.parse("3"), random.Random(1), rounds=2)
    assert ordered == group
    assert unresolved == [group]
    assert [f.tie_note for f in group] == ["Stechen 3 · 3", "Stechen 3 · 3"]


def test_the_places_of_an_order_are_its_turns() -> None:
    rolled = dice.roll(dice.parse("1W6"), random.Random(3))
    order = [RolledFighter(1, "Bruna", roll=rolled, initiative=9), Fighter(0, "Alrik")]
    assert place_turns(order) == [
        {"name": "Bruna", "label": "Platz 1"},
        {"name": "Alrik", "label": "Platz 2"},
    ]
