"""Tests of the Pathfinder 1 rules engine (``regeln/pathfinder/``), one file per module.

Source ``004_019b513a861ec26f.txt``, „Die Grundregeln des Kampfes“. Every rule test cites the
source line it checks; what the text leaves open is an Annahme in ``regeln/pathfinder.yaml``
and the tests say so. Exact chances are compared with brute-force enumeration of every die
(``harness/brute.py``) and an independent reference written from the rule text here.
"""
