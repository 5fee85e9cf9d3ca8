"""Ryssea Einfache Probe: the ``probe`` action.

Grundwert + talent die against a Schwierigkeit (reached or exceeded, L186), optionally with the
Erfolgswürfel; the probe machinery itself lives in ``common``. The Eigenschaften, TaW and
Talentwürfel are the acting fighter's values; a Patzer offers the Patzertabelle (it applies
when the probe was on a Kampftalent, L406).
"""

from __future__ import annotations

import random
from typing import Any

from engine.display import Display
from engine.formatting import number
from engine.params import BoolParam, IntParam
from regeln.ryssea.common import (
    SOURCE,
    SYSTEM,
    assumptions_for,
    at_least,
    erfolge_distribution,
    expected_erfolge,
    probe_chances,
    probe_fields,
    probe_flags,
    probe_input,
    roll_probe,
)

# ---------------------------------------------------------------------------------------------
# Einfache Probe
# ---------------------------------------------------------------------------------------------


@SYSTEM.action(
    "probe",
    title="Einfache Probe mit Erfolgswürfeln",
    summary=(
        "Grundwert + Talentwürfel (W10; Unfähig W8, Begabt W12, Genie (W12 + W4) − 1) gegen eine "
        "Schwierigkeit, gelungen ab Gleichstand; dazu TaW × W6, jede 5 oder 6 ist ein Erfolg."
    ),
    source=(
        "Entwurf „Würfelsystem & Proben“ (ryssea-wiki, Commit 1489b4f); "
        f"{SOURCE} L186 (Erreicht oder übertrifft)"
    ),
    params=(
        *probe_fields(group="Talent", subject="actor"),
        IntParam(
            "schwierigkeit",
            "Schwierigkeit",
            default=25,
            minimum=0,
            maximum=99,
            help="Gelungen, wenn Grundwert + Würfel + Modifikator sie erreicht oder übertrifft.",
            group="Probe",
            required=True,
        ),
        IntParam(
            "modifier",
            "Modifikator",
            formerly=("modifikator",),
            default=0,
            minimum=-30,
            maximum=30,
            help="Bonus (+) oder Malus (−) auf die Probe.",
            group="Probe",
        ),
        BoolParam(
            "erfolgsprobe",
            "Erfolgswürfel werfen",
            default=True,
            help="TaW × W6 für Meisterschaften und Manöver.",
            group="Probe",
        ),
    ),
    assumptions=assumptions_for("probe."),
    what_if="schwierigkeit",  # the chances across the Schwierigkeit (L186)
)
def probe(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    spec = probe_input(params, modifiers=(("Modifikator", params["modifier"]),))
    target = params["schwierigkeit"]
    rolled = roll_probe(spec, rng, "Probe", with_erfolge=params["erfolgsprobe"])
    success = rolled.succeeded(rolled.total >= target)
    chances = probe_chances(spec, at_least(target))
    outcome = (
        f"{'Gelungen' if success else 'Misslungen'}: {number(rolled.total)} gegen "
        f"Schwierigkeit {number(target)}.{probe_flags(rolled)}"
    )
    if params["erfolgsprobe"]:
        outcome += f" {rolled.erfolge} {'Erfolg' if rolled.erfolge == 1 else 'Erfolge'}."
    display = Display(headline="Einfache Probe", outcome=outcome)
    rolled.show(display)
    display.chances(
        "Chancen vor dem Wurf",
        [
            ("Probe gelingt", chances.success),
            ("Kritischer Erfolg", chances.critical),
            ("Patzer", chances.patzer),
        ],
        before=True,
    )
    result: dict[str, Any] = {
        "probe": rolled.to_dict(),
        "difficulty": target,
        "success": success,
        "chances": {
            "success": str(chances.success),
            "critical": str(chances.critical),
            "patzer": str(chances.patzer),
        },
    }
    if params["erfolgsprobe"]:
        # TaW × W6, each 5 or 6 one Erfolg (draft chapter): before the roll, as bars
        display.distribution(
            f"Erfolge aus {spec.taw} W6 (vor dem Wurf)",
            "Erfolge",
            dict(enumerate(erfolge_distribution(spec.taw))),
            mean_label="Erwartete Erfolge",
            before=True,
        )
        result["chances"]["erfolge"] = {
            str(k): str(p) for k, p in enumerate(erfolge_distribution(spec.taw))
        }
        result["chances"]["expected_erfolge"] = str(expected_erfolge(spec.taw))
    notes = [f"Grundwert = ({' + '.join(map(str, spec.eig))}) / 2 + {spec.taw}"]
    if rolled.patzer:
        notes.append("Patzer bei einer Probe auf ein Kampftalent: 2W10 auf der Patzertabelle.")
        result["follow_ups"] = [
            {
                "action": "fumble",
                "title": "Patzertabelle (bei einem Kampftalent)",
                "params": {"ursache": "kampftalent"},
            }
        ]
    display.notes("Hinweise", notes)
    result["display"] = display.to_dict()
    return result
