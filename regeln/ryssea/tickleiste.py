"""The Ryssea Tickleiste as a pure function: (state, command) → new state.

The browser keeps the state (localStorage) and sends it with every command; the engine checks
it, applies the rule and returns the new state with its explanation, always on one path:
load (:func:`load_board`, every key checked) → apply (:func:`apply`) → renumber the markers'
``order`` compactly (:func:`renumber`; only their relative order matters) → check that the
result stays within the limits (:func:`check_limits`: ticks within ±100 000, at most 20
fighters, the last 30 log lines) → save (:func:`save`, which loads the saved state once more),
so the state the engine returns is always one it accepts again. Rules:
000_5fbfd0ad384a0921.txt L17–L45 (start, same tick, late joining, Abwarten, Bereithalten,
surprise), L126–L130 (reactions, the 30-tick limit), L140 (free movement), and the durations
in ``tabellen.handlungsdauern`` of ``regeln/ryssea.yaml``.

This module owns the commands (:func:`apply`), the answer (:func:`render`, :func:`board_view`:
who cannot act – ``unable``, the fight's states – is marked and passed over by ``next``)
and the action; the state and its checks (load, renumber, limits, save) are in
:mod:`regeln.ryssea.tickleiste_board`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.data_files import note_assumption
from engine.display import Display
from engine.errors import EngineError, echo
from engine.formatting import number
from engine.params import BoolParam, ChoiceParam, IntParam, ListParam, StateParam, TextParam
from regeln.ryssea.common import DATA, SOURCE, SYSTEM
from regeln.ryssea.initiative import FIGHTER_FIELDS, first_chances, roll_initiative
from regeln.ryssea.tickleiste_board import (
    MAX_FIGHTERS,
    MAX_LOG,
    STATUS_LABEL,
    Board,
    Marker,
    check_limits,
    load_board,
    renumber,
    save,
)

ADD_FIELDS = ("hinzufuegen",)
FIGHTER_COMMANDS = (
    "handeln",
    "abwarten",
    "bereithalten",
    "eingreifen",
    "entfernen",
    "ueberraschen",
)
OTHER_ACTION = "andere"

COMMANDS = (
    ("anzeigen", "Anzeigen"),
    ("hinzufuegen", "Kämpfer hinzufügen"),
    ("start", "Kampf beginnen (Initiative würfeln)"),
    ("handeln", "Handlung ausführen"),
    ("abwarten", "Abwarten"),
    ("bereithalten", "Aktion bereithalten"),
    ("eingreifen", "Wieder eingreifen"),
    ("entfernen", "Kämpfer entfernen"),
    ("ueberraschen", "Als überrascht markieren"),
)


def _actions() -> list[dict[str, Any]]:
    return DATA.table("tabellen.handlungsdauern.zeilen", ("schluessel", "handlung", "dauer"))


def _action_choices() -> tuple[tuple[str, str], ...]:
    rows = [(str(r["schluessel"]), f"{r['handlung']} ({r['dauer']})") for r in _actions()]
    return (*rows, (OTHER_ACTION, "Andere Handlung (Ticks angeben)"))


def _require_name(params: dict[str, Any], field: str = "fighter") -> str:
    name = str(params.get(field) or "").strip()
    if not name:
        if field == "name":
            raise EngineError("Name: bitte einen Namen eingeben.", field)
        raise EngineError("Kämpfer: bitte einen Kämpfer auswählen.", field)
    return name


def duration(params: dict[str, Any]) -> tuple[int, str]:
    """Ticks of the chosen action (fixed, or the given ticks within the table's limits)."""
    key = params["action"]
    given = params["ticks"]
    if key == OTHER_ACTION:
        if given < 1:
            raise EngineError("Ticks: für eine andere Handlung bitte die Dauer angeben.", "ticks")
        ticks, name = given, "Andere Handlung"
    else:
        row = next(r for r in _actions() if r["schluessel"] == key)
        name = str(row["handlung"])
        if row.get("annahme") is True and isinstance(row.get("text"), str):
            # a duration the text leaves open: this result rests on it
            note_assumption(row["text"])
        if "ticks" in row and "ticks_min" not in row:
            ticks = int(row["ticks"])
        else:
            low = int(row.get("ticks_min", 1))
            formula = row.get("formel")
            if given < 1:
                what = "die Waffengeschwindigkeit" if formula else "die Dauer"
                raise EngineError(f"Ticks: bitte {what} angeben ({row['dauer']}).", "ticks")
            ticks = given + 2 if formula == "waffengeschwindigkeit_plus_2" else given
            ticks = max(ticks, low)
    if params["free_movement"]:
        minimum = DATA.integer("tickleiste.freie_bewegung_mindestdauer", 0, 100)
        if ticks < minimum:
            ticks = minimum
            name += f" mit freier Bewegung (mindestens {minimum} Ticks)"
        else:
            name += " mit freier Bewegung"
    return ticks, name


def _is_reaction(key: str) -> bool:
    if key == OTHER_ACTION:
        return False
    row = next(r for r in _actions() if r["schluessel"] == key)
    return bool(row.get("reaktion", False))


def _add(board: Board, params: dict[str, Any], surprise: int) -> str:
    """A new fighter: waits for the start, or joins a running fight (L29)."""
    if len(board.markers) >= MAX_FIGHTERS:
        raise EngineError(f"Name: höchstens {MAX_FIGHTERS} Kämpfer.", "name")
    name = _require_name(params, "name")
    if any(m.name.casefold() == name.casefold() for m in board.markers):
        raise EngineError(f"Name: „{echo(name)}“ steht schon auf der Tickleiste.", "name")
    marker = Marker(
        name=name,
        ini=params["ini"],
        intuition=params["intuition"],
        modifier=params["modifier"],
        surprised=params["surprised"],
        status="bereit",
        tick=None,
        order=0,
    )
    board.markers.append(marker)
    now = board.now()
    if not board.started or now is None:
        return f"{name} wartet auf den Kampfbeginn."
    # Späterer Kampfbeitritt (L29): current tick, behind those already there; +10 surprised
    marker.status = "aktiv"
    marker.tick = now + (surprise if marker.surprised else 0)
    marker.order = board.next_order()
    extra = f" (überrascht: +{surprise} Ticks)" if marker.surprised else ""
    return f"{name} tritt auf Tick {number(marker.tick)} dem Kampf bei{extra}."


def _start(board: Board, rng: random.Random, surprise: int) -> tuple[str, Display]:
    """Kampfbeginn: everyone waiting rolls initiative and gets a start field (L17–L25)."""
    waiting = [m for m in board.markers if m.status == "bereit"]
    if not waiting:
        raise EngineError(
            "Befehl „Kampf beginnen“: zuerst Kämpfer hinzufügen (alle anderen stehen schon).",
            "command",
        )
    if board.started:
        raise EngineError(
            "Befehl „Kampf beginnen“: der Kampf läuft schon; neue Kämpfer treten später bei.",
            "command",
        )
    rows = [m.to_dict() for m in waiting]
    fighters, order, ties = roll_initiative(rows, rng)
    for fighter in order:
        marker = next(m for m in waiting if m.name == fighter.name)
        marker.status = "aktiv"
        marker.tick = fighter.tick
        marker.order = board.next_order()
    board.started = True
    details = Display(headline="Initiative")
    for fighter in fighters:
        mods = [("INI", fighter.ini)]
        if fighter.modifier:
            mods.append(("Modifikatoren", fighter.modifier))
        if fighter.surprised:
            mods.append(("Überrascht", -surprise))
        details.roll(f"{fighter.name}: Initiativwurf", fighter.roll, mods, fighter.initiative)
    notes = []
    for tie in ties:
        how = "Stechen mit W10" if tie["rolloff"] else "höhere Intuition"
        notes.append(
            f"Gleichstand auf Tick {number(tie['tick'])}: {', '.join(tie['names'])} ({how})."
        )
    details.notes("Gleichstände", notes)
    details.chances(
        "Chance, als Erste(r) zu handeln (vor dem Wurf)",
        list(zip([r["name"] for r in rows], first_chances(rows), strict=True)),
        before=True,
    )
    starts = ", ".join(f"{f.name} {number(f.tick)}" for f in order)
    return f"Kampfbeginn – Startfelder: {starts}.", details


def _wait(marker: Marker, command: str) -> str:
    """Abwarten or Bereithalten: off the line onto the Abwarten-Feld (L31–L33)."""
    if marker.status != "aktiv":
        raise EngineError(
            f"Kämpfer: {marker.name} steht nicht auf der Tickleiste "
            f"({STATUS_LABEL[marker.status]}).",
            "fighter",
        )
    marker.status = "abwartend" if command == "abwarten" else "bereithalten"
    marker.tick = None
    if command == "abwarten":
        return f"{marker.name} wartet ab (Abwarten-Feld)."
    return f"{marker.name} hält eine Aktion bereit (Abwarten-Feld)."


def _rejoin(board: Board, marker: Marker, now: int | None) -> str:
    """Wieder eingreifen: on the current tick, behind the others or (bereitgehalten) first."""
    if marker.status not in {"abwartend", "bereithalten"}:
        raise EngineError(f"Kämpfer: {marker.name} wartet nicht ab.", "fighter")
    if now is None:
        raise EngineError(
            "Kämpfer: niemand steht mehr auf der Tickleiste; ohne aktuellen Tick kann "
            f"{marker.name} nicht eingreifen.",
            "fighter",
        )
    if marker.status == "bereithalten":
        # L33: acts before all others on the field
        firsts = [m.order for m in board.active() if m.tick == now]
        marker.order = min(firsts) - 1
        marker.status, marker.tick = "aktiv", now
        return (
            f"{marker.name} löst die bereitgehaltene Aktion aus und handelt auf Tick "
            f"{number(now)} vor allen anderen."
        )
    # L31: queued behind the others on the current field
    marker.status, marker.tick, marker.order = "aktiv", now, board.next_order()
    return f"{marker.name} greift auf Tick {number(now)} wieder ein (hinten eingereiht)."


def _act(board: Board, marker: Marker, head: Marker | None, params: dict[str, Any]) -> str:
    """An action: the marker moves on by its duration; out of turn only a reaction (L126–L130).
    ``head``: whose turn it is (the first on the line who can act)."""
    if marker.status != "aktiv" or marker.tick is None or head is None or head.tick is None:
        raise EngineError(
            f"Kämpfer: {marker.name} kann jetzt nicht handeln ({STATUS_LABEL[marker.status]}).",
            "fighter",
        )
    now = head.tick
    ticks, name = duration(params)
    limit = DATA.integer("tickleiste.reaktion_hoechstens_zurueck", 0, 1000)
    if marker is not head:
        if not _is_reaction(params["action"]):
            raise EngineError(
                f"Handlung: {head.name} ist am Zug; {marker.name} kann jetzt nur reagieren "
                "(z. B. Aktive Abwehr).",
                "action",
            )
        if marker.tick - now > limit:
            raise EngineError(
                f"Kämpfer: {marker.name} steht {marker.tick - now} Ticks hinter dem aktuellen "
                f"Tick {number(now)} – mehr als {limit} Ticks zurück ist keine Reaktion möglich.",
                "fighter",
            )
    start = marker.tick
    marker.tick = start + ticks
    marker.order = board.next_order()
    return (
        f"{marker.name}: {name} ({ticks} Ticks) von Tick {number(start)} auf {number(marker.tick)}."
    )


def _surprise(board: Board, marker: Marker, ticks: int) -> str:
    """A lost ambush (the Überraschung helper): the defender is surprised and loses the ticks
    from the initiative rolled at the start of the fight (L43–L45) – so only before it."""
    if marker.status != "bereit":
        raise EngineError(
            f"Kämpfer: {marker.name} hat die Initiative schon gewürfelt; überrascht sein zählt "
            "nur zu Kampfbeginn (vor „Kampf beginnen“).",
            "fighter",
        )
    marker.surprised = True
    return f"{marker.name} ist überrascht (−{ticks} Ticks auf die Initiative)."


def apply(board: Board, params: dict[str, Any], rng: random.Random) -> tuple[str, Display | None]:
    """Carry out one command; returns the German log line (and initiative details on start)."""
    command = params["command"]
    surprise = DATA.integer("initiative.ueberraschung_ticks", 0, 100)
    if command == "anzeigen":
        return "", None
    if command == "hinzufuegen":
        return _add(board, params, surprise), None
    if command == "start":
        return _start(board, rng, surprise)

    marker = board.find(_require_name(params))
    # who cannot act (down or dead) keeps his marker but no longer holds the line: the current
    # tick is the first able fighter's, and he is the one whose turn it is (L11, L23)
    head = _head(board, unable_of(params["unable"]))
    now = head.tick if head else None
    if command == "entfernen":
        board.markers.remove(marker)
        return f"{marker.name} verlässt den Kampf.", None
    if command in {"abwarten", "bereithalten"}:
        return _wait(marker, command), None
    if command == "eingreifen":
        return _rejoin(board, marker, now), None
    if command == "ueberraschen":
        return _surprise(board, marker, surprise), None
    # handeln
    return _act(board, marker, head, params), None


def _able(board: Board, unable: dict[str, str]) -> list[Marker]:
    """The line without those who cannot act, in acting order."""
    return [m for m in board.active() if m.name.casefold() not in unable]


def _head(board: Board, unable: dict[str, str]) -> Marker | None:
    """Whose turn it is: the first on the line who can act (everyone on it cannot: the first)."""
    pool = _able(board, unable) or board.active()
    return pool[0] if pool else None


UNABLE = "kann nicht handeln"


def unable_of(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Who cannot act (the fight's states: down or dead), by name (case-insensitive), with the
    word shown beside him („tot“; „kann nicht handeln“ without one)."""
    return {str(row["name"]).casefold(): row.get("text") or UNABLE for row in rows}


def render(
    board: Board, line: str, details: Display | None, unable: dict[str, str] | None = None
) -> dict[str, Any]:
    """The answer: the new state (through :func:`save`) and what the players see. Who cannot
    act (``unable``) keeps his marker, marked; „Als Nächstes“ passes over him (L11, L23)."""
    unable = unable or {}
    head = _head(board, unable)
    now = head.tick if head else None
    line_up = board.active()
    limit = DATA.integer("tickleiste.reaktion_hoechstens_zurueck", 0, 1000)
    able = _able(board, unable)
    if able:
        outcome = f"Als Nächstes: {able[0].name} auf Tick {number(able[0].tick or 0)}."
    elif line_up:
        outcome = "Niemand auf der Tickleiste kann handeln."
    elif board.markers:
        outcome = "Niemand steht auf der Tickleiste."
    else:
        outcome = "Noch keine Kämpfer – füge Kämpfer hinzu."
    headline = "Tickleiste" + (f" – aktueller Tick {number(now)}" if now is not None else "")
    display = Display(headline=headline, outcome=outcome)
    rows = []
    for place, marker in enumerate(line_up, start=1):
        behind = (marker.tick or 0) - (now or 0)
        reaction = "ja" if behind <= limit else f"nein ({behind} Ticks zurück)"
        rows.append([str(place), _marked(marker.name, unable), number(marker.tick or 0), reaction])
    if rows:
        display.table(
            "Reihenfolge (kleinster Tick zuerst; gleicher Tick: wer zuerst dort war)",
            ["Platz", "Kämpfer", "Tick", "Reaktion möglich"],
            rows,
        )
    waiting = [
        f"{_marked(m.name, unable)}: {STATUS_LABEL[m.status]}"
        for m in board.markers
        if m.status != "aktiv"
    ]
    display.notes("Nicht auf der Tickleiste", waiting)
    if details is not None:
        display.sections.extend(details.sections)
    if line:
        board.log.append(line)
        board.log = board.log[-MAX_LOG:]
    display.notes("Verlauf", list(reversed(board.log[-8:])), role="history")
    return {
        "state": save(board),
        "now": now,
        "next": able[0].name if able else None,
        "event": line,
        "board": board_view(board, limit, unable),
        "display": display.to_dict(),
    }


def _marked(name: str, unable: dict[str, str]) -> str:
    """„Wolf (tot)“ for who cannot act, the name alone otherwise."""
    word = unable.get(name.casefold())
    return f"{name} ({word})" if word else name


def board_view(board: Board, limit: int, unable: dict[str, str] | None = None) -> dict[str, Any]:
    """The board as the browser draws it (the time line of L11, markers stacked from the
    inside out in arrival order, L23; the Abwarten-Feld in the middle, L31–L33): tick fields
    in acting order, each with its markers in acting order, and who stands off the line. A
    marker of who cannot act carries ``unable`` (the word to show: „tot“)."""
    unable = unable or {}
    head = _head(board, unable)
    now = head.tick if head else None
    fields: list[dict[str, Any]] = []
    for place, marker in enumerate(board.active(), start=1):
        if not fields or fields[-1]["tick"] != marker.tick:
            fields.append({"tick": marker.tick, "markers": []})
        behind = (marker.tick or 0) - (now or 0)
        item = {"name": marker.name, "place": place, "can_react": behind <= limit}
        if marker.name.casefold() in unable:
            item["unable"] = unable[marker.name.casefold()]
        fields[-1]["markers"].append(item)
    waiting = []
    for m in board.markers:
        if m.status in {"abwartend", "bereithalten"}:
            entry = {"name": m.name, "status": m.status, "label": STATUS_LABEL[m.status]}
            if m.name.casefold() in unable:
                entry["unable"] = unable[m.name.casefold()]
            waiting.append(entry)
    return {
        "now": now,
        "reaction_limit": limit,
        "fields": fields,
        "waiting": waiting,
        "ready": [m.name for m in board.markers if m.status == "bereit"],
    }


@SYSTEM.action(
    "tickleiste",
    title="Tickleiste",
    summary=(
        "Kämpfer hinzufügen, Initiative würfeln, Handlungen mit ihrer Dauer in Ticks ausführen "
        "und sehen, wer als Nächstes handelt. Abwarten, Bereithalten und späterer "
        "Kampfbeitritt nach den Regeln der Tickleiste."
    ),
    source=f"{SOURCE} L9–L45, L126–L130, L140 und die Handlungsdauern",
    params=(
        StateParam("state", "Gespeicherte Tickleiste"),
        ChoiceParam("command", "Befehl", choices=COMMANDS, default="anzeigen"),
        # a new fighter's name, INI and Intuition are needed for "hinzufuegen" only; the
        # acting fighter for the commands about one fighter (the other commands ignore them)
        *(
            replace(
                p,
                required=False,
                required_when=("command", ADD_FIELDS) if p.required else None,
                group="Neuer Kämpfer",
            )
            for p in FIGHTER_FIELDS
        ),
        TextParam(
            "fighter",
            "Kämpfer",
            "Wer handelt (oder wartet, greift ein …).",
            required=False,
            required_when=("command", FIGHTER_COMMANDS),
        ),
        ChoiceParam("action", "Handlung", choices=_action_choices(), default="nahkampfangriff"),
        IntParam(
            "ticks",
            "Ticks",
            "Waffengeschwindigkeit oder Dauer, wo die Handlung keine feste Dauer hat.",
            default=0,
            minimum=0,
            maximum=200,
            subject="actor",
        ),
        BoolParam(
            "free_movement", "mit freier Bewegung", "Kürzere Handlungen dauern dann 3 Ticks."
        ),
        # who cannot act (the fight's states: kampfunfähig, tot): marked, passed over by „Als
        # Nächstes“; no command changes because of it
        ListParam(
            "unable",
            "Kann nicht handeln",
            "Kämpfer, die kampfunfähig oder tot sind: „Als Nächstes“ übergeht sie.",
            item=(
                TextParam("name", "Name", max_length=30),
                TextParam("text", "Zustand", required=False, max_length=40),
            ),
            item_label="Kämpfer",
            min_items=0,
            max_items=MAX_FIGHTERS,
        ),
    ),
    assumptions=tuple(
        str(r["text"]) for r in _actions() if r.get("annahme") and isinstance(r.get("text"), str)
    ),
    widget="tickleiste",
)
def tickleiste(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    board = load_board(params["state"])
    line, details = apply(board, params, rng)
    renumber(board)
    check_limits(board)
    return render(board, line, details, unable_of(params["unable"]))
