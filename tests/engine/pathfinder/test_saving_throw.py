"""Pathfinder Rettungswurf (L144–L162, ``saving_throw.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.brute import chance
from harness.support import assumed, chance_labels, seed_for
from tests.engine.pathfinder.helpers import annahme, fields, run

# ---------------------------------------------------------------------------------------------
# Saving throw (L144–L162)
# ---------------------------------------------------------------------------------------------


def test_saving_throw_total_and_natural_1_and_20() -> None:
    """L146–L149: 1W20 + Grundbonus auf RW + Attributsmodifikator; L162: natürliche 1 immer
    ein Patzer, natürliche 20 immer ein Erfolg; sonst SG erreichen (Annahme, L160)."""
    for face in range(1, 21):
        seed = seed_for([face])
        result = run("saving_throw", {"base": 4, "attribute": 2, "other": 1, "sg": 12}, seed)
        assert result["total"] == face + 7
        assert result["success"] is (face == 20 or (face != 1 and face + 7 >= 12))
        if face == 1:
            assert result["outcome"] == "patzer"
    assert (
        run("saving_throw", {"base": 30, "attribute": 20, "sg": 1}, seed_for([1]))["success"]
        is False
    )
    assert (
        run("saving_throw", {"base": 0, "attribute": -5, "sg": 80}, seed_for([20]))["success"]
        is True
    )


@pytest.mark.parametrize(("bonus", "dc"), [(-5, 80), (-5, 1), (0, 10), (7, 15), (50, 60)])
def test_saving_throw_chances_match_brute_force(bonus: int, dc: int) -> None:
    """L162 + Annahme rettungswurf.vergleich: exact success chance."""
    base, attribute = (30, bonus - 30) if bonus > 20 else (0, bonus)
    result = run("saving_throw", {"base": base, "attribute": attribute, "sg": dc})
    expected = chance([20], lambda f: f[0] == 20 or (f[0] != 1 and f[0] + bonus >= dc))
    assert Fraction(result["chances"]["success"]) == expected
    assert Fraction(result["chances"]["patzer"]) == Fraction(1, 20)


def test_saving_throw_names_the_attribute_of_its_kind() -> None:
    """L154–L158: Reflex GE, Willen WE, Zähigkeit KO."""
    for kind, name in (
        ("reflex", "Geschicklichkeitsmodifikator"),
        ("willen", "Weisheitsmodifikator"),
        ("zaehigkeit", "Konstitutionsmodifikator"),
    ):
        assert run("saving_throw", {"kind": kind})["parts"][1]["label"] == name


def test_saving_throw_odds_say_what_a_natural_1_does() -> None:
    """L162: „Eine natürliche 1 … bei einem Rettungswurf ist immer ein Patzer“ – for the save it
    fails whatever the bonus; there is no fumble to roll. The odds name what it does."""
    labels = chance_labels(run("saving_throw"))
    assert labels == ["Erfolg", "Misserfolg", "natürliche 1: misslingt immer"]
    one = run("saving_throw", {"base": 30, "attribute": 20, "sg": 1}, seed_for([1]))
    assert one["display"]["outcome"] == "Misserfolg: natürliche 1 – misslingt immer."


def test_a_natural_1_names_the_section_the_text_lacks_and_offers_its_patzer() -> None:
    """L162: a natural 1 on a save „ist immer ein Patzer (und kann Gegenstände beschädigen, die
    der Wirkung ausgesetzt sind; siehe den Abschnitt Schaden an Gegenständen nach einem
    Rettungswurf“ – that section is not in the text, so the result says so; its follow-up is the
    Patzer helper, which states the Patzer of this very 1 (``natural``: no new W20, no invented
    rule). Any other roll offers nothing."""
    one = run("saving_throw", {"base": 30, "attribute": 20, "sg": 1}, seed_for([1]))
    notes = [
        item
        for section in one["display"]["sections"]
        if section.get("kind") == "notes"
        for item in section["items"]
    ]
    assert any("„Schaden an Gegenständen nach einem Rettungswurf“" in n for n in notes), notes
    assert any("nicht in diesem Text" in n for n in notes), notes
    assert one["follow_ups"] == [
        {
            "action": "fumble",
            "title": "Patzer des Rettungswurfs (natürliche 1)",
            "params": {"kind": "rettungswurf", "natural": 1},
        }
    ]
    patzer = run("fumble", one["follow_ups"][0]["params"])
    assert patzer["natural_1"] is True and patzer["roll"] is None
    assert run("saving_throw", {}, seed_for([2]))["follow_ups"] == []


def test_saving_throw_values_are_the_savers() -> None:
    """The kind of save, its Grundbonus and the attribute modifier are the saving fighter's
    (kept together); SG and other modifiers are the situation."""
    f = fields("saving_throw")
    assert {n for n, x in f.items() if x.get("subject") == "actor"} == {
        "kind",
        "base",
        "attribute",
    }
    assert "subject" not in f["sg"] and "subject" not in f["other"]


def test_saving_throw_names_the_comparison_only_when_the_total_meets_the_sg() -> None:
    """L160 leaves the comparison open (Annahme „erreicht oder übertrifft“): it decides only a
    total equal to the SG."""
    seed = seed_for([10])
    assert assumed(run("saving_throw", {"base": 2, "attribute": 1, "sg": 13}, seed)) == [
        annahme("rettungswurf.vergleich")
    ]
    assert assumed(run("saving_throw", {"base": 2, "attribute": 1, "sg": 12}, seed)) == []
    assert assumed(run("saving_throw", {"base": 2, "attribute": 1, "sg": 14}, seed)) == []
