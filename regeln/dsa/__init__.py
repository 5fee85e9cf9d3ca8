"""DSA 4.1 Hausregeln (source 001_240b8e52c108db7c.txt): initiative, attack, defense, damage,
fumble.

The source is one line of flattened wiki markup, so rules are cited by section heading
(``Abschnitt "…"``) and the page in ``docs/dsa/`` that shows it. Sign convention as in the
text: ``+N`` is an Erschwernis (harder), ``−N`` an Erleichterung. Probes are 1W20 roll-under:
a roll ≤ the value (after all Erschwernisse) succeeds.

Map for a newcomer (the action modules are imported in the order the actions are registered):

- ``common.py`` – ``SYSTEM``, ``DATA``, the section citations, shared data helpers, the 1W20
  probe with its confirmation W20 (Abschnitt "Crits und Patzer": kritisch, glücklich,
  unglücklich, Patzer) and ``damage_points`` (TP → SP).
- ``initiative.py`` – ``initiative``: INI, order and phase list, second action in
  Initiativphase − 8 (Abschnitt "Ablauf einer Kampfrunde"), Orientieren, Ungezieltes
  Ausweichen, ties, chance to act first; ``taktik.py`` – its Taktik fields, checks and notes
  (Abschnitt "Mögliche Sonstige Aktionen").
- ``attack.py`` – ``attack``: Attacke or Schuss with every Erschwernis (Abschnitte "Auswahl von
  durchzuführenden Aktionen", "Mögliche Freie Aktionen...", "Crits und Patzer"), damage roll and
  odds; ``manoeuvres.py`` – Wuchtschlag, Finte, Sturmangriff, Gezielter Stich (Abschnitt
  "Geläufigste aktive Kampfsonderfertigkeiten"); ``ranged.py`` – distance classes and Zielen
  (Abschnitt "Besonderheiten von Fernkampfwaffen"), Kampfgetümmel (Abschnitt
  "Fernkampfattacken ins Kampfgetümmel").
- ``defense.py`` – ``defense``: Waffenparade, Schildparade, Gezieltes Ausweichen (Abschnitt
  "Mögliche Abwehraktionen..."), Meisterparade.
- ``damage.py`` – ``damage``: Wundschwelle, wounds and LeP thresholds (the paragraph on wounds
  after Abschnitt "Crits und Patzer").
- ``fumble.py`` – ``fumble``: confirming a 20 (Abschnitt "Crits und Patzer"; no Patzer table).

Connected helpers (a Kampfhelfer page keeps each fighter's values): every field says whose value
it is (``subject``: the attacker's own in ``attack``, the defender's – the attacker's target – in
``defense``, the target's RS/KO/LeP/wounds in ``damage``, LeP and wounds as ``resource``s) and,
where it counts only in some case, its ``when``. Results continue: ``initiative`` gives the
``turns`` of the round, a hit in ``attack`` ``follow_ups`` to the target's defense and to the
damage, ``damage`` the target's new LeP and wounds (``target_update``). Each result names the
Annahmen its roll rests on (read where they decide, see ``common.py``).

Data: ``regeln/dsa.yaml`` (rule values, the tables of distances and action combinations,
the Annahmen with their player-facing ``text`` and the maintainers' ``quelle``). Tests:
``tests/engine/dsa/`` (one test file per module, helpers in ``helpers.py``).
"""

from regeln.dsa import initiative

# isort: split
from regeln.dsa import attack

# isort: split
from regeln.dsa import defense

# isort: split
from regeln.dsa import damage

# isort: split
from regeln.dsa import fumble
from regeln.dsa.common import SYSTEM

__all__ = ["SYSTEM", "attack", "damage", "defense", "fumble", "initiative"]
