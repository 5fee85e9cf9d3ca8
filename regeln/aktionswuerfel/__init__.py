"""Aktionswürfel-System (source 003_3ac4060591b07c19.txt, „Kampf“).

The text never says which dice a Wurf uses or how attributes and talents add to it, so the
actions take the rolled results as inputs (Willens-Wurf, Angriffswurf) and roll only what the
text defines: the weapon's damage dice (L102) and, for tied Willens-Würfe, the re-roll (L38)
with a configurable die (an Annahme in the data file). A result names the Annahmen it used
(``DATA`` reads them where they decide; ``common.entered_roll`` for the entered Wurf).

Map for a newcomer (modules imported in the order the actions are registered):

- ``common.py`` – ``SYSTEM``, ``DATA``, the Annahmen an action lists (``assumptions_for``), the
  entered Wurf (``entered_roll``), a Wurf „gegen“ a value (``reaches``), ``sacrifice`` (L46–L109).
- ``initiative.py`` – ``initiative``: turn order by the Willens-Wurf, ambushers first (L30–L40),
  ties re-rolled or left to the Spielleiter (L38), exact chance to act first, ``turns``.
- ``attack.py`` – ``attack``: Angriffswurf against the Verteidigungswert (L50–L54), damage and
  wound, critical wounds, kampfunfähig, death (L100–L110), exact odds over the damage dice, the
  target's new Gesundheit (``target_update``); Kampfmanöver on Athletik (L56–L80).
- ``fumble`` – the text has no Patzer rule (L1–L110): declared in the YAML (``aktionen:``,
  ``art: keine_regel``, placed after ``attack`` with ``nach:``).
- ``fallenlassen.py`` – ``fallenlassen``: the freie Aktion, Geschicklichkeit-Wurf gegen 10
  (L82–L92).

Data: ``regeln/aktionswuerfel.yaml`` (rule values, Annahmen and the declared ``fumble``).
Tests:
``tests/engine/aktionswuerfel/``.
"""

from regeln.aktionswuerfel import initiative

# isort: split
from regeln.aktionswuerfel import attack

# isort: split
from regeln.aktionswuerfel import fallenlassen
from regeln.aktionswuerfel.common import SYSTEM

__all__ = ["SYSTEM", "attack", "fallenlassen", "initiative"]
