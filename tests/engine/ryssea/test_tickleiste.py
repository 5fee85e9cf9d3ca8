"""The Ryssea Tickleiste as (state, command) → state (000_5fbfd0ad384a0921.txt)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import api


class Board:
    """Drives the ``tickleiste`` action like the browser does: the state goes round trip."""

    def __init__(self, seed: int = 3) -> None:
        self.state: dict[str, Any] = {}
        self.seed = seed
        self.result: dict[str, Any] = {}

    def do(self, command: str, **params: Any) -> dict[str, Any]:
        answer = api.run(
            "ryssea", "tickleiste", {"state": self.state, "command": command, **params}, self.seed
        )
        assert answer["ok"], answer
        self.result = answer["result"]
        self.state = self.result["state"]
        return self.result

    def fails(self, command: str, **params: Any) -> dict[str, str]:
        answer = api.run(
            "ryssea", "tickleiste", {"state": self.state, "command": command, **params}, self.seed
        )
        assert not answer["ok"], answer
        return answer["error"]

    def tick(self, name: str) -> int | None:
        return next(f["tick"] for f in self.state["fighters"] if f["name"] == name)

    def order(self) -> list[str]:
        table = next(s for s in self.result["display"]["sections"] if s["kind"] == "table")
        return [row[1] for row in table["rows"]]


def started(*fighters: tuple[str, int]) -> Board:
    board = Board()
    for name, ini in fighters:
        board.do("hinzufuegen", name=name, ini=ini, intuition=3)
    board.do("start")
    return board


def test_start_places_everyone_at_minus_initiative() -> None:
    """L17/L21: INI + W6 + Mods → start field that many ticks before 0."""
    board = Board(seed=7)
    for name, ini in (("A", 10), ("B", 12)):
        board.do("hinzufuegen", name=name, ini=ini, intuition=3)
    result = board.do("start")
    same = api.run(
        "ryssea",
        "initiative",
        {
            "fighters": [
                {"name": "A", "ini": 10, "intuition": 3},
                {"name": "B", "ini": 12, "intuition": 3},
            ]
        },
        7,
    )["result"]
    assert {o["name"]: o["tick"] for o in same["order"]} == {
        "A": board.tick("A"),
        "B": board.tick("B"),
    }
    assert result["next"] == same["order"][0]["name"]
    assert board.fails("start")["field"] == "command"  # rolled once, at joining (L17)


def test_acting_moves_the_marker_by_the_duration_and_queues_behind() -> None:
    """L23: on the same field, whoever reached it first acts first (markers queue up)."""
    board = started(("A", 30), ("B", 1))
    a_start = board.tick("A")
    board.do("handeln", fighter="A", action="nahkampfangriff", ticks=5)
    assert board.tick("A") == a_start + 5
    # weapon speed below the minimum of 3 (L186) counts as 3
    board.do("handeln", fighter=board.result["next"], action="nahkampfangriff", ticks=1)
    head = board.result["next"]
    assert board.tick(head) == min(f["tick"] for f in board.state["fighters"])


def test_falsche_hand_adds_two_and_free_movement_stretches_short_actions() -> None:
    """L378–L380: WGS + 2 with the wrong hand; L140: actions under 3 ticks last 3."""
    board = started(("A", 30), ("B", 1))
    start = board.tick("A")
    board.do("handeln", fighter="A", action="falsche_hand", ticks=4)
    assert board.tick("A") == start + 6
    board = started(("A", 30), ("B", 1))
    start = board.tick("A")
    board.do("handeln", fighter="A", action="freie_bewegung", ticks=0, free_movement=True)
    assert board.tick("A") == start + 3


def test_late_joiner_starts_at_current_tick_behind_the_others() -> None:
    """L29: "Er beginnt … im aktuellen Tick … immer hinter bereits … stehende Figuren"."""
    board = started(("A", 20), ("B", 20))
    now = board.result["now"]
    board.do("hinzufuegen", name="Spät", ini=50, intuition=3)
    assert board.tick("Spät") == now
    on_now = [row for row in board.order() if board.tick(row) == now]
    assert on_now[-1] == "Spät"


def test_surprised_late_joiner_loses_ten_ticks() -> None:
    """L29 / L43: a surprised newcomer costs 10 ticks."""
    board = started(("A", 20))
    now = board.result["now"]
    board.do("hinzufuegen", name="Überrumpelt", ini=5, intuition=3, surprised=True)
    assert board.tick("Überrumpelt") == now + 10


def test_abwarten_and_eingreifen_queue_behind_bereithalten_acts_first() -> None:
    """L31 Abwartend: back on the current field, behind the others.
    L33 Bereithalten: interrupts and acts before all others on the field."""
    board = started(("A", 30), ("B", 20), ("C", 10))
    board.do("abwarten", fighter="B")
    assert board.tick("B") is None
    board.do("bereithalten", fighter="C")
    now = board.result["now"]
    board.do("eingreifen", fighter="B")
    assert board.tick("B") == now
    same_field = [n for n in board.order() if board.tick(n) == now]
    assert same_field[-1] == "B"
    board.do("eingreifen", fighter="C")
    assert board.order()[0] == "C" and board.tick("C") == now


def test_reactions_only_within_thirty_ticks() -> None:
    """L130: no reaction when more than 30 ticks behind the current actor's tick."""
    board = started(("Schnell", 60), ("Langsam", 0))
    gap = board.tick("Langsam") - board.result["now"]
    assert gap > 30
    error = board.fails("handeln", fighter="Langsam", action="aktive_abwehr")
    assert error["field"] == "fighter" and "30 Ticks" in error["message"]
    board = started(("Schnell", 20), ("Nah", 10))
    assert board.result["next"] == "Schnell"
    before = board.tick("Nah")
    board.do("handeln", fighter="Nah", action="aktive_abwehr")  # 4 ticks (L245)
    assert board.tick("Nah") == before + 4


def test_only_the_head_acts_out_of_turn_only_reactions() -> None:
    """L126: actions need the turn; reactions (Aktive Abwehr) may come at any time."""
    board = started(("A", 40), ("B", 30))
    other = "B" if board.result["next"] == "A" else "A"
    error = board.fails("handeln", fighter=other, action="nahkampfangriff", ticks=4)
    assert error["field"] == "action" and "am Zug" in error["message"]


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ({"version": 99}, "Version"),
        ({"version": 1, "fighters": "x"}, "fighters"),
        ({"version": 1, "fighters": [{"name": "A", "status": "aktiv", "tick": "x"}]}, "tick"),
        ({"version": 1, "fighters": [{"name": "A", "status": "weg"}]}, "status"),
        (
            {
                "version": 1,
                "fighters": [{"name": "A", "status": "bereit"}, {"name": "a", "status": "bereit"}],
            },
            "nur einmal",
        ),
    ],
)
def test_broken_saved_state_is_refused_in_german(state: dict[str, Any], words: str) -> None:
    answer = api.run("ryssea", "tickleiste", {"state": state, "command": "anzeigen"}, 1)
    assert not answer["ok"]
    assert words in answer["error"]["message"]
    assert answer["error"]["field"].startswith("state")


def test_state_round_trips_and_durations_come_from_the_data() -> None:
    board = started(("A", 30), ("B", 1))
    again = api.run("ryssea", "tickleiste", {"state": board.state, "command": "anzeigen"}, 1)
    assert again["result"]["state"] == board.state
    spec = api.describe("ryssea", "tickleiste")
    actions = next(p for p in spec["params"] if p["name"] == "action")
    values = [c["value"] for c in actions["choices"]]
    assert "aktive_abwehr" in values and "andere" in values
    assert spec["widget"] == "tickleiste"
