"""DSA 4.1 Hausregeln: Wuchtschlag, Finte, Sturmangriff, Gezielter Stich in the ``attack``
action (``manoeuvres.py``)."""

from __future__ import annotations

from fractions import Fraction

from harness.support import draws, seed_where
from tests.engine.dsa.helpers import attack, error, run


def test_wuchtschlag_x() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Wuchtschlag": um X erschwert, X zusätzlicher Schaden;
    „Trifft er nicht, ist seine nächste Probe um X erschwert“."""
    hit_seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 9)
    _, d6 = draws(hit_seed, [20, 6])
    r = attack({"wert": 12, "manoever": "wuchtschlag", "manoever_x": 3}, hit_seed)
    assert r["target"] == 9 and r["outcome"] == "gelungen"
    assert r["sp"] == d6 + 4 + 3 and r["next_probe_modifier"] == 0
    miss_seed = seed_where(lambda g: 10 <= g.randint(1, 20) <= 19)
    r = attack({"wert": 12, "manoever": "wuchtschlag", "manoever_x": 3}, miss_seed)
    assert r["outcome"] == "misslungen" and r["next_probe_modifier"] == 3
    assert Fraction(r["chances"]["naechste_probe_erschwert"]) == 1 - Fraction(
        r["chances"]["trifft_ziel"]
    )


def test_finte_x() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Finte": um X erschwert, erschwert die Reaktion des
    Ziels um X; misslungen: nächste Probe um X erschwert."""
    miss_seed = seed_where(lambda g: 11 <= g.randint(1, 20) <= 19)
    r = attack({"wert": 12, "manoever": "finte", "manoever_x": 2}, miss_seed)
    assert r["target"] == 10 and r["next_probe_modifier"] == 2
    d = run("defense", {"pa_basis": 10, "finte": 2})
    assert d["target"] == 8


def test_sturmangriff() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Sturmangriff": „Attacke ist um 4 erschwert und richtet
    4 + GS/2 zusätzlichen Schaden an“ (GS/2 aufgerundet, Annahme); Fehlschlag: nächste Probe +4."""
    seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 10)
    _, d6 = draws(seed, [20, 6])
    r = attack({"wert": 14, "manoever": "sturmangriff", "gs": 7}, seed)
    assert r["target"] == 10 and r["sp"] == d6 + 4 + 4 + 4
    miss = seed_where(lambda g: 11 <= g.randint(1, 20) <= 19)
    assert attack({"wert": 14, "manoever": "sturmangriff"}, miss)["next_probe_modifier"] == 4
    err = error("attack", {"manoever": "sturmangriff", "zweite_angriffsaktion": True})
    assert err["field"] == "manoever" and "zwei Aktionen" in err["message"]


def test_gezielter_stich() -> None:
    """001_240b8e52c108db7c.txt, Abschnitt "Gezielter Stich": erschwert um 4 + RS/2 (mit Schild
    + Schild-PA), ignoriert RS; „Trifft er nicht, ist seine nächste Probe um 4 erschwert“ (4, not
    the whole Erschwernis)."""
    assert attack({"wert": 15, "manoever": "gezielter_stich", "ziel_rs": 3})["target"] == 15 - 4 - 2
    r = attack(
        {
            "wert": 15,
            "manoever": "gezielter_stich",
            "ziel_rs": 4,
            "ziel_schild": True,
            "ziel_schild_pa": 3,
        }
    )
    assert r["target"] == 15 - 4 - 2 - 3
    seed = seed_where(lambda g: 2 <= g.randint(1, 20) <= 8)
    _, d6 = draws(seed, [20, 6])
    r = attack({"wert": 15, "manoever": "gezielter_stich", "ziel_rs": 5}, seed)
    assert r["outcome"] == "gelungen" and r["sp"] == d6 + 4  # RS ignored
    miss = seed_where(lambda g: 10 <= g.randint(1, 20) <= 19)
    r = attack({"wert": 15, "manoever": "gezielter_stich", "ziel_rs": 6}, miss)
    assert r["outcome"] == "misslungen" and r["next_probe_modifier"] == 4
