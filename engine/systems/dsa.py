"""DSA 4.1 Hausregeln (source 001_240b8e52c108db7c.txt): initiative, attack, defence, damage,
fumble.

The source is one line of flattened wiki markup, so rules are cited by section heading
(``Abschnitt "…"``) and the page in ``docs/dsa/`` that shows it. Sign convention as in the
text: ``+N`` is an Erschwernis (harder), ``−N`` an Erleichterung. Probes are 1W20 roll-under:
a roll ≤ the value (after all Erschwernisse) succeeds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine import dice
from engine.data_files import DataError, load
from engine.display import Display
from engine.errors import EngineError
from engine.formatting import decimal, fraction_text, number, signed
from engine.ordering import check_unique_names, order_groups, roll_off
from engine.params import BoolParam, ChoiceParam, DiceParam, IntParam, ListParam, TextParam
from engine.registry import new_system

SOURCE = "001_240b8e52c108db7c.txt"
SYSTEM = new_system("dsa", "DSA 4.1 Hausregeln", SOURCE)
DATA = load("dsa")


def _cite(section: str, page: str) -> str:
    return f'{SOURCE}, Abschnitt "{section}" (docs/dsa/{page})'


CITE_ABLAUF = _cite("Ablauf einer Kampfrunde", "kampfrunde.md")
CITE_SONSTIGE = _cite("Mögliche Sonstige Aktionen", "aktionen.md")
CITE_FREIE = _cite("Mögliche Freie Aktionen...", "aktionen.md")
CITE_ABWEHR = _cite("Mögliche Abwehraktionen...", "aktionen.md")
CITE_AUSWAHL = _cite("Auswahl von durchzuführenden Aktionen", "kampfrunde.md")
CITE_CRITS = _cite("Crits und Patzer", "crits-und-wunden.md")
CITE_WUNDEN = (
    f'{SOURCE}, Abschnitt "Crits und Patzer", folgender Absatz „Ist ein Kämpfer stark '
    f"verwundet …“ (docs/dsa/crits-und-wunden.md#wunden)"
)
CITE_FERNKAMPF = _cite("Besonderheiten von Fernkampfwaffen", "waffen-und-fernkampf.md")
CITE_GETUEMMEL = _cite("Fernkampfattacken ins Kampfgetümmel", "waffen-und-fernkampf.md")
CITE_SF = _cite("Geläufigste aktive Kampfsonderfertigkeiten", "sonderfertigkeiten.md")

# ---------------------------------------------------------------------------------------------
# Rule data
# ---------------------------------------------------------------------------------------------

PROBE_DIE_SIDES = 20


def _halve(value: int, key: str) -> int:
    """``value / 2`` rounded as ``halbieren.<key>`` in the data says (``auf`` or ``ab``)."""
    mode = DATA.text(f"halbieren.{key}")
    if mode == "auf":
        return -((-value) // 2)
    if mode == "ab":
        return value // 2
    raise DataError(DATA.file, f"halbieren.{key}", f"muss „auf“ oder „ab“ sein, ist {mode!r}")


def _distance_rows() -> list[dict[str, Any]]:
    return DATA.table("tabellen.entfernungen.zeilen", ("schluessel", "entfernung", "wert"))


def _combination(key: str) -> int:
    """Erschwernis of the action combination ``key`` (table "Auswahl von … Aktionen")."""
    rows = DATA.table(
        "tabellen.aktionskombinationen.zeilen", ("schluessel", "kombination", "erschwernis")
    )
    for row in rows:
        if row["schluessel"] == key:
            value = row["erschwernis"]
            if isinstance(value, bool) or not isinstance(value, int):
                raise DataError(DATA.file, "tabellen.aktionskombinationen", "erschwernis")
            return value
    raise DataError(DATA.file, f"tabellen.aktionskombinationen.{key}", "fehlt")


def _assumptions(*prefixes: str) -> tuple[str, ...]:
    return tuple(
        a["text"] for a in DATA.assumptions() if any(a["key"].startswith(p) for p in prefixes)
    )


def _probe_die() -> dice.Expression:
    expression = dice.parse(DATA.text("probe.wurf"), "probe.wurf", "Probenwurf")
    return expression


def _wound_penalty() -> int:
    return DATA.integer("probe.wunde_erschwernis", 0, 10)


# ---------------------------------------------------------------------------------------------
# The 1W20 probe with confirmation (Abschnitt "Crits und Patzer")
# ---------------------------------------------------------------------------------------------

# Outcome keys, shared by attack and defence.
KRITISCH = "kritisch"
GLUECKLICH = "gluecklich"
GELUNGEN = "gelungen"
ANDERE_PERSON = "andere_person"
MISSLUNGEN = "misslungen"
UNGLUECKLICH = "ungluecklich"
PATZER = "patzer"


def confirmation_succeeds(confirm: int, target: int) -> bool:
    """The confirmation W20 (Annahme): ≤ value succeeds; a 1 always succeeds, a 20 always fails."""
    if confirm == 1:
        return True
    if confirm == PROBE_DIE_SIDES:
        return False
    return confirm <= target


def probe_outcome(first: int, confirm: int | None, target: int, melee_free: int | None) -> str:
    """Outcome key of a W20 probe against ``target`` (the value after all Erschwernisse).

    ``melee_free`` is the value without the Kampfgetümmel surcharge (None: no Kampfgetümmel);
    a roll that fails only because of that surcharge hits another person (ANDERE_PERSON).
    ``confirm`` is the confirmation W20, needed exactly when ``first`` is 1 or 20.
    """
    ones_always = DATA.flag("probe.eins_gelingt")
    if first == 1 and (ones_always or target >= 1):
        if confirm is None:
            raise ValueError("a 1 needs a confirmation roll")
        return KRITISCH if confirmation_succeeds(confirm, target) else GLUECKLICH
    if first == PROBE_DIE_SIDES:
        if confirm is None:
            raise ValueError("a 20 needs a confirmation roll")
        return UNGLUECKLICH if confirmation_succeeds(confirm, target) else PATZER
    if first <= target:
        return GELUNGEN
    if melee_free is not None and first <= melee_free:
        return ANDERE_PERSON
    return MISSLUNGEN


def needs_confirmation(first: int, target: int) -> bool:
    if first == PROBE_DIE_SIDES:
        return True
    return first == 1 and (DATA.flag("probe.eins_gelingt") or target >= 1)


def probe_chances(target: int, melee_free: int | None = None) -> dict[str, Fraction]:
    """Exact probability of every outcome key (first W20, then the confirmation W20)."""
    sides = PROBE_DIE_SIDES
    out = {
        k: Fraction(0)
        for k in (KRITISCH, GLUECKLICH, GELUNGEN, ANDERE_PERSON, MISSLUNGEN, UNGLUECKLICH, PATZER)
    }
    for first in range(1, sides + 1):
        if needs_confirmation(first, target):
            for confirm in range(1, sides + 1):
                out[probe_outcome(first, confirm, target, melee_free)] += Fraction(1, sides * sides)
        else:
            out[probe_outcome(first, None, target, melee_free)] += Fraction(1, sides)
    return out


@dataclass
class ProbeRoll:
    first: dice.RollResult
    confirm: dice.RollResult | None
    outcome: str


def roll_probe(rng: random.Random, target: int, melee_free: int | None = None) -> ProbeRoll:
    die = _probe_die()
    first = dice.roll(die, rng)
    confirm = dice.roll(die, rng) if needs_confirmation(first.total, target) else None
    outcome = probe_outcome(
        first.total, None if confirm is None else confirm.total, target, melee_free
    )
    return ProbeRoll(first, confirm, outcome)


def _modifier_rows(modifiers: list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [{"name": name, "value": value} for name, value in modifiers]


def _value_table(
    display: Display, caption: str, base: list[tuple[str, int]], mods: list[tuple[str, int]]
) -> None:
    """The value and every Erschwernis (+ = harder) as a table."""
    rows = [[name, number(value)] for name, value in base]
    rows += [[name, f"{signed(value)} (Erschwernis)"] for name, value in mods]
    display.table(caption, ["Posten", "Wert"], rows)


def _probe_roll_display(display: Display, label: str, probe: ProbeRoll, target: int) -> None:
    display.roll(f"{label} (W20 gegen {number(target)})", probe.first)
    if probe.confirm is not None:
        display.roll(f"Bestätigungswurf (W20 gegen {number(target)})", probe.confirm)


# ---------------------------------------------------------------------------------------------
# initiative
# ---------------------------------------------------------------------------------------------

FIGHTER_FIELDS = (
    TextParam("name", "Name", help="Wie der Kämpfer in der Phasenliste heißt.", max_length=30),
    TextParam(
        "seite",
        "Seite",
        default="Helden",
        max_length=30,
        help="Wer auf derselben Seite steht, ist Mitstreiter (wichtig für Taktik).",
    ),
    IntParam("ini_basis", "INI-Basis", default=10, minimum=0, maximum=40),
    IntParam(
        "modifikator",
        "INI-Modifikator",
        default=0,
        minimum=-20,
        maximum=20,
        help=(
            "Wird zur INI addiert (z. B. Waffen-INI, Vorteile, Sonderfertigkeiten). "
            "Achtung: Hier ist + schneller, nicht erschwert."
        ),
    ),
    BoolParam(
        "orientieren",
        "Orientiert",
        help="Hat sich mit Orientieren (zwei Aktionen) einen Überblick verschafft: INI auf Maximum",
    ),
    IntParam(
        "ausweichen",
        "Ungezielt ausgewichen",
        default=0,
        minimum=0,
        maximum=10,
        help="Wie oft seit dem Wurf bzw. letzten Orientieren ungezielt ausgewichen (je −4 INI).",
    ),
    IntParam(
        "taktik_bonus",
        "Taktik-Bonus",
        default=0,
        minimum=0,
        maximum=30,
        help="TaP*, die der Taktiker diesem Mitstreiter als INI-Bonus zuteilt.",
    ),
)

TAKTIK_CHOICES = (
    ("keine", "keine Taktik"),
    ("gelungen", "Kriegskunst-Probe gelungen"),
    ("gescheitert", "Kriegskunst-Probe gescheitert"),
)


@dataclass
class Fighter:
    index: int
    name: str
    side: str
    ini_basis: int
    modifier: int
    oriented: bool
    evasions: int
    roll: dice.RollResult | None
    die_value: int
    taktik: int
    initiative: int
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    rolloff: list[int] = field(default_factory=list)
    tie_note: str = ""


def _ini_die() -> dice.Expression:
    return dice.parse(DATA.text("initiative.wurf"), "initiative.wurf", "Initiativwurf")


def _rolloff_die() -> dice.Expression:
    return dice.parse(DATA.text("initiative.stechen_wurf"), "initiative.stechen_wurf", "Stechen")


def _roll_off(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Each rolls the Stechen die, higher first; those still equal roll again (Annahme)."""
    limit = DATA.integer("initiative.stechen_hoechstens", 1, 10_000)

    def record(fighter: Fighter, value: int) -> None:
        fighter.rolloff.append(value)
        fighter.tie_note = "Stechen " + " · ".join(str(v) for v in fighter.rolloff)

    ordered, unresolved = roll_off(group, _rolloff_die(), rng, record, limit)
    if unresolved:
        raise EngineError(f"Stechen: nach {limit} Würfen noch unentschieden.", "fighters")
    return ordered


def _resolve_tie(group: list[Fighter], rng: random.Random) -> list[Fighter]:
    """Same INI: higher INI-Basis first; still tied: roll-off (Annahme)."""

    def note(basis: int, fighter: Fighter) -> None:
        fighter.tie_note = f"INI-Basis {basis}"

    ordered, _ = order_groups(
        group,
        lambda f: f.ini_basis,
        lambda same: _roll_off(same, rng),
        descending=True,
        single=note,
    )
    return ordered


def first_chances(distributions: list[dict[int, Fraction]], ini_bases: list[int]) -> list[Fraction]:
    """Exact chance of each fighter to act first, before the INI roll.

    Each INI follows its own distribution (a point for an oriented fighter); a tie goes to the
    higher INI-Basis, and a full tie is a fair roll-off, so each of k tied fighters wins with 1/k.
    Computed with integer counts (one common denominator per fighter) and a single division at
    the end, so 20 fighters stay fast.
    """
    counts: list[dict[int, int]] = []
    totals: list[int] = []
    for dist in distributions:
        denominator = math.lcm(*(p.denominator for p in dist.values()))
        counts.append({v: int(p * denominator) for v, p in dist.items()})
        totals.append(denominator)
    size = len(distributions)
    shares = math.lcm(*range(1, size + 1))  # w_k / (k + 1) stays an integer when scaled by this
    everyone = math.prod(totals)
    chances = []
    for me, mine_counts in enumerate(counts):
        total = 0
        for mine, n_mine in mine_counts.items():
            weights = [1]  # weights[k]: others beaten or tied, k of them fully tied (counts)
            for other, other_counts in enumerate(counts):
                if other == me:
                    continue
                beaten = 0
                tied = 0
                for theirs, n_other in other_counts.items():
                    if theirs < mine or (theirs == mine and ini_bases[other] < ini_bases[me]):
                        beaten += n_other
                    elif theirs == mine and ini_bases[other] == ini_bases[me]:
                        tied += n_other
                nxt = [0] * (len(weights) + 1)
                for k, w in enumerate(weights):
                    nxt[k] += w * beaten
                    nxt[k + 1] += w * tied
                weights = nxt
            total += n_mine * sum(w * (shares // (k + 1)) for k, w in enumerate(weights))
        chances.append(Fraction(total, shares * everyone))
    return chances


def _validate_initiative(params: dict[str, Any]) -> dict[int, int]:
    """Cross-field checks; returns the INI change from Taktik for each fighter index."""
    rows: list[dict[str, Any]] = params["fighters"]
    check_unique_names(rows, "fighters", "Kämpfer")
    seen = {row["name"].casefold(): index for index, row in enumerate(rows)}
    probe = params["taktik_probe"]
    tactician_name = params["taktiker"]
    if probe == "keine":
        if tactician_name:
            raise EngineError(
                "Taktiker: nur zusammen mit einer Kriegskunst-Probe (gelungen oder gescheitert).",
                "taktiker",
            )
        if params["taktik_tap"]:
            raise EngineError(
                "Übrige TaP*: nur nach einer gelungenen Kriegskunst-Probe.", "taktik_tap"
            )
        for index, row in enumerate(rows):
            if row["taktik_bonus"]:
                raise EngineError(
                    f"Kämpfer {index + 1} – Taktik-Bonus: nur nach einer gelungenen "
                    f"Kriegskunst-Probe eines Taktikers.",
                    f"fighters.{index}.taktik_bonus",
                )
        return {}
    if not tactician_name:
        raise EngineError("Taktiker: Name des Kämpfers, der Taktik einsetzt, fehlt.", "taktiker")
    if tactician_name.casefold() not in seen:
        raise EngineError(
            f"Taktiker: „{tactician_name}“ ist keiner der Kämpfer.",
            "taktiker",
        )
    tactician = rows[seen[tactician_name.casefold()]]
    allies = {
        i
        for i, row in enumerate(rows)
        if row["seite"] == tactician["seite"] and row is not tactician
    }
    change: dict[int, int] = {}
    if probe == "gescheitert":
        if params["taktik_tap"]:
            raise EngineError(
                "Übrige TaP*: nur nach einer gelungenen Kriegskunst-Probe.", "taktik_tap"
            )
        for index, row in enumerate(rows):
            if row["taktik_bonus"]:
                raise EngineError(
                    f"Kämpfer {index + 1} – Taktik-Bonus: Die Kriegskunst-Probe ist gescheitert, "
                    f"es gibt keine TaP* zu verteilen.",
                    f"fighters.{index}.taktik_bonus",
                )
        failure = DATA.integer("initiative.taktik_fehlschlag", -20, 0)
        return {i: failure for i in allies}
    given = 0
    for index, row in enumerate(rows):
        if row["taktik_bonus"] and index not in allies:
            who = "der Taktiker selbst" if row is tactician else "kein Mitstreiter des Taktikers"
            raise EngineError(
                f"Kämpfer {index + 1} – Taktik-Bonus: {row['name']} ist {who}; TaP* gehen nur an "
                f"Mitstreiter (gleiche Seite).",
                f"fighters.{index}.taktik_bonus",
            )
        given += row["taktik_bonus"]
        if row["taktik_bonus"]:
            change[index] = row["taktik_bonus"]
    if given > params["taktik_tap"]:
        raise EngineError(
            f"Übrige TaP*: verteilt sind {given}, übrig waren aber nur {params['taktik_tap']}.",
            "taktik_tap",
        )
    return change


@SYSTEM.action(
    "initiative",
    title="Initiative und Phasenliste",
    summary=(
        "Jeder Kämpfer hat INI = INI-Basis + 1W6 + Modifikatoren (Annahme); Orientieren hebt sie "
        "aufs Maximum, Ungezieltes Ausweichen kostet je 4, Taktik verteilt TaP* als Bonus. "
        "Festlegen der Aktionen vom Langsamsten, Ausführen vom Schnellsten an; die zweite Aktion "
        "kommt in Initiativphase − 8."
    ),
    source=f"{CITE_ABLAUF}; {CITE_SONSTIGE}; {CITE_FREIE}",
    params=(
        ListParam(
            "fighters",
            "Kämpfer",
            item=FIGHTER_FIELDS,
            item_label="Kämpfer",
            min_items=1,
            max_items=20,
            default_items=(
                {"name": "Alrik", "ini_basis": 12},
                {"name": "Bruna", "ini_basis": 10},
                {"name": "Ork", "seite": "Gegner", "ini_basis": 9},
            ),
        ),
        TextParam(
            "taktiker",
            "Taktiker",
            required=False,
            max_length=30,
            help="Name des Kämpfers, der Taktik einsetzt (leer: keiner).",
            group="Taktik (nach Orientieren)",
            advanced=True,
        ),
        ChoiceParam(
            "taktik_probe",
            "Kriegskunst-Probe",
            choices=TAKTIK_CHOICES,
            help="Ausgang der Kriegskunst-Probe des Taktikers (wird am Tisch gewürfelt).",
            group="Taktik (nach Orientieren)",
            advanced=True,
        ),
        IntParam(
            "taktik_tap",
            "Übrige TaP*",
            default=0,
            minimum=0,
            maximum=30,
            help="Bei gelungener Probe: übrige TaP*, als INI-Bonus auf die Mitstreiter verteilbar.",
            group="Taktik (nach Orientieren)",
            advanced=True,
        ),
        IntParam(
            "ueberzahl",
            "Überzahl der Gegner",
            default=0,
            minimum=0,
            maximum=20,
            help="Kampf gegen eine Übermacht: die Kriegskunst-Probe ist um Überzahl × 2 erschwert.",
            group="Taktik (nach Orientieren)",
            advanced=True,
        ),
    ),
    assumptions=_assumptions("initiative"),
)
def initiative(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = params["fighters"]
    taktik_change = _validate_initiative(params)
    die = _ini_die()
    die_dist = dice.distribution(die, field="initiative.wurf", label="Initiativwurf")
    die_max = max(die_dist)
    evade_loss = DATA.integer("initiative.ausweichen_verlust", 0, 20)
    step = DATA.integer("initiative.zweite_aktion_abstand", 1, 40)

    fighters: list[Fighter] = []
    distributions: list[dict[int, Fraction]] = []
    for index, row in enumerate(rows):
        oriented = row["orientieren"]
        rolled = None if oriented else dice.roll(die, rng)
        die_value = die_max if rolled is None else rolled.total
        taktik = taktik_change.get(index, 0)
        fixed = row["modifikator"] - evade_loss * row["ausweichen"] + taktik
        modifiers: list[tuple[str, int]] = [("INI-Basis", row["ini_basis"])]
        if oriented:
            modifiers.append(("Orientieren: Maximum des Würfels", die_max))
        if row["modifikator"]:
            modifiers.append(("INI-Modifikator", row["modifikator"]))
        if row["ausweichen"]:
            modifiers.append(
                (f"Ungezieltes Ausweichen × {row['ausweichen']}", -evade_loss * row["ausweichen"])
            )
        if taktik > 0:
            modifiers.append(("Taktik-Bonus (TaP*)", taktik))
        elif taktik < 0:
            modifiers.append(("Taktik gescheitert", taktik))
        value = row["ini_basis"] + die_value + fixed
        fighters.append(
            Fighter(
                index=index,
                name=row["name"],
                side=row["seite"],
                ini_basis=row["ini_basis"],
                modifier=row["modifikator"],
                oriented=oriented,
                evasions=row["ausweichen"],
                roll=rolled,
                die_value=die_value,
                taktik=taktik,
                initiative=value,
                modifiers=modifiers,
            )
        )
        base = row["ini_basis"] + fixed
        distributions.append(
            {base + die_max: Fraction(1)}
            if oriented
            else {base + face: p for face, p in die_dist.items()}
        )

    order, tied = order_groups(
        fighters, lambda f: f.initiative, lambda group: _resolve_tie(group, rng), descending=True
    )
    ties = [
        {
            "initiative": value,
            "names": [f.name for f in resolved],
            "rolloff": {f.name: list(f.rolloff) for f in resolved if f.rolloff},
        }
        for value, resolved in tied
    ]
    rank = {f.index: place for place, f in enumerate(order)}

    phases: list[dict[str, Any]] = []
    for fighter in order:
        phases.append({"phase": fighter.initiative, "name": fighter.name, "action": 1})
        phases.append({"phase": fighter.initiative - step, "name": fighter.name, "action": 2})
    index_of = {f.name: f.index for f in fighters}
    phases.sort(key=lambda p: (-p["phase"], rank[index_of[p["name"]]]))

    chances = first_chances(distributions, [f.ini_basis for f in fighters])

    display = Display(
        headline="Initiative – Reihenfolge und Phasenliste",
        outcome=(
            f"Zuerst handelt {order[0].name} in Initiativphase {number(order[0].initiative)}; "
            f"die Aktionen legt zuerst {order[-1].name} fest."
        ),
    )
    table_rows = []
    for place, fighter in enumerate(order, start=1):
        table_rows.append(
            [
                str(place),
                fighter.name,
                fighter.side,
                number(fighter.initiative),
                number(fighter.initiative - step),
                fighter.tie_note,
            ]
        )
    display.table(
        "Reihenfolge der Ausführung (Schnellster zuerst)",
        [
            "Platz",
            "Kämpfer",
            "Seite",
            "INI = 1. Aktion",
            f"2. Aktion (INI − {step})",
            "Gleichstand",
        ],
        table_rows,
    )
    display.table(
        "Phasenliste: wer handelt in welcher Initiativphase",
        ["Initiativphase", "Kämpfer", "Aktion"],
        [[number(p["phase"]), p["name"], f"{p['action']}. Aktion"] for p in phases],
    )
    display.table(
        "Festlegen der Aktionen (Langsamster zuerst)",
        ["Reihenfolge", "Kämpfer"],
        [[str(i), f.name] for i, f in enumerate(reversed(order), start=1)],
    )
    for fighter in fighters:
        if fighter.roll is not None:
            display.roll(
                f"{fighter.name}: Initiativwurf",
                fighter.roll,
                [m for m in fighter.modifiers],
                total=fighter.initiative,
            )
    notes = []
    for fighter in fighters:
        if fighter.roll is None:
            parts = " ".join(f"{name} {signed(v)}" for name, v in fighter.modifiers[1:])
            notes.append(
                f"{fighter.name}: INI {fighter.ini_basis} {parts} = {number(fighter.initiative)} "
                f"(Orientieren: kein Wurf, die INI steigt auf das Maximum)."
            )
    for tie in ties:
        names = ", ".join(tie["names"])
        how = "Stechen mit W6" if tie["rolloff"] else "höhere INI-Basis"
        notes.append(f"Gleichstand bei INI {number(tie['initiative'])}: {names} ({how}).")
    low = [p for p in phases if p["phase"] < 1]
    if low:
        notes.append(
            "Initiativphase unter 1: "
            + ", ".join(f"{p['name']} ({p['action']}. Aktion, {number(p['phase'])})" for p in low)
            + " – handelt nach allen anderen (Annahme, der Text lässt das offen)."
        )
    if params["taktik_probe"] != "keine":
        factor = DATA.integer("initiative.taktik_ueberzahl_faktor", 0, 10)
        tactician = params["taktiker"]
        if params["ueberzahl"]:
            notes.append(
                f"Die Kriegskunst-Probe von {tactician} ist wegen Überzahl {params['ueberzahl']} "
                f"um {signed(factor * params['ueberzahl'])} erschwert; gelingt sie, baut sie die "
                f"Überzahl-Erschwernisse der Gruppe ab (Meisterentscheid)."
            )
        if params["taktik_probe"] == "gescheitert":
            notes.append(f"Taktik von {tactician} gescheitert: INI − 1 bei allen Mitstreitern.")
        else:
            given = sum(taktik_change.values())
            notes.append(
                f"Taktik von {tactician} gelungen: {given} von {params['taktik_tap']} TaP* als "
                f"INI-Bonus verteilt (auch über das Maximum hinaus)."
            )
        if not next(f for f in fighters if f.name.casefold() == tactician.casefold()).oriented:
            notes.append(
                f"Taktik setzt voraus, dass sich {tactician} wenige Aktionen vorher orientiert hat."
            )
    display.notes("Hinweise", notes)
    display.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        [(f["name"], p) for f, p in zip(rows, chances, strict=True)],
    )
    return {
        "order": [
            {
                "place": place,
                "name": f.name,
                "side": f.side,
                "ini_basis": f.ini_basis,
                "roll": None if f.roll is None else f.roll.to_dict(),
                "die_value": f.die_value,
                "oriented": f.oriented,
                "modifiers": _modifier_rows(f.modifiers),
                "initiative": f.initiative,
                "second_action_phase": f.initiative - step,
                "rolloff": f.rolloff,
            }
            for place, f in enumerate(order, start=1)
        ],
        "declaration_order": [f.name for f in reversed(order)],
        "phases": phases,
        "ties": ties,
        "taktik": {
            "probe": params["taktik_probe"],
            "taktiker": params["taktiker"],
            "erschwernis": DATA.integer("initiative.taktik_ueberzahl_faktor", 0, 10)
            * params["ueberzahl"],
            "changes": {rows[i]["name"]: v for i, v in sorted(taktik_change.items())},
        },
        "first_chances": {f["name"]: str(p) for f, p in zip(rows, chances, strict=True)},
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# attack
# ---------------------------------------------------------------------------------------------

MANOEUVRES = (
    ("keins", "kein Manöver"),
    ("wuchtschlag", "Wuchtschlag (+X, X Zusatzschaden)"),
    ("finte", "Finte (+X, Abwehr des Ziels +X)"),
    ("sturmangriff", "Sturmangriff (+4, Schaden + 4 + GS/2)"),
    ("gezielter_stich", "Gezielter Stich (+4 + RS/2, mit Schild + Schild-PA)"),
)
MANOEUVRE_NAMES = {
    "wuchtschlag": "Wuchtschlag",
    "finte": "Finte",
    "sturmangriff": "Sturmangriff",
    "gezielter_stich": "Gezielter Stich",
}
MAX_MELEE = 10


def _distance_choices() -> tuple[tuple[str, str], ...]:
    return tuple(
        (str(row["schluessel"]), f"{row['entfernung']} ({signed(int(row['wert']))})")
        for row in _distance_rows()
    )


ATTACK_PARAMS = (
    ChoiceParam(
        "art",
        "Angriffsart",
        choices=(("nahkampf", "Attacke (Nahkampf)"), ("fernkampf", "Schuss (Fernkampf)")),
        group="Angriff",
    ),
    IntParam("wert", "AT- bzw. Fernkampfwert", default=14, minimum=0, maximum=40, group="Angriff"),
    IntParam(
        "erschwernis",
        "Erschwernis",
        default=0,
        minimum=-20,
        maximum=30,
        help="Nach Meisterentscheid, + = schwerer, − = leichter (z. B. flinker, großer Gegner).",
        group="Angriff",
    ),
    IntParam(
        "wunden",
        "Eigene Wunden",
        default=0,
        minimum=0,
        maximum=10,
        help="Pro Wunde sind alle Proben um 2 erschwert.",
        group="Angriff",
    ),
    IntParam(
        "nachwirkung",
        "Erschwernis aus Fehlschlag",
        default=0,
        minimum=0,
        maximum=30,
        help="Aus einem misslungenen Manöver zuvor: „seine nächste Probe ist um X erschwert“.",
        group="Angriff",
    ),
    BoolParam(
        "zweite_angriffsaktion",
        "Zweite Angriffsaktion in dieser KR",
        help="Die zweite Angriffsaktion ist um 4 erschwert (Ausnahme Stabkämpfer).",
        group="Angriff",
        advanced=True,
    ),
    BoolParam(
        "stabkaempfer",
        "Stabkämpfer",
        help="Keine Erschwernis für die zweite Angriffsaktion.",
        group="Angriff",
        advanced=True,
    ),
    BoolParam(
        "passierschlag",
        "Passierschlag",
        help="Freie Aktion, ein um 4 erschwerter Angriff.",
        group="Angriff",
        advanced=True,
    ),
    ChoiceParam(
        "manoever",
        "Manöver (Sonderfertigkeit)",
        choices=MANOEUVRES,
        group="Manöver (Sonderfertigkeit)",
    ),
    IntParam(
        "manoever_x",
        "X bei Wuchtschlag/Finte",
        default=0,
        minimum=0,
        maximum=20,
        help="Um X erschwert; Wuchtschlag: X Zusatzschaden; Finte: Abwehr des Ziels um X erschwert",
        group="Manöver (Sonderfertigkeit)",
    ),
    IntParam(
        "gs",
        "GS (Sturmangriff)",
        default=8,
        minimum=0,
        maximum=20,
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
    ),
    IntParam(
        "ziel_rs",
        "RS des Ziels",
        default=0,
        minimum=0,
        maximum=20,
        help="Rüstungsschutz: wird vom Schaden abgezogen; Gezielter Stich: erschwert um RS/2.",
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
    ),
    BoolParam(
        "ziel_schild",
        "Ziel hat einen Schild",
        help="Gezielter Stich: + Schild-PA.",
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
    ),
    IntParam(
        "ziel_schild_pa",
        "Schild-PA des Ziels",
        default=0,
        minimum=0,
        maximum=15,
        group="Manöver (Sonderfertigkeit)",
        advanced=True,
    ),
    ChoiceParam(
        "entfernung",
        "Entfernung (Schuss)",
        choices=_distance_choices(),
        default="nah",
        help="Je nach Waffe: sehr nah −2, nah ±0, mittel +4, weit +8, extrem weit +12.",
        group="Fernkampf",
    ),
    IntParam(
        "zielen",
        "Aktionen Zielen",
        default=0,
        minimum=0,
        maximum=20,
        help="Pro 2 Aktionen Zielen 1 Erleichterung, höchstens 4.",
        group="Fernkampf",
    ),
    IntParam(
        "getuemmel",
        "Personen im Kampfgetümmel",
        default=0,
        minimum=0,
        maximum=MAX_MELEE,
        help="Schuss ins Kampfgetümmel: alle Beteiligten samt Ziel (je +2); 0 = kein Getümmel.",
        group="Fernkampf",
    ),
    TextParam(
        "getuemmel_namen",
        "Andere im Kampfgetümmel",
        required=False,
        max_length=300,
        help="Namen der übrigen Beteiligten, durch Komma getrennt (leer: Person 1, 2, …).",
        group="Fernkampf",
        advanced=True,
    ),
    DiceParam(
        "schaden", "Trefferpunkte (TP)", default="1W6+4", help="Schaden der Waffe.", group="Schaden"
    ),
)


@dataclass
class AttackSetup:
    melee: bool
    value: int
    base: list[tuple[str, int]]
    modifiers: list[tuple[str, int]]
    target: int
    melee_free: int | None
    others: list[str]
    damage: dice.Expression
    bonus_damage: list[tuple[str, int]]
    rs: int
    next_penalty: int
    manoeuvre: str


def _check_attack(params: dict[str, Any]) -> None:
    melee = params["art"] == "nahkampf"
    manoeuvre = params["manoever"]
    if params["passierschlag"] and params["zweite_angriffsaktion"]:
        raise EngineError(
            "Passierschlag: ist eine Freie Aktion, keine zweite Angriffsaktion – bitte nur eines "
            "von beiden wählen.",
            "passierschlag",
        )
    if melee:
        if params["entfernung"] != "nah":
            raise EngineError("Entfernung (Schuss): gilt nur für Schüsse.", "entfernung")
        if params["zielen"]:
            raise EngineError("Aktionen Zielen: gilt nur für Schüsse.", "zielen")
        if params["getuemmel"]:
            raise EngineError(
                "Personen im Kampfgetümmel: gilt nur für Schüsse ins Kampfgetümmel.", "getuemmel"
            )
    else:
        if params["passierschlag"]:
            raise EngineError("Passierschlag: ist ein Nahkampfangriff.", "passierschlag")
        if manoeuvre != "keins":
            raise EngineError(
                "Manöver (Sonderfertigkeit): Wuchtschlag, Finte, Sturmangriff und Gezielter Stich "
                "sind Nahkampfangriffe.",
                "manoever",
            )
    if manoeuvre in ("wuchtschlag", "finte") and params["manoever_x"] < 1:
        raise EngineError(
            f"X bei Wuchtschlag/Finte: für {MANOEUVRE_NAMES[manoeuvre]} mindestens 1.", "manoever_x"
        )
    if manoeuvre not in ("wuchtschlag", "finte") and params["manoever_x"]:
        raise EngineError(
            "X bei Wuchtschlag/Finte: gilt nur für Wuchtschlag oder Finte.", "manoever_x"
        )
    if manoeuvre == "sturmangriff" and (params["zweite_angriffsaktion"] or params["passierschlag"]):
        raise EngineError(
            "Manöver (Sonderfertigkeit): Ein Sturmangriff benötigt zwei Aktionen und kann weder "
            "zweite Angriffsaktion noch Passierschlag sein.",
            "manoever",
        )
    if params["ziel_schild_pa"] and not params["ziel_schild"]:
        raise EngineError(
            "Schild-PA des Ziels: nur wenn das Ziel einen Schild hat.", "ziel_schild_pa"
        )
    melee_count = params["getuemmel"]
    if melee_count == 1:
        raise EngineError(
            "Personen im Kampfgetümmel: mindestens 2 (das Ziel und wer mit ihm kämpft), "
            "oder 0 ohne Getümmel.",
            "getuemmel",
        )
    names = [n.strip() for n in params["getuemmel_namen"].split(",") if n.strip()]
    if names and not melee_count:
        raise EngineError(
            "Andere im Kampfgetümmel: nur bei einem Schuss ins Kampfgetümmel.", "getuemmel_namen"
        )
    if names and len(names) != melee_count - 1:
        raise EngineError(
            f"Andere im Kampfgetümmel: bei {melee_count} Personen samt Ziel sind es "
            f"{melee_count - 1} andere, genannt sind {len(names)}.",
            "getuemmel_namen",
        )


def _attack_setup(params: dict[str, Any]) -> AttackSetup:
    _check_attack(params)
    melee = params["art"] == "nahkampf"
    manoeuvre = params["manoever"]
    mods: list[tuple[str, int]] = []
    if params["erschwernis"]:
        mods.append(("Erschwernis nach Meisterentscheid", params["erschwernis"]))
    if params["wunden"]:
        mods.append((f"Wunden × {params['wunden']}", _wound_penalty() * params["wunden"]))
    if params["nachwirkung"]:
        mods.append(("Fehlschlag eines Manövers zuvor", params["nachwirkung"]))
    if params["zweite_angriffsaktion"] and not params["stabkaempfer"]:
        mods.append(("Zweite Angriffsaktion", _combination("zwei_angriff")))
    if params["passierschlag"]:
        mods.append(("Passierschlag", DATA.integer("angriff.passierschlag", 0, 20)))
    bonus_damage: list[tuple[str, int]] = []
    next_penalty = 0
    rs = params["ziel_rs"]
    x = params["manoever_x"]
    if manoeuvre == "wuchtschlag":
        mods.append(("Wuchtschlag X", x))
        bonus_damage.append(("Wuchtschlag", x))
        next_penalty = x
    elif manoeuvre == "finte":
        mods.append(("Finte X", x))
        next_penalty = x
    elif manoeuvre == "sturmangriff":
        mods.append(("Sturmangriff", DATA.integer("angriff.sturmangriff_erschwernis", 0, 20)))
        extra = DATA.integer("angriff.sturmangriff_schaden", 0, 20) + _halve(params["gs"], "gs")
        bonus_damage.append((f"Sturmangriff 4 + GS/2 (GS {params['gs']})", extra))
        next_penalty = DATA.integer("angriff.fehlschlag_sturmangriff", 0, 20)
    elif manoeuvre == "gezielter_stich":
        base = DATA.integer("angriff.gezielter_stich_erschwernis", 0, 20)
        mods.append(("Gezielter Stich 4", base))
        mods.append((f"Gezielter Stich RS/2 (RS {rs})", _halve(rs, "rs")))
        if params["ziel_schild"]:
            mods.append(("Gezielter Stich Schild-PA", params["ziel_schild_pa"]))
        next_penalty = DATA.integer("angriff.fehlschlag_gezielter_stich", 0, 20)
        rs = 0  # „Attacke ignoriert RS“
    melee_free: int | None = None
    others: list[str] = []
    if not melee:
        row = next(r for r in _distance_rows() if r["schluessel"] == params["entfernung"])
        if row["wert"]:
            mods.append((f"Entfernung {row['entfernung']}", int(row["wert"])))
        per = DATA.integer("angriff.zielen_aktionen_je_punkt", 1, 10)
        cap = DATA.integer("angriff.zielen_hoechstens", 0, 20)
        aim = min(params["zielen"] // per, cap)
        if aim:
            mods.append((f"Zielen ({params['zielen']} Aktionen)", -aim))
    total = sum(v for _, v in mods)
    target = params["wert"] - total
    if not melee and params["getuemmel"]:
        surcharge = DATA.integer("angriff.getuemmel_je_person", 0, 10) * params["getuemmel"]
        mods.append((f"Kampfgetümmel ({params['getuemmel']} Personen)", surcharge))
        melee_free = target
        target -= surcharge
        names = [n.strip() for n in params["getuemmel_namen"].split(",") if n.strip()]
        others = names or [f"Person {i}" for i in range(1, params["getuemmel"])]
    damage = dice.parse(params["schaden"], "schaden", "Trefferpunkte (TP)")
    label = "AT-Wert" if melee else "Fernkampfwert"
    return AttackSetup(
        melee=melee,
        value=params["wert"],
        base=[(label, params["wert"])],
        modifiers=mods,
        target=target,
        melee_free=melee_free,
        others=others,
        damage=damage,
        bonus_damage=bonus_damage,
        rs=rs,
        next_penalty=next_penalty,
        manoeuvre=manoeuvre,
    )


def damage_points(tp: int, bonus: int, critical: bool, rs: int) -> int:
    """SP from rolled TP, bonus TP, crit (whole TP doubled) and RS (Annahme: SP = TP − RS ≥ 0)."""
    total = tp + bonus
    if critical:
        total *= DATA.integer("angriff.kritisch_faktor", 1, 10)
    return max(0, total - rs)


def _expected_damage(setup: AttackSetup, critical: bool) -> Fraction:
    bonus = sum(v for _, v in setup.bonus_damage)
    dist = dice.distribution(setup.damage, field="schaden", label="Trefferpunkte (TP)")
    return sum(
        (p * damage_points(tp, bonus, critical, setup.rs) for tp, p in dist.items()),
        Fraction(0),
    )


ATTACK_TEXT = {
    KRITISCH: "Kritischer {noun} (bestätigte 1): Treffer – der Verteidiger hat nur halbe PA/AW "
    "zur Reaktion und der Schaden verdoppelt sich.",
    GLUECKLICH: "Glücklicher {noun} (unbestätigte 1): Treffer – der Verteidiger hat nur halbe "
    "PA/AW zur Reaktion.",
    GELUNGEN: "Treffer – der Verteidiger darf noch parieren oder ausweichen.",
    ANDERE_PERSON: "Fehlschuss nur wegen des Kampfgetümmels: trifft zufällig {other}.",
    MISSLUNGEN: "Verfehlt.",
    UNGLUECKLICH: "Unglücklicher {noun} (unbestätigte 20): trifft nicht, unabhängig vom Wert.",
    PATZER: "Gepatzter {noun} (bestätigte 20): trifft nicht – es kommt zu einem Missgeschick "
    "nach Meisterentscheid (keine Patzertabelle in den Hausregeln).",
}
ATTACK_CHANCE_LABELS = (
    (KRITISCH, "kritisch (bestätigte 1)"),
    (GLUECKLICH, "glücklich (unbestätigte 1)"),
    (GELUNGEN, "normaler Treffer"),
    (ANDERE_PERSON, "trifft zufällig eine andere Person im Getümmel"),
    (MISSLUNGEN, "verfehlt"),
    (UNGLUECKLICH, "unglücklich (unbestätigte 20)"),
    (PATZER, "Patzer (bestätigte 20)"),
)
HITS_TARGET = (KRITISCH, GLUECKLICH, GELUNGEN)


@SYSTEM.action(
    "attack",
    title="Attacke oder Schuss",
    summary=(
        "1W20 gegen den AT- bzw. Fernkampfwert, jede Erschwernis (+) zieht ab. Eine 1 wird "
        "bestätigt (kritisch) oder bleibt glücklich, eine 20 bestätigt (Patzer) oder unglücklich. "
        "Mit Manövern, Entfernung, Zielen und Schüssen ins Kampfgetümmel; würfelt den Schaden."
    ),
    source=f"{CITE_CRITS}; {CITE_AUSWAHL}; {CITE_FERNKAMPF}; {CITE_GETUEMMEL}; {CITE_SF}",
    params=ATTACK_PARAMS,
    assumptions=_assumptions("probe", "halbieren.rs", "halbieren.gs", "angriff"),
)
def attack(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    setup = _attack_setup(params)
    probe = roll_probe(rng, setup.target, setup.melee_free)
    outcome = probe.outcome
    other: dict[str, Any] | None = None
    other_roll: dice.RollResult | None = None
    if outcome == ANDERE_PERSON:
        if len(setup.others) == 1:
            other = {"index": 1, "name": setup.others[0]}
        else:
            other_roll = dice.roll(dice.die(len(setup.others)), rng)
            other = {"index": other_roll.total, "name": setup.others[other_roll.total - 1]}
    damage_roll: dice.RollResult | None = None
    sp: int | None = None
    bonus = sum(v for _, v in setup.bonus_damage)
    if outcome in HITS_TARGET or outcome == ANDERE_PERSON:
        damage_roll = dice.roll(setup.damage, rng)
        sp = damage_points(damage_roll.total, bonus, outcome == KRITISCH, setup.rs)

    chances = probe_chances(setup.target, setup.melee_free)
    hit = sum((chances[k] for k in HITS_TARGET), Fraction(0))
    normal = _expected_damage(setup, False)
    doubled = _expected_damage(setup, True)
    expected_target = (chances[GLUECKLICH] + chances[GELUNGEN]) * normal + chances[
        KRITISCH
    ] * doubled
    expected_other = chances[ANDERE_PERSON] * normal
    missed = outcome not in HITS_TARGET
    next_penalty = setup.next_penalty if missed else 0

    noun = "Angriff"
    display = Display(
        headline=("Attacke" if setup.melee else "Schuss") + f" – 1W20 gegen {number(setup.target)}",
        outcome=ATTACK_TEXT[outcome].format(
            noun=noun, other=other["name"] if other else "jemand anderen"
        ),
    )
    _value_table(display, "Probenwert (+ = Erschwernis)", setup.base, setup.modifiers)
    display.sections[-1]["rows"].append(["Wert für die Probe", number(setup.target)])
    _probe_roll_display(display, "Attacke" if setup.melee else "Schuss", probe, setup.target)
    if other_roll is not None:
        display.roll(
            f"Wen trifft der Schuss? (1W{len(setup.others)}: {', '.join(setup.others)})",
            other_roll,
        )
    if damage_roll is not None and sp is not None:
        mods = list(setup.bonus_damage)
        if outcome == KRITISCH:
            factor = DATA.integer("angriff.kritisch_faktor", 1, 10)
            mods.append(
                (f"kritisch: Schaden × {factor}", (damage_roll.total + bonus) * (factor - 1))
            )
        if setup.rs:
            mods.append(("RS des Ziels", -setup.rs))
        display.roll("Schaden (SP)", damage_roll, mods, total=sp)
    notes = []
    if setup.melee_free is not None:
        notes.append(
            f"Kampfgetümmel: bis {number(setup.target)} trifft das Ziel, "
            f"{number(max(setup.target + 1, 2))} bis {number(setup.melee_free)} eine zufällige "
            f"andere Person, darüber nichts (eine 20 trifft nie)."
        )
    if next_penalty:
        notes.append(
            f"{MANOEUVRE_NAMES[setup.manoeuvre]} misslungen: die nächste Probe ist um "
            f"{signed(next_penalty)} erschwert (egal was es für eine ist)."
        )
    if setup.manoeuvre == "finte" and not missed:
        notes.append(
            "Finte: die Reaktion des Ziels (Parade/Ausweichen) ist um "
            f"{signed(params['manoever_x'])} erschwert."
        )
    if setup.manoeuvre == "gezielter_stich" and not missed:
        notes.append(
            "Gezielter Stich: ignoriert RS und richtet eine automatische Wunde an; für weitere "
            "Wunden ist die Wundschwelle des Gegners um 2 gesenkt (Aktion „Schaden und Wunden“)."
        )
    if outcome == ANDERE_PERSON and setup.rs:
        notes.append("Für die andere Person gilt deren eigener RS (hier der des Ziels angesetzt).")
    display.notes("Hinweise", notes)
    chance_items = [
        (label, chances[key])
        for key, label in ATTACK_CHANCE_LABELS
        if key != ANDERE_PERSON or setup.melee_free is not None
    ]
    chance_items.insert(0, ("trifft das Ziel (ohne Abwehr)", hit))
    if setup.next_penalty:
        chance_items.append(("nächste Probe erschwert (Manöver misslungen)", 1 - hit))
    display.chances("Wahrscheinlichkeiten", chance_items)
    display.notes(
        "Erwarteter Schaden (ohne Abwehr)",
        [
            f"am Ziel: {decimal(expected_target)} SP",
            *(
                [f"an einer anderen Person: {decimal(expected_other)} SP"]
                if setup.melee_free is not None
                else []
            ),
        ],
    )
    chance_out = {key: str(chances[key]) for key, _ in ATTACK_CHANCE_LABELS}
    chance_out["trifft_ziel"] = str(hit)
    chance_out["naechste_probe_erschwert"] = str(1 - hit if setup.next_penalty else Fraction(0))
    return {
        "art": params["art"],
        "value": setup.value,
        "modifiers": _modifier_rows(setup.modifiers),
        "erschwernis": sum(v for _, v in setup.modifiers),
        "target": setup.target,
        "target_without_melee": setup.melee_free,
        "roll": probe.first.to_dict(),
        "confirmation": None if probe.confirm is None else probe.confirm.to_dict(),
        "outcome": outcome,
        "hits_target": outcome in HITS_TARGET,
        "other_person": other,
        "other_roll": None if other_roll is None else other_roll.to_dict(),
        "damage_roll": None if damage_roll is None else damage_roll.to_dict(),
        "damage_bonus": _modifier_rows(setup.bonus_damage),
        "sp": sp,
        "next_probe_penalty": next_penalty,
        "chances": chance_out,
        "expected_damage": str(expected_target),
        "expected_damage_other": str(expected_other),
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# defense
# ---------------------------------------------------------------------------------------------

DEFENSE_KINDS = (
    ("waffenparade", "Waffenparade"),
    ("schildparade", "Schildparade"),
    ("ausweichen", "Gezieltes Ausweichen"),
)
DEFENSE_NAMES = dict(DEFENSE_KINDS)

DEFENSE_PARAMS = (
    ChoiceParam("art", "Abwehraktion", choices=DEFENSE_KINDS, group="Abwehr"),
    IntParam("pa_basis", "Parade-Basis", default=8, minimum=0, maximum=30, group="Abwehr"),
    IntParam("waffe_pa", "Waffen-PA", default=0, minimum=-10, maximum=15, group="Abwehr"),
    IntParam("schild_pa", "Schild-PA", default=0, minimum=-10, maximum=15, group="Abwehr"),
    IntParam(
        "sf_bonus",
        "Bonus aus SF",
        default=0,
        minimum=0,
        maximum=15,
        help="Schildparade: Bonus aus Schild-SF; Gezieltes Ausweichen: Bonus aus Ausweichen I–III.",
        group="Abwehr",
    ),
    BoolParam(
        "sf_ausweichen",
        "SF Ausweichen I oder höher",
        help="Gezieltes Ausweichen ist nur damit möglich.",
        group="Abwehr",
    ),
    IntParam(
        "ebe",
        "eBE der Waffe",
        default=0,
        minimum=0,
        maximum=20,
        help="Waffen- und Schildparade: − eBE/2 (auch bei der Schildparade die eBE der Waffe).",
        group="Abwehr",
    ),
    IntParam(
        "be",
        "BE",
        default=0,
        minimum=0,
        maximum=20,
        help="Gezieltes Ausweichen: − BE (volle BE).",
        group="Abwehr",
    ),
    IntParam(
        "erschwernis",
        "Erschwernis",
        default=0,
        minimum=-20,
        maximum=30,
        help="Nach Meisterentscheid, + = schwerer (z. B. sehr großer Gegner), − = leichter.",
        group="Erschwernisse",
    ),
    IntParam(
        "wunden",
        "Eigene Wunden",
        default=0,
        minimum=0,
        maximum=10,
        help="Je +2.",
        group="Erschwernisse",
    ),
    IntParam(
        "nachwirkung",
        "Erschwernis aus Fehlschlag",
        default=0,
        minimum=0,
        maximum=30,
        help="Aus einem misslungenen Manöver zuvor (z. B. Wuchtschlag, Meisterparade).",
        group="Erschwernisse",
    ),
    BoolParam(
        "zweite_abwehr",
        "Zweite Abwehraktion in dieser KR",
        help="Die zweite Abwehraktion ist um 4 erschwert (Ausnahme Schild- und Stabkämpfer).",
        group="Erschwernisse",
        advanced=True,
    ),
    BoolParam(
        "schild_oder_stab",
        "Schild- oder Stabkämpfer",
        help="Keine Erschwernis für die zweite Abwehr.",
        group="Erschwernisse",
        advanced=True,
    ),
    BoolParam(
        "halbe_abwehr",
        "Angriff war glücklich oder kritisch",
        help="Der Verteidiger hat nur halbe PA/AW zur Reaktion.",
        group="Erschwernisse",
    ),
    IntParam(
        "finte",
        "Finte des Angreifers (X)",
        default=0,
        minimum=0,
        maximum=20,
        help="Eine getroffene Finte erschwert die Reaktion um X.",
        group="Sonderfertigkeiten",
        advanced=True,
    ),
    IntParam(
        "meisterparade",
        "Meisterparade (X)",
        default=0,
        minimum=0,
        maximum=20,
        help=(
            "Parade um X erschwert; gelingt sie, ist der nächste Angriff / die nächste Parade "
            "um X erleichtert, sonst die nächste Probe um X erschwert."
        ),
        group="Sonderfertigkeiten",
        advanced=True,
    ),
)

DEFENSE_TEXT = {
    KRITISCH: "Kritische Abwehr (bestätigte 1): immer gelungen und verbraucht keine Aktion – es "
    "kann in dieser KR nochmals pariert/ausgewichen werden.",
    GLUECKLICH: "Glückliche Abwehr (unbestätigte 1): immer gelungen.",
    GELUNGEN: "Abwehr gelungen.",
    MISSLUNGEN: "Abwehr misslungen.",
    UNGLUECKLICH: "Unglückliche Abwehr (unbestätigte 20): immer misslungen.",
    PATZER: "Gepatzte Abwehr (bestätigte 20): immer misslungen – es kommt zu einem Missgeschick "
    "nach Meisterentscheid (keine Patzertabelle in den Hausregeln).",
}
DEFENSE_CHANCE_LABELS = (
    (KRITISCH, "kritisch (bestätigte 1, kostet keine Aktion)"),
    (GLUECKLICH, "glücklich (unbestätigte 1)"),
    (GELUNGEN, "gelungen"),
    (MISSLUNGEN, "misslungen"),
    (UNGLUECKLICH, "unglücklich (unbestätigte 20)"),
    (PATZER, "Patzer (bestätigte 20)"),
)
DEFENSE_SUCCESS = (KRITISCH, GLUECKLICH, GELUNGEN)


@dataclass
class DefenseSetup:
    base: list[tuple[str, int]]
    value: int
    halved: int | None
    modifiers: list[tuple[str, int]]
    target: int


def _defense_setup(params: dict[str, Any]) -> DefenseSetup:
    kind = params["art"]
    if kind == "ausweichen" and not params["sf_ausweichen"]:
        raise EngineError(
            "SF Ausweichen I oder höher: Gezieltes Ausweichen ist nur mit dieser "
            "Sonderfertigkeit möglich (sonst ungezielt ausweichen).",
            "sf_ausweichen",
        )
    if kind != "schildparade" and params["schild_pa"]:
        raise EngineError("Schild-PA: zählt nur bei der Schildparade.", "schild_pa")
    if kind != "waffenparade" and params["waffe_pa"]:
        raise EngineError("Waffen-PA: zählt nur bei der Waffenparade.", "waffe_pa")
    if kind == "waffenparade" and params["sf_bonus"]:
        raise EngineError(
            "Bonus aus SF: zählt nur bei Schildparade und Gezieltem Ausweichen.", "sf_bonus"
        )
    if kind == "ausweichen" and params["meisterparade"]:
        raise EngineError("Meisterparade (X): gilt nur für Paraden.", "meisterparade")
    if kind == "ausweichen" and params["ebe"]:
        raise EngineError("eBE der Waffe: beim Gezielten Ausweichen zählt die BE (Feld BE).", "ebe")
    if kind != "ausweichen" and params["be"]:
        raise EngineError("BE: zählt nur beim Gezielten Ausweichen (sonst eBE der Waffe).", "be")

    base: list[tuple[str, int]] = [("Parade-Basis", params["pa_basis"])]
    if kind == "waffenparade":
        base.append(("Waffen-PA", params["waffe_pa"]))
        base.append((f"− eBE/2 (eBE {params['ebe']})", -_halve(params["ebe"], "ebe")))
    elif kind == "schildparade":
        base.append(("Schild-PA", params["schild_pa"]))
        base.append(("Bonus aus SF", params["sf_bonus"]))
        base.append((f"− eBE/2 (eBE der Waffe {params['ebe']})", -_halve(params["ebe"], "ebe")))
    else:
        base.append(("Bonus aus SF", params["sf_bonus"]))
        base.append(("− BE", -params["be"]))
    value = sum(v for _, v in base)
    halved: int | None = None
    if params["halbe_abwehr"]:
        halved = _halve(value, "abwehr")
    mods: list[tuple[str, int]] = []
    if kind == "ausweichen":
        mods.append(("Gezieltes Ausweichen", DATA.integer("abwehr.ausweichen_erschwernis", 0, 20)))
    if params["erschwernis"]:
        mods.append(("Erschwernis nach Meisterentscheid", params["erschwernis"]))
    if params["wunden"]:
        mods.append((f"Wunden × {params['wunden']}", _wound_penalty() * params["wunden"]))
    if params["nachwirkung"]:
        mods.append(("Fehlschlag eines Manövers zuvor", params["nachwirkung"]))
    if params["zweite_abwehr"] and not params["schild_oder_stab"]:
        mods.append(("Zweite Abwehraktion", _combination("zwei_abwehr")))
    if params["finte"]:
        mods.append(("Finte des Angreifers", params["finte"]))
    if params["meisterparade"]:
        mods.append(("Meisterparade X", params["meisterparade"]))
    start = value if halved is None else halved
    target = start - sum(v for _, v in mods)
    return DefenseSetup(base, value, halved, mods, target)


@SYSTEM.action(
    "defense",
    title="Parade oder Ausweichen",
    summary=(
        "Berechnet den Wert der Waffenparade (PA-Basis + Waffen-PA − eBE/2), der Schildparade "
        "(PA-Basis + Schild-PA + SF − eBE/2) oder des Gezielten Ausweichens (PA-Basis + SF − BE, "
        "erschwert um 3) und würfelt 1W20 darunter, mit Bestätigung einer 1 oder 20."
    ),
    source=f"{CITE_ABWEHR}; {CITE_AUSWAHL}; {CITE_CRITS}; {CITE_SF}",
    params=DEFENSE_PARAMS,
    assumptions=_assumptions("probe.bestaetigung", "halbieren.ebe", "halbieren.abwehr", "abwehr"),
)
def defense(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    setup = _defense_setup(params)
    probe = roll_probe(rng, setup.target)
    outcome = probe.outcome
    success = outcome in DEFENSE_SUCCESS
    chances = probe_chances(setup.target)
    p_success = sum((chances[k] for k in DEFENSE_SUCCESS), Fraction(0))
    kind_name = DEFENSE_NAMES[params["art"]]
    x = params["meisterparade"]
    next_modifier = 0
    if x:
        next_modifier = -x if success else x

    display = Display(
        headline=f"{kind_name} – 1W20 gegen {number(setup.target)}",
        outcome=DEFENSE_TEXT[outcome],
    )
    rows = [[name, number(v) if i == 0 else signed(v)] for i, (name, v) in enumerate(setup.base)]
    rows.append([f"Abwehrwert ({kind_name})", number(setup.value)])
    if setup.halved is not None:
        rows.append(["Halbe PA/AW (glücklicher/kritischer Angriff)", number(setup.halved)])
    rows += [[name, f"{signed(v)} (Erschwernis)"] for name, v in setup.modifiers]
    rows.append(["Wert für die Probe", number(setup.target)])
    display.table("Abwehrwert (+ = Erschwernis)", ["Posten", "Wert"], rows)
    _probe_roll_display(display, kind_name, probe, setup.target)
    notes = []
    if x:
        if success:
            notes.append(
                f"Meisterparade gelungen: der nächste Angriff / die nächste Parade ist um {x} "
                f"erleichtert ({signed(-x)})."
            )
        else:
            notes.append(
                f"Meisterparade misslungen: die nächste Probe ist um {signed(x)} erschwert."
            )
    display.notes("Hinweise", notes)
    items = [("Abwehr gelingt", p_success)]
    items += [(label, chances[key]) for key, label in DEFENSE_CHANCE_LABELS]
    display.chances("Wahrscheinlichkeiten", items)
    chance_out = {key: str(chances[key]) for key, _ in DEFENSE_CHANCE_LABELS}
    chance_out["abwehr_gelingt"] = str(p_success)
    return {
        "art": params["art"],
        "value_parts": _modifier_rows(setup.base),
        "value": setup.value,
        "halved_value": setup.halved,
        "modifiers": _modifier_rows(setup.modifiers),
        "erschwernis": sum(v for _, v in setup.modifiers),
        "target": setup.target,
        "roll": probe.first.to_dict(),
        "confirmation": None if probe.confirm is None else probe.confirm.to_dict(),
        "outcome": outcome,
        "success": success,
        "costs_action": outcome != KRITISCH,
        "next_probe_modifier": next_modifier,
        "chances": chance_out,
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# damage: wounds and LeP thresholds
# ---------------------------------------------------------------------------------------------

STATUS_TEXT = {
    "kampffaehig": "kampffähig",
    "kampfunfaehig": "kampfunfähig",
    "lebensbedrohlich": "lebensbedrohlich verletzt",
    "tot": "tot",
}


def lep_status(lep: int, ko: int) -> str:
    """LeP thresholds (Annahme: „ab“ = at or below)."""
    if lep <= -ko:
        return "tot"
    if lep <= DATA.integer("wunden.lebensbedrohlich_ab", -100, 100):
        return "lebensbedrohlich"
    if lep <= DATA.integer("wunden.kampfunfaehig_ab", -100, 100):
        return "kampfunfaehig"
    return "kampffaehig"


def wound_threshold(ko: int, aimed: bool) -> Fraction:
    """Wundschwelle KO/2 (not rounded, Annahme); Gezielter Stich lowers it by 2."""
    lowered = DATA.integer("wunden.gezielter_stich_wundschwelle", 0, 20) if aimed else 0
    return Fraction(ko, 2) - lowered


def wounds_from_damage(sp: int, threshold: Fraction) -> int:
    """Wounds one hit causes: SP > k × Wundschwelle for k = 1 … the data's maximum."""
    if sp <= 0:
        return 0
    most = DATA.integer("wunden.hoechstens_pro_treffer", 1, 10)
    return sum(1 for k in range(1, most + 1) if sp > k * threshold)


DAMAGE_PARAMS = (
    DiceParam(
        "tp",
        "Trefferpunkte (TP)",
        default="1W6+4",
        help="Schaden der Waffe, z. B. 1W6+4.",
        group="Treffer",
    ),
    IntParam(
        "zusatz",
        "Zusätzliche TP",
        default=0,
        minimum=-20,
        maximum=40,
        help="Z. B. Wuchtschlag X oder Sturmangriff 4 + GS/2.",
        group="Treffer",
    ),
    BoolParam(
        "kritisch", "Kritischer Angriff", help="Der Schaden verdoppelt sich.", group="Treffer"
    ),
    BoolParam(
        "gezielter_stich",
        "Gezielter Stich",
        help="Ignoriert RS, richtet eine automatische Wunde an, Wundschwelle um 2 gesenkt.",
        group="Treffer",
    ),
    IntParam("rs", "RS des Getroffenen", default=0, minimum=0, maximum=20, group="Getroffener"),
    IntParam("ko", "KO des Getroffenen", default=12, minimum=1, maximum=30, group="Getroffener"),
    IntParam(
        "lep", "LeP vor dem Treffer", default=30, minimum=-60, maximum=200, group="Getroffener"
    ),
    IntParam("wunden", "Wunden bisher", default=0, minimum=0, maximum=20, group="Getroffener"),
)


def _damage_outcome(
    tp: int, params: dict[str, Any], threshold: Fraction
) -> tuple[int, int, int, str]:
    """SP, wounds of this hit, LeP after it and the status for a rolled TP total."""
    rs = 0 if params["gezielter_stich"] else params["rs"]
    sp = damage_points(tp, params["zusatz"], params["kritisch"], rs)
    wounds = wounds_from_damage(sp, threshold) + (1 if params["gezielter_stich"] else 0)
    lep = params["lep"] - sp
    return sp, wounds, lep, lep_status(lep, params["ko"])


@SYSTEM.action(
    "damage",
    title="Schaden und Wunden",
    summary=(
        "Würfelt die TP, zieht den RS ab und prüft die Wundschwelle (KO/2): Schaden darüber "
        "bringt eine Wunde (je +2 auf alle Proben). Zeigt, ob der Getroffene kampfunfähig "
        "(ab 5 LeP), lebensbedrohlich verletzt (ab 0 LeP, stirbt in KO × W6 KR) oder tot ist."
    ),
    source=f"{CITE_WUNDEN}; {CITE_CRITS}; {CITE_SF}",
    params=DAMAGE_PARAMS,
    assumptions=_assumptions("wunden", "angriff.ruestungsschutz"),
)
def damage(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if params["lep"] <= -params["ko"]:
        raise EngineError(
            f"LeP vor dem Treffer: bei {params['lep']} LeP (KO {params['ko']}) ist der Kämpfer "
            f"schon tot.",
            "lep",
        )
    expression = dice.parse(params["tp"], "tp", "Trefferpunkte (TP)")
    threshold = wound_threshold(params["ko"], params["gezielter_stich"])
    rolled = dice.roll(expression, rng)
    sp, wounds, lep, status = _damage_outcome(rolled.total, params, threshold)
    total_wounds = params["wunden"] + wounds
    penalty = _wound_penalty() * total_wounds
    dying: dice.RollResult | None = None
    dying_kr: int | None = None
    if status == "lebensbedrohlich":
        dying = dice.roll(
            dice.parse(DATA.text("wunden.sterben_wurf"), "wunden.sterben_wurf", "Sterben"), rng
        )
        dying_kr = params["ko"] * dying.total

    dist = dice.distribution(expression, field="tp", label="Trefferpunkte (TP)")
    p_wound = Fraction(0)
    expected_wounds = Fraction(0)
    expected_sp = Fraction(0)
    status_p = {key: Fraction(0) for key in STATUS_TEXT}
    for tp, p in dist.items():
        e_sp, e_wounds, _, e_status = _damage_outcome(tp, params, threshold)
        expected_sp += p * e_sp
        expected_wounds += p * e_wounds
        if e_wounds:
            p_wound += p
        status_p[e_status] += p

    display = Display(
        headline=f"Schaden – {number(sp)} SP",
        outcome=(
            f"{number(sp)} SP, {wounds} {'Wunde' if wounds == 1 else 'Wunden'}; "
            f"{number(lep)} LeP übrig: {STATUS_TEXT[status]}."
        ),
    )
    factor = DATA.integer("angriff.kritisch_faktor", 1, 10)
    mods: list[tuple[str, int]] = []
    if params["zusatz"]:
        mods.append(("zusätzliche TP", params["zusatz"]))
    if params["kritisch"]:
        mods.append(
            (f"kritisch: Schaden × {factor}", (rolled.total + params["zusatz"]) * (factor - 1))
        )
    if params["rs"] and not params["gezielter_stich"]:
        mods.append(("RS", -params["rs"]))
    display.roll("Trefferpunkte → Schadenspunkte", rolled, mods, total=sp)
    if dying is not None and dying_kr is not None:
        display.roll(
            f"Stirbt innerhalb von KO × W6 KR (KO {params['ko']})",
            dying,
            [(f"× KO {params['ko']} (Zuschlag)", dying_kr - dying.total)],
            total=dying_kr,
        )
    rows = [
        ["Wundschwelle (KO/2)", decimal(Fraction(params["ko"], 2))],
    ]
    if params["gezielter_stich"]:
        rows.append(["Wundschwelle, Gezielter Stich (− 2)", decimal(threshold)])
        rows.append(["Automatische Wunde (Gezielter Stich)", "1"])
    rows += [
        ["Wunden durch diesen Treffer", str(wounds)],
        ["Wunden insgesamt", str(total_wounds)],
        ["Erschwernis auf alle Proben", signed(penalty)],
        ["LeP", f"{number(params['lep'])} − {number(sp)} = {number(lep)}"],
        ["Zustand", STATUS_TEXT[status]],
    ]
    display.table("Wunden und Lebensenergie", ["Posten", "Wert"], rows)
    display.chances(
        "Wahrscheinlichkeiten (vor dem Schadenswurf)",
        [
            ("mindestens eine Wunde", p_wound),
            *((f"danach {STATUS_TEXT[key]}", p) for key, p in status_p.items()),
        ],
    )
    display.notes(
        "Erwartungswerte",
        [
            f"Schaden: {decimal(expected_sp)} SP",
            f"Wunden durch diesen Treffer: {decimal(expected_wounds)}",
        ],
    )
    return {
        "roll": rolled.to_dict(),
        "sp": sp,
        "wound_threshold": fraction_text(threshold).replace("\u2212", "-"),
        "wounds": wounds,
        "wounds_total": total_wounds,
        "probe_penalty": penalty,
        "lep": lep,
        "status": status,
        "dying_roll": None if dying is None else dying.to_dict(),
        "dying_within_kr": dying_kr,
        "chances": {
            "wunde": str(p_wound),
            **{key: str(p) for key, p in status_p.items()},
        },
        "expected_sp": str(expected_sp),
        "expected_wounds": str(expected_wounds),
        "display": display.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# fumble: confirming a 20
# ---------------------------------------------------------------------------------------------


@SYSTEM.action(
    "fumble",
    title="Patzer bestätigen",
    summary=(
        "Nach einer gewürfelten 20: ein Bestätigungswurf (W20 gegen denselben Wert). Misslingt "
        "er, ist es ein Patzer mit Missgeschick nach Meisterentscheid – die Hausregeln haben "
        "keine Patzertabelle; gelingt er, bleibt es ein unglücklicher Angriff bzw. eine "
        "unglückliche Abwehr."
    ),
    source=CITE_CRITS,
    params=(
        ChoiceParam(
            "art",
            "Probe",
            choices=(
                ("angriff", "Angriff (Attacke/Schuss)"),
                ("abwehr", "Abwehr (Parade/Ausweichen)"),
            ),
        ),
        IntParam(
            "wert",
            "Wert der Probe",
            default=12,
            minimum=-40,
            maximum=40,
            help="AT/FK/PA/AW nach allen Erschwernissen – derselbe Wert wie beim ersten Wurf.",
        ),
    ),
    assumptions=_assumptions("probe.bestaetigung", "patzer"),
)
def fumble(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    target = params["wert"]
    die = _probe_die()
    confirm = dice.roll(die, rng)
    confirmed = not confirmation_succeeds(confirm.total, target)
    attack_roll = params["art"] == "angriff"
    p_confirmed = Fraction(
        sum(1 for c in range(1, PROBE_DIE_SIDES + 1) if not confirmation_succeeds(c, target)),
        PROBE_DIE_SIDES,
    )
    missgeschick = " ".join(DATA.text("patzer.missgeschick").split())
    if confirmed:
        outcome = PATZER
        text = (
            "Patzer bestätigt: "
            + ("der Angriff trifft nicht" if attack_roll else "die Abwehr ist misslungen")
            + f". {missgeschick}"
        )
    else:
        outcome = UNGLUECKLICH
        text = "Nicht bestätigt: " + (
            "unglücklicher Angriff – trifft nicht, aber kein Missgeschick."
            if attack_roll
            else "unglückliche Abwehr – misslungen, aber kein Missgeschick."
        )
    display = Display(headline=f"Patzer? Bestätigungswurf gegen {number(target)}", outcome=text)
    display.roll(f"Bestätigungswurf (W20 gegen {number(target)})", confirm)
    display.notes(
        "Missgeschick",
        [
            "Die Hausregeln nennen für einen Patzer nur „ein Missgeschick nach Meisterentscheid“ "
            "und enthalten keine Patzertabelle – die Engine würfelt deshalb kein Missgeschick aus."
        ],
    )
    display.chances(
        "Wahrscheinlichkeiten (nach der 20)",
        [("Patzer bestätigt", p_confirmed), ("nur unglücklich", 1 - p_confirmed)],
    )
    return {
        "art": params["art"],
        "target": target,
        "confirmation": confirm.to_dict(),
        "confirmed": confirmed,
        "outcome": outcome,
        "missgeschick": missgeschick if confirmed else None,
        "chances": {PATZER: str(p_confirmed), UNGLUECKLICH: str(1 - p_confirmed)},
        "display": display.to_dict(),
    }
