"""Soft hyphens in the helpers' labels follow German syllables (site_plugins/forms.py).

Narrow fields (375 px) break long labels at the soft hyphens the build puts in. The rule is
German orthography's: a word breaks between its spoken syllables, a compound first between
its parts (Amtliches Regelwerk der deutschen Rechtschreibung 2024, §§ 107 and 108). Every
long word of every label of every helper – of every system the engine knows, read through
``engine.catalog()``/``engine.describe`` – is checked against a list of known-good splits
(hyphenation_known_good.txt, checked by a reader), and no break may leave a piece that is no
syllable: one letter, or no vowel („Scha·den·s·punk·te“, „Zu·sam·me·n·a·r·beit“ before).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engine
from site_plugins.forms import label_text

KNOWN_GOOD = [
    line
    for line in Path(__file__)
    .with_name("hyphenation_known_good.txt")
    .read_text("utf-8")
    .split("\n")
    if line and not line.startswith("#")
]
KNOWN = {split.replace("·", ""): split for split in KNOWN_GOOD}
WORD = re.compile(r"[A-Za-zÄÖÜäöüß\u00ad]+")
VOWEL = re.compile(r"[aeiouyäöü]", re.IGNORECASE)


def _labels(fields: list[dict[str, Any]]) -> Iterator[str]:
    """Every text of a schema that forms.py hyphenates: a field's label, its group's legend,
    a list's row label – and the fields inside a list's rows."""
    for field in fields:
        yield field["label"]
        if field.get("group"):
            yield field["group"]
        if field["type"] == "list":
            yield field["item_label"]
            yield from _labels(field["item"])


def label_words() -> dict[str, str]:
    """Each word of the helpers' labels that carries soft hyphens → how the build splits it."""
    words: dict[str, str] = {}
    for system in engine.catalog()["systems"]:
        for action in system["actions"]:
            for label in _labels(engine.describe(system["name"], action["name"])["params"]):
                for word in WORD.findall(label_text(label)):
                    if "\u00ad" in word:
                        words[word.replace("\u00ad", "")] = word.replace("\u00ad", "·")
    return words


def test_every_label_breaks_where_a_reader_would() -> None:
    """Every word of the list is split as a reader checked it. A word the list does not have
    yet (a new system's labels) is held to the syllable rule below, not refused: a group adding
    its rules need not touch this list (CONTRIBUTING: add the word once you have checked it)."""
    words = label_words()
    assert len(words) > 100  # every helper of every system, not an empty catalogue
    checked = {w: split for w, split in words.items() if w in KNOWN}
    assert len(checked) > 100, "die Liste geprüfter Trennungen passt zu keinem Helfer mehr"
    wrong = {KNOWN[w]: split for w, split in checked.items() if split != KNOWN[w]}
    assert not wrong, f"erwartet → gebaut: {wrong}"


def test_no_break_inside_a_syllable() -> None:
    for split in label_words().values():
        for piece in split.split("·"):
            assert len(piece) >= 2 and VOWEL.search(piece), f"{split}: „{piece}“ ist keine Silbe"


def test_compounds_break_at_their_joints() -> None:
    """The issue's words (#30) and the patterns' misses at a joint: „Kampfrun·de“."""
    for split in ("Zu·sam·men·ar·beit", "Scha·dens·punk·te", "Kampf·run·de", "Ta·lent·wert"):
        assert label_text(split.replace("·", "")).replace("\u00ad", "·") == split
