"""Güte-System (source 002_51e59e824768e9e9.txt, „Kampfregeln - Nahkampf“).

The text never says how a Fertigkeitsprobe (FP) is rolled or how its Güte follows, so the
actions take the results rolled at the table as inputs (gelungen ja/nein, Güte) and roll only
the dice the text does define: damage, Aufwachen, Entwaffnen, Erdrücken, Sturzflug, Feuer.
A result names the Annahmen it used: ``DATA`` reads each where it decides.

Map for a newcomer (modules imported in the order the actions are registered):

- ``common.py`` – ``SYSTEM``, ``DATA``, the rule tables (situations, options, defense), the dice
  of the data file, the Sturzflug bonus (L325), the resources LE, KE, AUS.
- ``attack.py`` – ``attack``: who hits (L11–L17), Parade (L269–L279), the three defense
  outcomes (L19–L29), the display. With its three helpers:
  ``attack_fields.py`` – the fields with their hints for connected helpers (whose value, when it
  applies) and the German refusals of combinations the text rules out;
  ``modifiers.py`` – situations (L35–L113), the conditions betäubt, festgehalten, Rundumschlag
  (L129, L173, L293) and Nahkampfoptionen (L123–L367): their fields, when each applies, and
  Erschwernisse (``attack_modifiers``); ``damage.py`` – damage rolls, the loss per resource and
  each option's effects (L123–L367), exact expected losses.
- ``initiative.py`` – ``initiative``: orders the entered Initiativwerte, ambush (L89), ``turns``.

Declared in the YAML (``aktionen:``, engine/declarative), after these: ``fumble`` (the text has
no Patzer rule, L229, L269, L289: ``art: keine_regel``) and the single rolls ``aufwachen``
(L47), ``entwaffnen`` (L141–L143), ``erdruecken`` (L153–L161), ``sturzflug`` (L325–L327),
``feuerschaden`` (L187–L193) (``art: wurf``).

Data: ``regeln/guete.yaml`` (rule tables, dice, Annahmen and the declared helpers). Tests:
``tests/engine/guete/``.
"""

from regeln.guete import attack

# isort: split
from regeln.guete import initiative
from regeln.guete.common import SYSTEM
from regeln.guete.modifiers import attack_modifiers

__all__ = ["SYSTEM", "attack", "attack_modifiers", "initiative"]
