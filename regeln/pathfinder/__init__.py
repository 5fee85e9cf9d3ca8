"""Pathfinder 1 (source 004_019b513a861ec26f.txt, „Die Grundregeln des Kampfes“).

Sign convention: in Pathfinder ``+N`` is a bonus and ``−N`` a malus (penalty).

Where each rule lives:

- ``common.py``: ``SYSTEM``, ``DATA``, Tabelle: Größenmodifikatoren (L50–L64) and ``SIZE_PARAM``,
  the shared data readers (W20 of a roll, natural 1 and 20, data choices).
- ``attack.py``: action ``attack`` – its parameters and the order of its steps (L6–L23, L69–L88).
- ``attack_roll.py``: hit rule and natural 1/20 (L8–L10), threat range and confirmation
  (Annahmen), exact chances of one attack, Angriffsbonus (L15–L23), the attack's dice in order.
- ``damage.py``: multipliers (L84–L86), Stärkemodifikator on damage (L78–L82), extra dice never
  multiplied (L88), Mindestschaden (L76), damage dice limits.
- ``attack_display.py``: what ``attack`` shows and answers (texts, tables, notes, odds).
- ``armor_class.py``: action ``armor_class`` – RK, Berührungs-RK, RK ohne GE-Bonus (L25–L66).
- ``saving_throw.py``: action ``saving_throw`` – Rettungswurf (L144–L162).
- action ``initiative`` – not in the text, the published rule as an Annahme – is declared in
  ``regeln/pathfinder.yaml`` (``aktionen.initiative``, ``art: initiative``; placed after
  ``saving_throw`` by ``nach:``).
- ``hit_points.py``: action ``hit_points`` – Trefferpunkte after damage (L69–L95).
- ``fumble.py``: action ``fumble`` – the text has no Patzer rule beyond the natural 1 (L10, L162).

Connected helpers (a Kampfhelfer page keeps each fighter's values): every field says whose value
it is – the attacker's own in ``attack`` (``subject="actor"``), the RK parts in ``armor_class`` as
the attacked fighter's (``"target"``, like the attack's „RK des Ziels“), the saver's in
``saving_throw``, the hit points (a ``resource``) and Konstitution in ``hit_points`` as the
target's – and, where it counts only for some weapons, its ``when``. Results continue:
``initiative`` gives the ``turns``, a hit in ``attack`` ``follow_ups`` to ``hit_points`` (the
damage as a constant), ``armor_class`` to an attack against its RK, ``hit_points`` the new hit
points (``target_update``). A result names the Annahmen its roll rests on
(``engine.data_files.forecast``).

Rule data and Annahmen (player-facing ``text``, the citation in ``quelle``):
``regeln/pathfinder.yaml``. Tests: ``tests/engine/pathfinder/``.
The modules are imported in this order because ``catalog()`` lists the actions in the order they
register: attack, armor_class, saving_throw, hit_points, fumble (the declared initiative stands
after saving_throw).
"""

from regeln.pathfinder import attack

# isort: split
from regeln.pathfinder import armor_class

# isort: split
from regeln.pathfinder import saving_throw

# isort: split
from regeln.pathfinder import hit_points

# isort: split
from regeln.pathfinder import fumble

__all__ = ["armor_class", "attack", "fumble", "hit_points", "saving_throw"]
