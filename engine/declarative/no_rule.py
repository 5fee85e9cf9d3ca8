"""Declared „no rule“ (``art: keine_regel``): the text has no rule for this – the helper says so.

```yaml
fumble:
  art: keine_regel
  titel: Patzer
  zusammenfassung: Der Text enthält keine Patzerregel.
  quelle: L1–L110
  ueberschrift: Keine Patzerregel im Text       # the result's headline (default: titel)
  erklaerung: >-
    Das Kampfkapitel enthält keine Regel für Patzer; dieser Helfer erfindet keine.
  hinweise:                                     # optional: what the text does say
    titel: Was der Text dazu sagt               # (or a plain list, under „Hinweise“)
    punkte: [„Rundumschlag: ein kritischer Misserfolg führt zum Sturz.“]
```

Where a fight expects a helper (a Patzer after a fumbled attack) and the text has none, a
group declares this instead of inventing a table: nothing is rolled (the form has no
Wurfnummer), the result is ``rule: null`` and the ``meaning`` (the ``erklaerung``). No key
decides a roll – there is none; an Annahme under ``annahmen:`` is named as everywhere.
"""

from __future__ import annotations

import random
from typing import Any

from engine.declarative.roll import notes_of
from engine.declarative.spec import COMMON_KEYS, Spec
from engine.display import Display
from engine.params import Param
from engine.registry import ActionFunc

ALLOWED = (COMMON_KEYS - {"wurf", "was_waere_wenn", "vergleichen"}) | {
    "ueberschrift",
    "erklaerung",
    "hinweise",
}
# the result keys' former names (CONTRIBUTING.md „Namen“), as the Python helpers had them
RESULT_FORMERLY = (("rule", ("regel",)), ("meaning", ("erklaerung",)))


def build(spec: Spec) -> tuple[tuple[Param, ...], ActionFunc]:
    headline = spec.text("ueberschrift", spec.text("titel"))
    explanation = spec.text("erklaerung")
    caption, notes = notes_of(spec, "hinweise")
    spec.result_formerly = RESULT_FORMERLY
    spec.rolls_dice = False

    def run(values: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        display = Display(headline=headline, outcome=explanation)
        display.notes(caption, notes)
        return {"rule": None, "meaning": explanation, "display": display.to_dict()}

    return (), run
