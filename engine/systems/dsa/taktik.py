"""DSA 4.1 Hausregeln: Taktik in the ``initiative`` action.

Owns the Taktik rule of Abschnitt "Mögliche Sonstige Aktionen": the Taktiker's
Kriegskunst-Probe (rolled at the table, entered as its outcome), the TaP* a successful probe
lets him hand to his Mitstreiter (same side) as INI-Bonus, the INI − 1 of a failed probe, the
Erschwernis Überzahl × 2 – their parameter fields, the cross-field checks and the notes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError, echo
from engine.formatting import signed
from engine.params import ChoiceParam, IntParam, TextParam
from engine.systems.dsa.common import DATA

if TYPE_CHECKING:
    from engine.systems.dsa.initiative import Fighter

TAKTIK_CHOICES = (
    ("keine", "keine Taktik"),
    ("gelungen", "Kriegskunst-Probe gelungen"),
    ("gescheitert", "Kriegskunst-Probe gescheitert"),
)


TAKTIK_PARAMS = (
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
)


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


def taktik_notes(
    params: dict[str, Any], fighters: list[Fighter], taktik_change: dict[int, int]
) -> list[str]:
    """Notes on the Kriegskunst-Probe: Überzahl, its outcome, the Orientieren it needs."""
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
    return notes
