"""Systems and their actions: each rule module registers its actions here."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.params import BoolParam, ChoiceParam, IntParam, ListParam, Param

Result = dict[str, Any]
ActionFunc = Callable[[dict[str, Any], random.Random], Result]


@dataclass(frozen=True)
class Action:
    system: str
    name: str
    title: str
    summary: str
    source: str
    params: tuple[Param, ...]
    func: ActionFunc
    assumptions: tuple[str, ...] = ()
    # "" = a form generated from the params; otherwise the name of a custom browser widget
    widget: str = ""
    # Keys of the result renamed to the public vocabulary (CONTRIBUTING.md „Namen“): each new
    # key with the names it had before, wherever it occurs in the result.
    result_formerly: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # False for an action that never rolls a die (it looks up or reckons what was entered):
    # its form has no Wurfnummer, and no result of it shows a die
    rolls_dice: bool = True
    # „Was wäre wenn“ (engine/odds.py): the field holding the opponent's value this roll goes
    # against (Verteidigung, RK, SG …), an int field – its chances across that value's range
    what_if: str = ""
    # „Vergleichen“: the choice fields whose choices change the roll (manoeuvres, options,
    # grips) – the chances and expected values of each choice side by side
    compare: tuple[str, ...] = ()

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "widget": self.widget,
            "system": self.system,
            "action": self.name,
            "title": self.title,
            "summary": self.summary,
            "source": self.source,
            "params": [p.schema() for p in self.params],
            "assumptions": list(self.assumptions),
            "rolls_dice": self.rolls_dice,
        }
        if self.what_if:
            out["what_if"] = self.what_if
        if self.compare:
            out["compare"] = list(self.compare)
        if self.result_formerly:
            out["result_formerly"] = {new: list(old) for new, old in self.result_formerly}
        return out


@dataclass
class System:
    name: str
    title: str
    source: str
    actions: dict[str, Action] = field(default_factory=dict)

    def action(
        self,
        name: str,
        *,
        title: str,
        summary: str,
        source: str,
        params: tuple[Param, ...],
        assumptions: tuple[str, ...] = (),
        widget: str = "",
        result_formerly: tuple[tuple[str, tuple[str, ...]], ...] = (),
        rolls_dice: bool = True,
        what_if: str = "",
        compare: tuple[str, ...] = (),
    ) -> Callable[[ActionFunc], ActionFunc]:
        """Decorator: register ``func(params, rng) -> result`` as an action of this system."""

        def register(func: ActionFunc) -> ActionFunc:
            if name in self.actions:
                raise ValueError(f"action {self.name}.{name} registered twice")
            _check_hints(f"{self.name}.{name}", params)
            _check_formerly(f"{self.name}.{name}", params)
            _check_odds_fields(f"{self.name}.{name}", params, what_if, compare)
            self.actions[name] = Action(
                self.name,
                name,
                title,
                summary,
                source,
                params,
                func,
                assumptions,
                widget,
                result_formerly,
                rolls_dice,
                what_if,
                compare,
            )
            return func

        return register


SUBJECTS = ("", "actor", "target")


def _check_hints(where: str, params: tuple[Param, ...]) -> None:
    """A maintainer's slip in the connection hints fails at import, not in a reader's form."""
    names = {p.name: p for p in params}
    for param in params:
        if param.subject not in SUBJECTS:
            raise ValueError(f"{where}.{param.name}: subject {param.subject!r} not in {SUBJECTS}")
        if param.resource and param.subject != "target":
            raise ValueError(f"{where}.{param.name}: a resource is a target value")
        if param.resource_name and not param.resource:
            raise ValueError(f"{where}.{param.name}: resource_name without resource")
        _check_per_roll(where, param)
        _check_condition(where, param)
        for other, values in param.when:
            if other not in names or other == param.name:
                raise ValueError(f"{where}.{param.name}: when names unknown field {other!r}")
            allowed = names[other].schema().get("choices")
            if allowed is not None:
                unknown = set(values) - {c["value"] for c in allowed}
                if unknown:
                    raise ValueError(f"{where}.{param.name}: when {other} has no {unknown}")


def _check_odds_fields(
    where: str, params: tuple[Param, ...], what_if: str, compare: tuple[str, ...]
) -> None:
    """„Was wäre wenn“ goes across a number field, „Vergleichen“ across a choice's values."""
    names = {p.name: p for p in params}
    if what_if and not isinstance(names.get(what_if), IntParam):
        raise ValueError(f"{where}: what_if {what_if!r} is no number field")
    for choice in compare:
        if not isinstance(names.get(choice), ChoiceParam | BoolParam):
            raise ValueError(f"{where}: compare {choice!r} is no choice or yes/no field")


def _check_condition(where: str, param: Param) -> None:
    """A condition field (``condition``) is the situation of one roll's fighters: a yes/no field
    with the condition's name, or a choice whose ``condition_values`` are among its choices."""
    if not param.condition:
        return
    of, name = param.condition
    if of not in ("actor", "target"):
        raise ValueError(f"{where}.{param.name}: condition of {of!r}, not actor or target")
    if param.subject or param.per_roll:
        raise ValueError(
            f"{where}.{param.name}: a condition is the situation (no subject/per_roll)"
        )
    if isinstance(param, BoolParam) and name:
        return
    if isinstance(param, ChoiceParam) and not name and param.condition_values:
        values = {v for v, _ in param.choices}
        unknown = {v for v, _ in param.condition_values} - values
        if unknown:
            raise ValueError(f"{where}.{param.name}: condition_values {unknown} are no choices")
        return
    raise ValueError(
        f"{where}.{param.name}: a condition needs a yes/no field with a name or a choice with "
        "condition_values"
    )


def _check_per_roll(where: str, param: Param) -> None:
    """A value of one roll (``per_roll``) belongs to no fighter: the page clears it after the
    roll, a fight would keep it for the fighter – a field is the one or the other (also in a
    list's rows)."""
    if param.per_roll and param.subject:
        raise ValueError(
            f"{where}.{param.name}: per_roll and subject {param.subject!r} exclude each other – "
            "a value rolled or decided for one roll belongs to no fighter"
        )
    if isinstance(param, ListParam):
        for item in param.item:
            _check_per_roll(f"{where}.{param.name}", item)


def _check_formerly(where: str, params: tuple[Param, ...]) -> None:
    """A former name is one field's only: never a field's current name, never two fields'
    (also in a list's rows) – else a saved value could not say which field it meant."""
    names = {p.name for p in params}
    seen: set[str] = set()
    for param in params:
        for old in param.formerly:
            if old in names or old in seen or old == param.name:
                raise ValueError(f"{where}.{param.name}: former name {old!r} is taken")
            seen.add(old)
        if isinstance(param, ListParam):
            _check_formerly(f"{where}.{param.name}", param.item)


SYSTEMS: dict[str, System] = {}


def new_system(name: str, title: str, source: str) -> System:
    if name in SYSTEMS:
        raise ValueError(f"system {name} defined twice")
    system = System(name, title, source)
    SYSTEMS[name] = system
    return system
