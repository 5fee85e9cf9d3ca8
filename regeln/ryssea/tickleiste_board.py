"""The Ryssea Tickleiste's state: the markers, the board, and checking it on its way in and out.

Owns what a saved Tickleiste may hold (``STATE_VERSION``, at most ``MAX_FIGHTERS`` fighters,
ticks within ±``MAX_TICK``, the last ``MAX_LOG`` log lines of at most ``MAX_LOG_LINE``
characters), the statuses (``STATUS_LABEL``), :class:`Marker` and :class:`Board`, and the
steps of :mod:`regeln.ryssea.tickleiste` around a command: :func:`load_board` (every
key checked), :func:`renumber` (the markers' ``order`` compactly), :func:`check_limits` and
:func:`save` (which loads the saved state once more, so the engine always accepts it again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError, echo
from engine.formatting import number
from engine.ordering import check_unique_names
from engine.params import renamed
from regeln.ryssea.initiative import FIGHTER_FIELDS

STATE_VERSION = 1
MAX_FIGHTERS = 20
MAX_LOG = 30
MAX_LOG_LINE = 300
MAX_TICK = 100_000

STATUS_LABEL = {
    "bereit": "wartet auf Kampfbeginn",
    "aktiv": "auf der Tickleiste",
    "abwartend": "Abwarten-Feld",
    "bereithalten": "Abwarten-Feld (hält Aktion bereit)",
}


@dataclass
class Marker:
    name: str
    ini: int
    intuition: int
    modifier: int
    surprised: bool
    status: str
    tick: int | None
    order: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ini": self.ini,
            "intuition": self.intuition,
            "modifier": self.modifier,
            "surprised": self.surprised,
            "status": self.status,
            "tick": self.tick,
            "order": self.order,
        }


@dataclass
class Board:
    started: bool
    seq: int
    markers: list[Marker]
    log: list[str]

    def active(self) -> list[Marker]:
        """Markers on the line in acting order: lower tick first, then who got there first."""
        on_line = [m for m in self.markers if m.status == "aktiv" and m.tick is not None]
        return sorted(on_line, key=lambda m: (m.tick, m.order))

    def now(self) -> int | None:
        line = self.active()
        return line[0].tick if line else None

    def find(self, name: str) -> Marker:
        for marker in self.markers:
            if marker.name.casefold() == name.casefold():
                return marker
        known = ", ".join(m.name for m in self.markers) or "noch niemand"
        if len(known) > 160:
            known = known[:160].rsplit(", ", 1)[0] + ", …"
        raise EngineError(
            f"Kämpfer: „{echo(name)}“ steht nicht auf der Tickleiste ({known}).", "fighter"
        )

    def next_order(self) -> int:
        self.seq += 1
        return self.seq

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "started": self.started,
            "seq": self.seq,
            "fighters": [m.to_dict() for m in self.markers],
            "log": [line[:MAX_LOG_LINE] for line in self.log[-MAX_LOG:]],
        }


def _int(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(
            f"Gespeicherte Tickleiste: „{key}“ muss eine ganze Zahl von {low} bis {high} sein.",
            "state",
        )
    return value


def load_board(raw: dict[str, Any]) -> Board:
    """Check a state that came from the browser (or an imported file) key by key."""
    if not raw:
        return Board(started=False, seq=0, markers=[], log=[])
    version = raw.get("version")
    if isinstance(version, bool) or version != STATE_VERSION:
        raise EngineError(
            f"Gespeicherte Tickleiste: unbekannte Version „{echo(version)}“ "
            f"(erwartet {STATE_VERSION}).",
            "state",
        )
    fighters = raw.get("fighters")
    if not isinstance(fighters, list) or len(fighters) > MAX_FIGHTERS:
        raise EngineError(
            f"Gespeicherte Tickleiste: „fighters“ muss eine Liste mit höchstens {MAX_FIGHTERS} "
            "Kämpfern sein.",
            "state",
        )
    markers = []
    for index, item in enumerate(fighters):
        where = f"fighters.{index}"
        if not isinstance(item, dict):
            raise EngineError(f"Gespeicherte Tickleiste: „{where}“ ist kein Objekt.", "state")
        # a marker keeps a fighter's values under the fields' names: a file or a stored board
        # from before a rename (Param.formerly) is read under the names of now
        item = dict(renamed(FIGHTER_FIELDS, item, "state", f"Gespeicherte Tickleiste: {where}"))
        name = item.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 30:
            raise EngineError(f"Gespeicherte Tickleiste: „{where}.name“ ist ungültig.", "state")
        status = item.get("status")
        if status not in STATUS_LABEL:
            raise EngineError(f"Gespeicherte Tickleiste: „{where}.status“ ist ungültig.", "state")
        tick = item.get("tick")
        if status == "aktiv":
            tick = _int(tick, f"{where}.tick", -MAX_TICK, MAX_TICK)
        elif tick is not None:
            raise EngineError(
                f"Gespeicherte Tickleiste: „{where}.tick“ muss leer sein ({STATUS_LABEL[status]}).",
                "state",
            )
        surprised = item.get("surprised", False)
        if not isinstance(surprised, bool):
            raise EngineError(
                f"Gespeicherte Tickleiste: „{where}.surprised“ ist ungültig.", "state"
            )
        markers.append(
            Marker(
                name=name.strip(),
                ini=_int(item.get("ini", 0), f"{where}.ini", 0, 99),
                intuition=_int(item.get("intuition", 0), f"{where}.intuition", 0, 99),
                modifier=_int(item.get("modifier", 0), f"{where}.modifier", -99, 99),
                surprised=surprised,
                status=str(status),
                tick=tick,
                order=_int(item.get("order", 0), f"{where}.order", -MAX_TICK, MAX_TICK),
            )
        )
    check_unique_names([m.to_dict() for m in markers], "state.fighters")
    started = raw.get("started", False)
    if not isinstance(started, bool):
        raise EngineError("Gespeicherte Tickleiste: „started“ ist ungültig.", "state")
    log = raw.get("log", [])
    if not isinstance(log, list) or not all(isinstance(x, str) for x in log):
        raise EngineError(
            "Gespeicherte Tickleiste: „log“ muss eine Liste von Texten sein.", "state"
        )
    seq = _int(raw.get("seq", 0), "seq", 0, MAX_TICK)
    # only the last lines are kept (and shown), each cut to its maximum length
    lines = [x[:MAX_LOG_LINE] for x in log[-MAX_LOG:]]
    return Board(started=started, seq=seq, markers=markers, log=lines)


def renumber(board: Board) -> None:
    """Number the markers' ``order`` 1, 2, 3 … in their present order, ``seq`` = the highest.

    ``order`` only decides who acts first among markers on the same tick (lower first), and a
    new order is always above (or, Bereithalten, below) all others; so the numbers themselves
    carry nothing, and compact ones never grow past the limits however long the fight lasts.
    """
    ranked = sorted(range(len(board.markers)), key=lambda i: (board.markers[i].order, i))
    for rank, index in enumerate(ranked, start=1):
        board.markers[index].order = rank
    board.seq = len(board.markers)


def check_limits(board: Board) -> None:
    """Refuse (German) a command whose result would leave what a saved Tickleiste may hold."""
    for marker in board.markers:
        if marker.tick is not None and not -MAX_TICK <= marker.tick <= MAX_TICK:
            raise EngineError(
                f"Die Tickleiste reicht nur bis Tick {number(MAX_TICK)} – bitte einen neuen "
                f"Kampf beginnen ({marker.name} stünde auf Tick {number(marker.tick)}).",
                "command",
            )
    if len(board.markers) > MAX_FIGHTERS:
        raise EngineError(f"Name: höchstens {MAX_FIGHTERS} Kämpfer.", "name")


def save(board: Board) -> dict[str, Any]:
    """The state to return; it is loaded once more, so the engine always accepts it again."""
    state = board.to_dict()
    try:
        load_board(state)
    except EngineError as error:  # a bug: the engine would refuse its own state
        raise EngineError(
            "Die Tickleiste kann diesen Stand nicht speichern – bitte einen neuen Kampf beginnen.",
            "state",
        ) from error
    return state
