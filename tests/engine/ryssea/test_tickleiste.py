"""The Ryssea Tickleiste as (state, command) → state (000_5fbfd0ad384a0921.txt)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from harness.support import assumed
from tests.engine.ryssea.helpers import DATA


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


# ---------------------------------------------------------------------------------------------
# Reliability: one load → apply → renumber → check → save path (the state returned is always
# one the engine accepts again); ticks and the state's size stay within the limits
# ---------------------------------------------------------------------------------------------


def state_with(ticks: dict[str, int], seq: int, orders: dict[str, int]) -> dict[str, Any]:
    """A running fight as the browser would send it back."""
    return {
        "version": 1,
        "started": True,
        "seq": seq,
        "fighters": [
            {
                "name": name,
                "ini": 10,
                "intuition": 3,
                "modifier": 0,
                "surprised": False,
                "status": "aktiv",
                "tick": tick,
                "order": orders[name],
            }
            for name, tick in ticks.items()
        ],
        "log": [],
    }


def test_tick_beyond_the_limit_is_refused_in_german_and_the_state_still_loads() -> None:
    """Finding: after tick 99 999 + 10 every command failed until reset. Now the command that
    would leave the Tickleiste is refused (German, naming the limit) and the state the browser
    keeps is still accepted."""
    board = Board()
    board.state = state_with({"A": 99_999, "B": 99_999}, 2, {"A": 1, "B": 2})
    error = board.fails("handeln", fighter="A", action="andere", ticks=10)
    assert error["field"] == "command"
    assert error["message"].startswith("Die Tickleiste reicht nur bis Tick 100.000")
    assert "bitte einen neuen Kampf beginnen" in error["message"]
    shown = board.do("anzeigen")
    assert shown["now"] == 99_999
    # within the limit the same command still works
    board.do("handeln", fighter="A", action="andere", ticks=1)
    assert board.tick("A") == 100_000
    board.do("anzeigen")


def test_a_late_surprised_joiner_beyond_the_limit_is_refused() -> None:
    board = Board()
    board.state = state_with({"A": 99_995}, 1, {"A": 1})
    error = board.fails("hinzufuegen", name="Spät", ini=5, intuition=3, surprised=True)
    assert "Tick 100.000" in error["message"]


def test_seq_and_order_are_renumbered_compactly_keeping_the_order() -> None:
    """Finding: seq/order grew with every command past the ±100 000 that loading checks. They
    only order markers on the same tick, so every command numbers them 1 … n again."""
    board = Board()
    orders = {"A": 99_990, "B": 99_999, "C": -50}
    board.state = state_with({"A": 5, "B": 5, "C": 5}, 100_000, orders)
    result = board.do("anzeigen")
    assert board.order() == ["C", "A", "B"]  # lower order first on the same tick
    assert {f["name"]: f["order"] for f in board.state["fighters"]} == {"C": 1, "A": 2, "B": 3}
    assert board.state["seq"] == 3
    assert result["next"] == "C"
    board.do("handeln", fighter="C", action="andere", ticks=1)
    assert board.state["seq"] == 3 and board.tick("C") == 6
    assert board.order() == ["A", "B", "C"]


def test_a_long_fight_stays_within_the_limits_and_always_loads_again() -> None:
    """2 000 commands: every returned state loads again, seq never exceeds the fighters."""
    board = started(("A", 20), ("B", 15), ("C", 10))
    for step in range(2_000):
        head = board.result["next"]
        if step % 7 == 3:
            board.do("abwarten", fighter=head)
            board.do("eingreifen", fighter=head)
        else:
            board.do("handeln", fighter=head, action="andere", ticks=1 + step % 5)
        assert board.state["seq"] <= len(board.state["fighters"])
        assert sorted(f["order"] for f in board.state["fighters"]) == [1, 2, 3]
    again = api.run("ryssea", "tickleiste", {"state": board.state, "command": "anzeigen"}, 1)
    assert again["ok"] and again["result"]["state"] == board.state


def test_state_size_is_bounded() -> None:
    """At most 20 fighters in a saved state; only the last 30 log lines are kept."""
    board = Board()
    state = state_with({f"K{i}": 0 for i in range(21)}, 21, {f"K{i}": i + 1 for i in range(21)})
    board.state = state
    error = board.fails("anzeigen")
    assert error["field"] == "state" and "höchstens 20" in error["message"]
    board.state = {**state_with({"A": 0}, 1, {"A": 1}), "log": [f"Zeile {i}" for i in range(500)]}
    board.do("anzeigen")
    assert board.state["log"] == [f"Zeile {i}" for i in range(470, 500)]
    board.state = {**state_with({"A": 0}, 1, {"A": 1}), "log": ["x" * 10_000]}
    board.do("anzeigen")
    assert board.state["log"] == ["x" * 300]


def test_missing_fields_are_named_per_command() -> None:
    """The fields a command needs are required for that command only."""
    board = Board()
    error = board.fails("hinzufuegen", name="A", ini=10)
    assert error["field"] == "intuition"
    assert error["message"] == (
        "Intuition: fehlt – bitte eine ganze Zahl eintragen (nötig bei Befehl: Kämpfer hinzufügen)."
    )
    board = started(("A", 20), ("B", 10))
    error = board.fails("handeln", action="nahkampfangriff", ticks=4)
    assert error["field"] == "fighter" and "fehlt" in error["message"]
    board.do("anzeigen")  # needs neither


def test_a_duration_the_text_leaves_open_is_named_when_used() -> None:
    """L160, L164: how long Laufen takes is not stated – the data's duration is an Annahme,
    named in the result of the action that uses it; a Nahkampfangriff (L186) names none."""
    laufen = next(
        r
        for r in DATA.table("tabellen.handlungsdauern.zeilen", ("schluessel",))
        if r["schluessel"] == "laufen"
    )
    text = " ".join(str(laufen["text"]).split())
    board = started(("A", 30), ("B", 1))
    board.do("handeln", fighter=board.result["next"], action="nahkampfangriff", ticks=5)
    assert text not in assumed(board.result)
    board.do("handeln", fighter=board.result["next"], action="laufen")
    assert text in assumed(board.result)
    assert assumed(board.result) == [text]


def test_a_surprised_defender_is_marked_before_the_start() -> None:
    """000 L43–L45: a surprised fighter loses 10 ticks from the initiative rolled at the start
    (the Überraschung helper carries its outcome into the Tickleiste); afterwards it is too
    late, in German."""
    from engine import api

    state: dict[str, object] = {}
    for command in (
        {"command": "hinzufuegen", "name": "Bruna", "ini": 10, "intuition": 3},
        {"command": "ueberraschen", "fighter": "Bruna"},
    ):
        answer = api.run("ryssea", "tickleiste", {**command, "state": state}, 5)
        assert answer["ok"], answer
        state = answer["result"]["state"]
    assert state["fighters"][0]["surprised"] is True
    plain = api.run(
        "ryssea",
        "tickleiste",
        {"command": "hinzufuegen", "name": "Bruna", "ini": 10, "intuition": 3, "state": {}},
        5,
    )["result"]["state"]
    started = api.run("ryssea", "tickleiste", {"command": "start", "state": state}, 5)
    unsurprised = api.run("ryssea", "tickleiste", {"command": "start", "state": plain}, 5)
    tick = started["result"]["state"]["fighters"][0]["tick"]
    assert tick == unsurprised["result"]["state"]["fighters"][0]["tick"] + 10
    late = api.run(
        "ryssea",
        "tickleiste",
        {"command": "ueberraschen", "fighter": "Bruna", "state": started["result"]["state"]},
        5,
    )
    assert not late["ok"] and "nur zu Kampfbeginn" in late["error"]["message"]


def test_who_cannot_act_is_passed_over_and_marked() -> None:
    """L11 (the board shows „wann jeder Beteiligte handeln kann“), L23 (same tick: who got
    there first): a fighter the fight knows to be down or dead (``unable``, from the states of
    the overview) keeps his marker, but „Als Nächstes“ is the first on the board who can act;
    the drawn board and the order mark him („Wolf (tot)“, or „kann nicht handeln“ without a
    word); nobody able → no one next. No command changes because of it."""
    board = started(("Alrik", 12), ("Wolf", 10), ("Bruna", 8))
    first, second, third = board.order()
    unable = [{"name": first, "text": "tot"}]
    shown = board.do("anzeigen", unable=unable)
    assert shown["next"] == second
    assert f"Als Nächstes: {second}" in shown["display"]["outcome"]
    markers = [m for f in shown["board"]["fields"] for m in f["markers"]]
    assert [(m["name"], m.get("unable")) for m in markers] == [
        (first, "tot"),
        (second, None),
        (third, None),
    ]
    assert board.order()[0] == f"{first} (tot)"
    plain = board.do("anzeigen", unable=[{"name": second}])
    assert plain["next"] == first and board.order()[1] == f"{second} (kann nicht handeln)"
    everyone = [{"name": n} for n in (first, second, third)]
    assert board.do("anzeigen", unable=everyone)["next"] is None
    # no command changes: the state is the same with or without
    before = board.do("anzeigen")["state"]
    assert board.do("anzeigen", unable=unable)["state"] == before
    assert board.do("abwarten", fighter=third, unable=unable)["next"] == second


def test_a_fighter_who_cannot_act_does_not_hold_the_line() -> None:
    """Issue #48: a fighter set to „tot“ stood first on the board, so the one after him could
    only react („… ist am Zug“). L11/L23: the board says when each fighter can act – one who
    cannot act any more is passed over: the first able fighter acts now, his tick is the
    current tick (the reaction limit of L128 counts from it), and who comes back into the fight
    (L31) joins at that tick."""
    board = started(("Alrik", 12), ("Wolf", 10), ("Bruna", 8))
    first, second, _ = board.order()
    dead = [{"name": first, "text": "tot"}]
    refused = board.fails("handeln", fighter=second, action="andere", ticks=3)
    assert "ist am Zug" in refused["message"]
    shown = board.do("anzeigen", unable=dead)
    assert shown["board"]["now"] == shown["board"]["fields"][1]["tick"]
    acted = board.do("handeln", fighter=second, action="andere", ticks=3, unable=dead)
    assert acted["event"].startswith(f"{second}:")
    assert f"{first} (tot)" in board.order()  # his marker stays, marked


def test_the_boards_own_log_is_marked_as_its_history() -> None:
    """The board keeps its last moves (its „Verlauf“); a page that shows the fight's whole
    history beside it (the Kampfhelfer page: „Verlauf des Kampfes“ lists every command as a
    step) leaves the board's own out – issue #48: „the Ryssea page shows two „Verlauf“ lists …
    for one journal“. The section says what it is (role „history“), not its caption."""
    board = started(("Alrik", 12), ("Bruna", 8))
    history = [s for s in board.result["display"]["sections"] if s.get("role") == "history"]
    assert len(history) == 1 and history[0]["caption"] == "Verlauf"
    assert history[0]["items"][0].startswith("Kampfbeginn")
    others = [s for s in board.result["display"]["sections"] if s is not history[0]]
    assert all("role" not in s for s in others)
