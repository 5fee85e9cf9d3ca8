"""Ryssea (source 000_5fbfd0ad384a0921.txt, cited as L…): one module per kind of roll.

Importing this package registers the actions in catalogue order (initiative, surprise, probe,
attack, fumble, dodge_jump, interruption, teamwork, catch_breath, tickleiste), so the imports
below keep that order.

- ``common``: the system object, its data (``regeln/ryssea.yaml``, compiled to
  ``ryssea.json``) and the probe machinery every roll uses: Grundwert, talent dice with
  Vorteil / Nachteil, Kritischer Erfolg / Patzer, Erfolgswürfel (draft chapter „Würfelsystem &
  Proben“, ryssea-wiki commit 1489b4f; L186 reach or exceed).
- ``initiative``: INI + W6 + Mods, start fields, ties by Intuition and W10 (L17–L45).
- ``surprise``: Hinterhalt und Überraschung, the lowest attacker result against the highest
  defender result; Taktischer Vorteil and −10 ticks (L41–L45).
- ``probe``: the Einfache Probe with Erfolgswürfeln (draft chapter; L186).
- ``attack``: Nahkampf, Fernkampf, Schildstoß (L47–L82, L184–L226, L245–L253, L307–L380;
  Schildstoß L200), with ``attack_report`` (the rolled attack, its explanation and answer, and
  where the rules go on), ``attack_modifiers`` (Taktischer Vorteil, Überzahl, Kampfpositionen,
  Licht, Wasser, Lücke suchen / Zielen: L198, L325–L370), ``ranged`` (Reichweite L210, Deckung
  L220, Kampfgetümmel L222, Unbewegliche Ziele L224–L231), ``defense`` (Verteidigung L186,
  Aktive Abwehr L245–L249) and ``manoeuvres`` (Meisterschafts-Manöver and Streiftreffer
  L73–L82, free manoeuvres L188–L194, and the exact chances of every outcome).
- ``fumble``: the Patzertabelle, 2W10 with re-rolls (L404–L415); not after a Patzer that the
  opponent's Aktive Abwehr brought about (the attack says so itself); the defender's own Patzer
  of an Aktive Abwehr on a Nahkampftalent goes there too (L406, L247; the attack offers it).
- ``reactions``: Ausweichsprung (L253), Unterbrechung (L120–L122, L192), Zusammenarbeit
  (L307–L315), Atemholen (L261).
- ``tickleiste``: the Tickleiste as (state, command) → state (L9–L45, L126–L130, L140), with
  ``tickleiste_board`` (the state: markers, loading and checking it, the limits, saving).

Tests: ``tests/engine/ryssea/`` (one ``test_<module>.py`` per kind of roll, ``test_data.py``
for the tables, ``test_boundary.py`` for the JSON boundary; helpers in ``helpers.py``).
"""

from regeln.ryssea import common

# isort: split
from regeln.ryssea import initiative

# isort: split
from regeln.ryssea import surprise

# isort: split
from regeln.ryssea import probe

# isort: split
from regeln.ryssea import attack

# isort: split
from regeln.ryssea import fumble

# isort: split
from regeln.ryssea import reactions

# isort: split
from regeln.ryssea import tickleiste

__all__ = [
    "attack",
    "common",
    "fumble",
    "initiative",
    "probe",
    "reactions",
    "surprise",
    "tickleiste",
]
