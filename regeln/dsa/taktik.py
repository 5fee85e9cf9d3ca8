"""DSA 4.1 Hausregeln: Taktik in the ``initiative`` action.

Owns the Taktik rule of Abschnitt "Mögliche Sonstige Aktionen": the Taktiker's
Kriegskunst-Probe (rolled at the table, entered as its outcome), the TaP* a successful probe
lets him hand to his Mitstreiter (same side) as INI-Bonus, the INI − 1 of a failed probe, the
Erschwernis Überzahl × 2 – their parameter fields, the cross-field checks and the notes. Taktik
follows Orientieren („Kann nur wenige Aktionen nach 'Orientieren' verwendet werden“), which raises
the INI to its maximum: a Taktiker whose row is not „Orientiert“ (a rolled INI) is refused.

Whether the Taktiker is one of his own Mitstreiter the text does not say (Eintrag "Taktik":
„… als INI-Bonus auf die Mitstreiter verteilt“, „INI-1 bei allen Mitstreitern“). The data's
Annahme ``initiative.taktiker_mitstreiter`` (no) is the default of the field
``taktiker_mitstreiter``; the other reading (yes: he may give himself TaP* and loses 1 INI on a
failed probe himself) is the field's other value. The Annahme is read – and so named in the
result – only when the default reading decided something: after a failed probe, or after a
successful one in which the Taktiker was given TaP* (which that reading refuses).
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError, echo
from engine.formatting import signed
from engine.params import BoolParam, ChoiceParam, IntParam, TextParam
from regeln.dsa.common import DATA
from regeln.dsa.fighter import Fighter

TAKTIK_CHOICES = (
    ("keine", "keine Taktik"),
    ("gelungen", "Kriegskunst-Probe gelungen"),
    ("gescheitert", "Kriegskunst-Probe gescheitert"),
)


WITH_PROBE = (("taktik_probe", ("gelungen", "gescheitert")),)
AFTER_SUCCESS = (("taktik_probe", ("gelungen",)),)
SELF_KEY = "initiative.taktiker_mitstreiter"
SELF_DEFAULT = DATA.flag(SELF_KEY)  # read at import, outside a request: not named anywhere
SELF_LABEL = "Taktiker zählt als Mitstreiter"

TAKTIK_PARAMS = (
    ChoiceParam(
        "taktik_probe",
        "Kriegskunst-Probe",
        choices=TAKTIK_CHOICES,
        help="Ausgang der Kriegskunst-Probe des Taktikers (wird am Tisch gewürfelt).",
        group="Taktik (nach Orientieren)",
        advanced=True,
    ),
    TextParam(
        "taktiker",
        "Taktiker",
        required=False,
        max_length=30,
        help="Name des Kämpfers, der Taktik einsetzt; er hat sich vorher orientiert.",
        group="Taktik (nach Orientieren)",
        advanced=True,
        when=WITH_PROBE,
    ),
    BoolParam(
        "taktiker_mitstreiter",
        SELF_LABEL,
        default=SELF_DEFAULT,
        help=(
            "Der Text lässt offen, ob der Taktiker selbst zu seinen Mitstreitern zählt. Mit "
            "Häkchen kann er sich selbst TaP* als INI-Bonus geben und verliert bei gescheiterter "
            "Probe selbst 1 INI."
        ),
        group="Taktik (nach Orientieren)",
        advanced=True,
        when=WITH_PROBE,
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
        when=AFTER_SUCCESS,
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
        when=WITH_PROBE,
    ),
)


def tactician_counts(params: dict[str, Any], own_bonus: int) -> bool:
    """Whether the Taktiker is one of his Mitstreiter, as the field chooses. The default
    reading is the data's Annahme: read (and so named) when it decides something – always after
    a failed probe, after a successful one only if the Taktiker was given TaP* himself."""
    chosen: bool = params["taktiker_mitstreiter"]
    decides = params["taktik_probe"] == "gescheitert" or own_bonus > 0
    if decides and chosen == SELF_DEFAULT:
        return DATA.flag(SELF_KEY)
    return chosen


def taktik_changes(params: dict[str, Any]) -> dict[int, int]:
    """Taktik checks; returns the INI change from Taktik for each fighter index."""
    rows: list[dict[str, Any]] = params["fighters"]
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
            f"Taktiker: „{echo(tactician_name)}“ ist keiner der Kämpfer.",
            "taktiker",
        )
    tactician = rows[seen[tactician_name.casefold()]]
    counts = tactician_counts(params, tactician["taktik_bonus"])
    allies = {
        i
        for i, row in enumerate(rows)
        if row["seite"] == tactician["seite"] and (counts or row is not tactician)
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
        _require_oriented(rows, seen[tactician_name.casefold()])
        failure = DATA.integer("initiative.taktik_fehlschlag", -20, 0)
        return {i: failure for i in allies}
    given = 0
    for index, row in enumerate(rows):
        if row["taktik_bonus"] and index not in allies:
            if row is tactician:
                why = (
                    f"{row['name']} ist der Taktiker selbst; TaP* gehen nur an seine Mitstreiter. "
                    f"Soll er selbst mitzählen: „{SELF_LABEL}“ ankreuzen."
                )
            else:
                why = (
                    f"{row['name']} ist kein Mitstreiter des Taktikers; TaP* gehen nur an "
                    f"Mitstreiter (gleiche Seite)."
                )
            raise EngineError(
                f"Kämpfer {index + 1} – Taktik-Bonus: {why}", f"fighters.{index}.taktik_bonus"
            )
        given += row["taktik_bonus"]
        if row["taktik_bonus"]:
            change[index] = row["taktik_bonus"]
    if given > params["taktik_tap"]:
        raise EngineError(
            f"Übrige TaP*: verteilt sind {given}, übrig waren aber nur {params['taktik_tap']}.",
            "taktik_tap",
        )
    _require_oriented(rows, seen[tactician_name.casefold()])
    return change


def _require_oriented(rows: list[dict[str, Any]], index: int) -> None:
    """Taktik follows Orientieren, which raises the INI to its maximum: a Taktiker with a rolled
    INI is refused in the rule's words (checked after the other Taktik checks)."""
    row = rows[index]
    if not row["orientieren"]:
        raise EngineError(
            f"Kämpfer {index + 1} – Orientiert: Taktik „Kann nur wenige Aktionen nach "
            f"'Orientieren' verwendet werden“ (die INI steht dann auf dem Maximum) – "
            f"{echo(row['name'])} hat sich nicht orientiert. Ankreuzen oder „keine Taktik“ wählen.",
            f"fighters.{index}.orientieren",
        )


def taktik_notes(
    params: dict[str, Any], fighters: list[Fighter], taktik_change: dict[int, int]
) -> list[str]:
    """Notes on the Kriegskunst-Probe: Überzahl, its outcome, the reading chosen."""
    notes: list[str] = []
    if params["taktik_probe"] != "keine":
        factor = DATA.integer("initiative.taktik_ueberzahl_faktor", 0, 10)
        tactician = params["taktiker"]
        if params["ueberzahl"]:
            notes.append(
                f"Die Kriegskunst-Probe von {tactician} ist wegen Überzahl {params['ueberzahl']} "
                f"um {signed(factor * params['ueberzahl'])} erschwert; gelingt sie, baut sie die "
                f"Überzahl-Erschwernisse der Gruppe ab (Meisterentscheid)."
            )
        own = next(f for f in fighters if f.name.casefold() == tactician.casefold())
        if params["taktik_probe"] == "gescheitert":
            himself = (
                "auch bei ihm selbst" if own.index in taktik_change else "nicht bei ihm selbst"
            )
            notes.append(
                f"Taktik von {tactician} gescheitert: INI − 1 bei allen Mitstreitern, {himself}."
            )
        else:
            given = sum(taktik_change.values())
            notes.append(
                f"Taktik von {tactician} gelungen: {given} von {params['taktik_tap']} TaP* als "
                f"INI-Bonus verteilt (auch über das Maximum hinaus)."
            )
        if params["taktiker_mitstreiter"] != SELF_DEFAULT:
            how = "zählt selbst" if params["taktiker_mitstreiter"] else "zählt nicht"
            notes.append(
                f"Gewählte Lesart (der Text lässt sie offen): {tactician} {how} als Mitstreiter."
            )
    return notes
