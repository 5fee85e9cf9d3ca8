"""A scripted whole fight on a system's Kampfhelfer page, as a game master plays it: two heroes
(Alrik, Bruna) against two enemies (Ork, Goblin), three rounds, a reload, a wrong click undone
and a correction typed into the overview – checked against the page's own fight run in Node
(:mod:`harness.fight_mirror`) after every step, and counted (typed fields, clicks, scrolls).
Driven by ``tests/browser/test_whole_fight.py`` (the checks) and ``scripts/play_fight.py`` (the
counts at laptop and phone width); what differs per system is read from the page and the
engine, never from a list of systems."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import api
from harness.browser import ALL_HELPERS_SET_UP, evaluate_one, form_params, wait_engine_ready
from harness.fight_mirror import Mirror
from harness.layout import systems_with_pages

HEROES = ("Alrik", "Bruna")
ENEMIES = ("Ork", "Goblin")
FIGHTERS = HEROES + ENEMIES
SIDE = {name: ("Helden" if name in HEROES else "Gegner") for name in FIGHTERS}
# each fighter's own opponent: Alrik ↔ Ork, Bruna ↔ Goblin (the other one if he is down)
PARTNER = {**dict(zip(HEROES, ENEMIES, strict=True)), **dict(zip(ENEMIES, HEROES, strict=True))}
ROUNDS = 3
TROUBLE_ROUND = 1  # the second round: the reload before its second turn, then the wrong click
# each fighter's own values: the schema's default moved a little (heroes a bit better), his
# weapon, his weapon's speed on the Tickleiste – no two fighters alike, so that a value shown
# for the wrong fighter is seen
OFFSET = dict(zip(FIGHTERS, (4, 3, 2, 1), strict=True))
WEAPON = dict(zip(FIGHTERS, ("1W8+2", "1W8+1", "1W6+2", "1W6+1"), strict=True))
TICKS = dict(zip(FIGHTERS, ("6", "7", "8", "9"), strict=True))
# the others stand three rounds (twice the schema's LeP, Trefferpunkte …), the Goblin may fall:
# then „Weiter“ passes him over and his opponent turns to the other one
WEAK = "Goblin"

STATES = ("kampffähig", "kampfunfähig", "tot")
BLANK_RESOURCE = 12  # a life value without a default (blank-able, the text gives no number)


def fight_systems(root: Path | None = None) -> tuple[str, ...]:
    """The rule systems with a Kampfhelfer page, in the engine's order."""
    root = root or Path.cwd()
    return tuple(
        s for s in systems_with_pages(root) if (root / "docs" / s / "kampfhelfer.md").is_file()
    )


# ------------------------------------------------------------------ the fight the test expects
# is the page's own fight run in Node (fight_mirror.Mirror): the test feeds it the steps it made


def _down_state(state: Any) -> dict[str, str] | None:
    """A state that keeps a fighter from acting (kampfunfähig, tot), as the overview shows it."""
    if not isinstance(state, dict) or state.get("zustand") not in STATES:
        return None
    return None if state["zustand"] == "kampffähig" else state


def _is_choice(event: dict[str, Any]) -> bool:
    """Choosing actor and target: kept as a step, but no change."""
    return bool(event["type"] == "choose")


def _turn(turn: dict[str, Any]) -> dict[str, Any]:
    """A turn of the acting order: who, its label, the situation it sets (DSA's second action)."""
    out: dict[str, Any] = {"name": turn["name"], "label": str(turn.get("label") or "")}
    if isinstance(turn.get("situation"), dict):
        out["situation"] = copy.deepcopy(turn["situation"])
    return out


def turns_of(result: dict[str, Any]) -> list[dict[str, str]]:
    """The acting order an initiative result gives (its turns, phases or order)."""
    if isinstance(result.get("turns"), list):
        return [_turn(t) for t in result["turns"] if isinstance(t.get("name"), str)]
    if isinstance(result.get("phases"), list):
        return [
            {
                "name": p["name"],
                "label": f"Phase {p['phase']}" + (", 2. Aktion" if p.get("action") == 2 else ""),
            }
            for p in result["phases"]
        ]
    if isinstance(result.get("order"), list):
        return [
            {"name": o["name"], "label": f"Platz {i + 1}"} for i, o in enumerate(result["order"])
        ]
    return []


# ------------------------------------------------------------------ what the page shows

# Every answer of a helper, in order, with the fighters' values its form holds when the fight
# reads them (fight/rolls.js afterRoll, on the way up: after page.js has put the values of one
# roll back to their defaults, so the fields only they opened are closed) – read on the way down
# (capture). In order, because one tap may make two answers (a follow-up the rules make follow,
# `then`: the damage after a failed parade).
HOOK = """() => {
  window.__rwWholeResults = [];
  if (window.__rwWholeHooked) return;
  window.__rwWholeHooked = true;
  let values = null;
  document.addEventListener("regelwerk:result", (event) => {
    const helper = event.target.closest(".rw-helper");
    const of = (subject) => Object.fromEntries([...helper.querySelectorAll(
      `.rw-form .rw-field[data-subject="${subject}"] [data-path][data-type]`)]
      .filter((i) => !i.disabled)
      .map((i) => [i.dataset.path, i.dataset.type === "bool" ? i.checked : i.value]));
    values = helper ? { actor: of("actor"), target: of("target") } : null;
  }, true);
  document.addEventListener("regelwerk:result", (event) => {
    const helper = event.target.closest(".rw-helper");
    const detail = JSON.parse(JSON.stringify(event.detail));
    window.__rwWholeResults.push({ id: helper ? helper.id : "", detail, values });
  });
}"""

# The page's dice as a fixed sequence (mulberry32 from the system's name), so that a fight can be
# played again the same way: the Wurfnummer of every roll the page makes comes from
# crypto.getRandomValues (engine-client.js newSeed). Its state is kept in sessionStorage, so a
# reload goes on with the next numbers; `seed` null: go on where it stood.
DICE = """(seed) => {
  const key = "regelwerk-test:wuerfel";
  if (seed !== null) sessionStorage.setItem(key, String(seed >>> 0));
  const original = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (array) => {
    if (!(array instanceof Uint32Array)) return original(array);
    let state = Number(sessionStorage.getItem(key)) >>> 0;
    for (let i = 0; i < array.length; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      array[i] = (t ^ (t >>> 14)) >>> 0;
    }
    sessionStorage.setItem(key, String(state));
    return array;
  };
}"""

# the attack tab and the helpers of the tools with their resource fields
PLAN = """() => {
  const fight = document.querySelector(".rw-workbench-fight");
  const board = fight.querySelector(".rw-helper[data-widget='tickleiste']");
  const order = board ? null : fight.querySelector(".rw-helper:not([data-widget])");
  const set = document.querySelector(".rw-workbench-tools .tabbed-set");
  const labels = [...set.querySelectorAll(":scope > .tabbed-labels > label")];
  const blocks = [...set.querySelectorAll(":scope > .tabbed-content > .tabbed-block")];
  const resources = (h) => Object.fromEntries(
    [...h.querySelectorAll(".rw-field[data-subject='target'][data-resource]")]
      .map((f) => [f.dataset.resource, f.querySelector("[data-path]").dataset.path]));
  const helpers = [...document.querySelectorAll(".rw-workbench .rw-helper:not([data-widget])")]
    .map((h) => ({ id: h.id, action: h.dataset.action, resources: resources(h),
                   targets: !!h.querySelector(".rw-field[data-subject='target']") }));
  // the overview's columns: the life values of the system's fight contract (fight/contract.js)
  const contract = JSON.parse(document.querySelector(".rw-fight-contract").dataset.contract);
  const values = Object.fromEntries(contract.values.map((v) => [v.title || v.name, v.name]));
  const byHand = contract.values.filter((v) => v.by_hand).map((v) => v.name);
  const tabs = labels.map((label, i) => {
    const helper = blocks[i].querySelector(".rw-helper");
    return { label: label.textContent.trim(), helper: helper ? helper.id : "" };
  });
  return { board: board ? board.id : "", order: order ? order.id : "", tabs, helpers, values,
           byHand };
}"""

HAS_BOARD = """() => !!document.querySelector(".rw-workbench .rw-tickleiste")"""

# What a Tickleiste command keeps for the acting fighter (tickleiste-ui.js ownValues): on
# „Handlung ausführen“ the fields of his own (subject actor: his Ticks) in the command's fieldset
OWN_VALUES = """(button) => {
  const fieldset = button.closest("fieldset");
  if (button.dataset.command !== "handeln" || !fieldset) return null;
  const fighter = fieldset.querySelector("[data-path='fighter']");
  const values = {};
  for (const input of fieldset.querySelectorAll(
      '.rw-field[data-subject="actor"] [data-path][data-type]')) {
    values[input.dataset.path] = input.dataset.type === "bool" ? input.checked : input.value;
  }
  if (!Object.keys(values).length || !fighter || !fighter.value) return null;
  const helper = button.closest(".rw-helper");
  return { fighter: fighter.value, action: helper.dataset.action, values };
}"""

# what a roll of this helper sends (Regelwerk.collect) and whether it has fields of the fighters
FORM = """(helper) => {
  const of = (subject) => [...helper.querySelectorAll(
    `.rw-form .rw-field[data-subject="${subject}"] [data-path][data-type]`)];
  return { hasActor: of("actor").length > 0, hasTarget: of("target").length > 0,
           params: window.Regelwerk.collect(helper) };
}"""

# the fields a game master can see in a helper now
VISIBLE = """(helper) => [...helper.querySelectorAll(".rw-form [data-path][data-type]")]
  .filter((i) => !i.disabled && i.offsetParent !== null && !i.closest(".rw-list"))
  .map((i) => ({ path: i.dataset.path, type: i.dataset.type,
                 subject: (i.closest(".rw-field") || { dataset: {} }).dataset.subject || "",
                 advanced: !!i.closest("details.rw-advanced"),
                 value: i.dataset.type === "bool" ? i.checked : i.value }))"""

SNAPSHOT = """(system) => {
  const stored = localStorage.getItem(`regelwerk:kampf:${system}`);
  const head = [...document.querySelectorAll(".rw-overview-table thead th")]
    .map((th) => th.textContent.trim());
  const rows = [...document.querySelectorAll(".rw-overview-table tbody tr")].map((tr) => ({
    name: tr.querySelector(".rw-overview-name > span").textContent,
    actor: !!tr.querySelector(".rw-badge--actor"),
    target: !!tr.querySelector(".rw-badge--target"),
    values: Object.fromEntries([...tr.querySelectorAll("input.rw-overview-value")]
      .map((i) => [i.getAttribute("aria-label"), i.value])),
    state: tr.querySelector("select.rw-overview-state").value,
    stateLabel: tr.querySelector("select.rw-overview-state").getAttribute("aria-label"),
  }));
  const bar = document.querySelector(".rw-fight-bar");
  const turn = bar.querySelector(".rw-fight-turn-text");
  return {
    turn: turn.hidden ? null : turn.textContent,
    positions: Object.fromEntries([...document.querySelectorAll(".rw-overview-table tbody tr")]
      .map((tr) => [tr.querySelector(".rw-overview-name > span").textContent,
                    tr.querySelector(".rw-overview-position").textContent])),
    fight: window.Regelwerk.fight(system),
    journal: stored === null ? null : JSON.parse(stored),
    head, rows,
    barActor: bar.querySelector(".rw-fight-actor").value,
    barTarget: bar.querySelector(".rw-fight-target").value,
    undo: bar.querySelector(".rw-fight-undo").title,
    redo: bar.querySelector(".rw-fight-redo").title,
    history: document.querySelector(".rw-history summary").textContent,
  };
}"""

# What the game master does with an element, in one round trip: first, if it is not in the
# window (off screen, or under the sticky bar or a notice), he scrolls it to the middle (→ true);
# then he reads it („see“), clicks it, ticks a box to `value` or enters `value` (typed or
# chosen). The page gets the events of a reader's input (a value is committed at once: input,
# change); Playwright's own click() and fill() would add ≈ 0.1–0.25 s of scrolling, mouse moves
# and waiting for stable frames per action (tests/browser/conftest.py, ROLL_SEEDED).
SEEN = """(el) => {
  const r = el.getBoundingClientRect();
  let seen = r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
  if (seen) {
    const x = Math.min(Math.max(r.left + Math.min(r.width / 2, 20), 0), innerWidth - 1);
    const hit = document.elementFromPoint(x, r.top + r.height / 2);
    const labels = el.labels ? [...el.labels] : [];
    seen = !!hit && (el.contains(hit) || hit.contains(el) || labels.some((l) => l.contains(hit)));
  }
  if (!seen) el.scrollIntoView({ block: "center" });
  return seen;
}"""
# how the game master would call an element he had to scroll to („Würfeln (dsa-attack)“)
NAME = """(el) => {
  const label = el.getAttribute("aria-label")
    || (el.labels && el.labels[0] ? el.labels[0].textContent : "")
    || el.textContent || el.dataset.path || el.className;
  const helper = el.closest(".rw-helper");
  const where = helper ? ` (${helper.id.replace(/^helfer-/, "")})` : "";
  return label.replace(/\\s+/g, " ").trim().slice(0, 40) + where;
}"""
ACT = f"""(el, [kind, value]) => {{
  const seen = ({SEEN})(el);
  const far = seen ? "" : ({NAME})(el);
  if (kind === "see") return far;
  el.focus({{ preventScroll: true }});
  if (kind === "click") el.click();
  else if (kind === "check") {{ if (el.checked !== value) el.click(); }}
  else {{
    el.value = value;
    el.dispatchEvent(new Event("input", {{ bubbles: true }}));
    el.dispatchEvent(new Event("change", {{ bubbles: true }}));
  }}
  return far;
}}"""
# The answer number `index` of the page (HOOK) once it has come, from the helper `id` (or the
# error it shows), and its headline read where the game master sees it.
ANSWER = f"""async (id, index, read, far) => {{
  const helper = document.getElementById(id);
  const text = (css) => {{
    const node = helper.querySelector(css);
    return node ? node.textContent : "";
  }};
  for (let waited = 0; waited < 60000; waited += 10) {{
    if (window.__rwWholeResults.length > index) {{
      const answer = window.__rwWholeResults[index];
      // a one-tap follow-up's roll is read where it is shown: the chain below the result it
      // followed (fight/rolls.js), when its own helper is in another tab
      const links = document.querySelectorAll(`.rw-chain-step[data-from="${{id}}"]`);
      const head = helper.offsetParent === null && links.length
        ? links[links.length - 1].querySelector(".rw-headline")
        : helper.querySelector(".rw-result > .rw-headline");
      const scrolls = read && head && !({SEEN})(head) ? [...far, ({NAME})(head)] : far;
      const seed = helper.querySelector(".rw-form [data-type='seed']");
      return {{ scrolls, last: answer, values: answer.values, index,
               seedShown: text(".rw-result > .rw-seed"),
               seedLeft: seed ? seed.value : "", written: text(".rw-fight-written") }};
    }}
    const error = helper.querySelector(
      ".rw-result > .rw-error, .rw-field-error:not([hidden]):not(:empty)");
    if (error) return {{ error: error.textContent }};
    await new Promise((resolve) => setTimeout(resolve, 10));
  }}
  return {{ error: "keine Antwort nach 60 s" }};
}}"""
# A button that makes the helper `id` answer („Würfeln“, a Tickleiste command), pressed as in
# ACT; then the answer it made.
PRESS = f"""async (button, [id, read]) => {{
  const far = ({SEEN})(button) ? [] : [({NAME})(button)];
  const index = window.__rwWholeResults.length;
  button.focus({{ preventScroll: true }});
  button.click();
  return ({ANSWER})(id, index, read, far);
}}"""
# An answer the page made by itself (a `then` follow-up after a one-tap roll): no click.
AWAIT = f"""([id, index]) => ({ANSWER})(id, index, true, [])"""


@dataclass
class Tally:
    """Typed fields, clicks and scrolls, per part of the fight („Aufbau“, „Runde 1“ …)."""

    parts: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    why: dict[str, list[str]] = field(default_factory=dict)  # per part: what had to be scrolled to

    def begin(self, name: str) -> None:
        # turns: the fighters' turns (actions on the Tickleiste) of the part, attacks: of them
        # those with an attack
        self.parts.append((name, {"typed": 0, "clicks": 0, "scrolls": 0, "turns": 0, "attacks": 0}))

    def add(self, what: str, why: str = "") -> None:
        self.parts[-1][1][what] += 1
        if why:
            self.why.setdefault(self.parts[-1][0], []).append(why)


def differences(page: Any, expected: Any, path: str = "") -> list[str]:
    """Where the page's fight differs from the mirror's: „path: page value ≠ expected“."""
    if isinstance(page, dict) and isinstance(expected, dict):
        out: list[str] = []
        for key in dict.fromkeys([*page, *expected]):
            out += differences(page.get(key, "—"), expected.get(key, "—"), f"{path}/{key}")
        return out
    return [] if page == expected else [f"{path}: {page!r} ≠ {expected!r}"]


def _number(value: Any) -> str:
    return "" if value is None else str(value)


def _clip(value: int, param: dict[str, Any]) -> int:
    return int(max(param.get("min", value), min(param.get("max", value), value)))


# ------------------------------------------------------------------ the game master


class Fight:
    """One scripted fight on a system's Kampfhelfer page (``page`` open there, storage empty).
    With ``checks`` the page is compared with the mirror after every step; ``tally`` counts
    what the game master does either way."""

    def __init__(self, page: Any, system: str, *, checks: bool = True) -> None:
        self.page = page
        self.system = system
        self.checks = checks
        self.tally = Tally()
        self.mirror = Mirror(system, has_board=bool(page.evaluate(HAS_BOARD)))
        self.rng = random.Random(system)
        self.typed_for: set[tuple[str, str, str]] = set()  # (fighter, helper, field) typed once
        self.log: list[str] = []
        self.seen_damage = 0
        self.carried: list[str] = []  # follow-ups that did not bring this attack's values
        self.check_follow_ups = False
        self.entered: set[str] = set()  # helpers whose values of one roll are in for their roll
        self.where = "Aufbau"
        self.answered = -1  # the number of the page's last answer (HOOK)
        page.evaluate(HOOK)
        page.evaluate(DICE, sum(system.encode()) * 7919)
        self.plan = page.evaluate(PLAN)
        self.helpers = {h["id"]: h for h in self.plan["helpers"]}
        tabs = {t["label"]: t["helper"] for t in self.plan["tabs"]}
        assert "Angriff" in tabs, f"{system}: no tab „Angriff“ on the Kampfhelfer page"
        self.attack_id = tabs["Angriff"]
        self.attack_action = self.helpers[self.attack_id]["action"]
        # every life value the fight tracks: its name in the overview → its key (the contract)
        self.resources: dict[str, str] = dict(self.plan["values"])
        # those a roll writes (not kept by hand: Ryssea's Lebenspunkte, 000 L398)
        self.written = [k for k in self.resources.values() if k not in self.plan["byHand"]]
        self.schemas: dict[str, dict[str, dict[str, Any]]] = {}

    # -------------------------------------------------------------- small things

    def schema(self, action: str) -> dict[str, dict[str, Any]]:
        if action not in self.schemas:
            described = api.describe(self.system, action)
            self.schemas[action] = {p["name"]: p for p in described["params"]}
        return self.schemas[action]

    def helper(self, helper_id: str) -> Any:
        return self.page.locator(f"#{helper_id}")

    def act(self, locator: Any, kind: str, value: Any = None) -> None:
        far = evaluate_one(locator, ACT, [kind, value])
        if far:
            self.tally.add("scrolls", far)

    def needed(self, locator: Any) -> None:
        """The game master reads this element now (a scroll if it is not in the window)."""
        self.act(locator, "see")

    def click(self, locator: Any) -> None:
        self.act(locator, "click")
        self.tally.add("clicks")

    def select(self, locator: Any, value: str) -> None:
        self.act(locator, "choose", value)
        self.tally.add("clicks")

    def type(self, locator: Any, value: str) -> None:
        self.act(locator, "type", value)
        self.tally.add("typed")

    def tick(self, locator: Any, value: bool) -> None:
        self.act(locator, "check", value)
        self.tally.add("clicks")

    def bar(self, css: str) -> Any:
        return self.page.locator(f".rw-fight-bar {css}")

    def open_tab(self, helper_id: str) -> None:
        """Open the tab the helper sits in, if it is not open."""
        helper = self.helper(helper_id)
        if evaluate_one(helper, "(h) => h.offsetParent !== null"):
            return
        index = next(i for i, t in enumerate(self.plan["tabs"]) if t["helper"] == helper_id)
        self.click(
            self.page.locator(".rw-workbench-tools .tabbed-set > .tabbed-labels > label").nth(index)
        )

    def press(
        self, button: Any, helper_id: str, read: bool = False, index: int | None = None
    ) -> dict[str, Any]:
        """Press a button that makes the helper answer (``read``: and read its headline, the
        result of a roll); → what the page shows of the answer (``detail``: the
        regelwerk:result event's). ``index``: no button – the page's answer of that number,
        which it made by itself (a `then` follow-up), waited for."""
        if index is None:
            answer = evaluate_one(button, PRESS, [helper_id, read])
            self.tally.add("clicks")
        else:
            answer = self.page.evaluate(AWAIT, [helper_id, index])
        assert "error" not in answer, f"{self.system} {helper_id}: no result – {answer['error']}"
        for far in answer["scrolls"]:
            self.tally.add("scrolls", far)
        assert answer["last"]["id"] == helper_id, (helper_id, answer["last"]["id"])
        return {**answer, "detail": answer["last"]["detail"]}

    # -------------------------------------------------------------- the checks

    def verify(self, what: str, said: Sequence[str] = ()) -> None:
        """The page against the mirror, after a step (see the module's docstring); ``said``:
        what the last step's name must say (the numbers a roll wrote)."""
        if not self.checks:
            return
        shown = self.page.evaluate(SNAPSHOT, self.system)
        mirror = self.mirror
        where = f"{self.system}, {what}"
        differs = differences(shown["fight"], mirror.state)
        assert not differs, f"{where}: the fight (page ≠ steps made): {differs}"
        steps = shown["journal"]["steps"] if shown["journal"] else []
        assert len(steps) == len(mirror.events), (
            f"{where}: {len(steps)} steps stored, the test made {len(mirror.events)}: "
            + " | ".join(s["label"] for s in steps[-5:])
        )
        kinds = [s["event"]["type"] for s in steps]
        assert kinds == [e["type"] for e in mirror.events], f"{where}: other steps than made"
        redo = shown["journal"]["redo"] if shown["journal"] else []
        assert len(redo) == len(mirror.undone), where
        # „Rückgängig“ names the last change (a choice of actor and target is passed over)
        changes = [s["label"] for s in steps if not _is_choice(s["event"])]
        last = changes[-1] if changes else None
        for words in said:
            assert last and words in last, f"{where}: the step „{last}“ does not say „{words}“"
        assert shown["undo"] == (
            f"Rückgängig: {last}" if last else "Nichts rückgängig zu machen"
        ), where
        count = len(steps)
        assert f"({count} {'Schritt' if count == 1 else 'Schritte'})" in shown["history"], where
        state = mirror.state
        assert shown["barActor"] == (state["actor"] or ""), where
        assert shown["barTarget"] == (state["target"] or ""), where
        names = mirror.names()
        assert [row["name"] for row in shown["rows"]] == names, where
        assert shown["positions"] == {n: mirror.positions.get(n, "–") for n in names}, where
        turns = state["turns"]
        if not self.plan["board"] and turns:
            now = turns[state["turn"]]
            expected_turn = f"{now['label']} – Zug {state['turn'] + 1} von {len(turns)}"
            assert shown["turn"] == expected_turn, (where, shown["turn"])
        columns = shown["head"][2:-1]  # Kämpfer, Position, <resources>, Zustand
        assert sorted(columns) == sorted(self.resources), (where, columns)
        for row in shown["rows"]:
            name = row["name"]
            record = state["fighters"].get(name) or {"stats": {}, "state": None}
            assert row["actor"] == (name == state["actor"]), f"{where}: „am Zug“ at {name}"
            assert row["target"] == (name == state["target"]), f"{where}: „Ziel“ at {name}"
            for column, key in self.resources.items():
                expected = _number(record["stats"].get(key))
                got = row["values"][f"{column} von {name}"]
                assert got == expected, (
                    f"{where}: {column} von {name} is {got!r}, expected {expected!r}"
                )
            zustand = (_down_state(record.get("state")) or {"zustand": "kampffähig"})["zustand"]
            assert row["stateLabel"] == f"Zustand von {name}"
            assert row["state"] == zustand, f"{where}: Zustand von {name}"

    # -------------------------------------------------------------- setting up the fight

    def start(self) -> None:
        self.tally.begin("Aufbau")
        if self.plan["board"]:
            self.start_tickleiste()
        else:
            self.roll_initiative()

    def roll_initiative(self) -> None:
        helper_id = self.plan["order"]
        helper = self.helper(helper_id)
        action = self.helpers[helper_id]["action"]
        lists = [p for p in self.schema(action).values() if p["type"] == "list"]
        assert len(lists) == 1, f"{self.system}: the initiative's list of fighters"
        rows, items = lists[0]["name"], {p["name"]: p for p in lists[0]["item"]}
        while helper.locator(".rw-row").count() < len(FIGHTERS):
            self.click(helper.locator(".rw-add"))
        while helper.locator(".rw-row").count() > len(FIGHTERS):
            self.click(helper.locator(".rw-row").last.locator(".rw-remove"))
        for index, name in enumerate(FIGHTERS):
            for key, param in items.items():
                if not param.get("required"):
                    continue
                if key == "name":
                    value = name
                elif param["type"] == "text":  # the other text of a fighter: his side
                    value = SIDE[name]
                elif param["type"] == "int":
                    value = str(_clip(param["default"] + OFFSET[name], param))
                else:
                    continue
                box = helper.locator(f"[data-path='{rows}.{index}.{key}']")
                if box.input_value() != value:
                    self.type(box, value)
        params = form_params(helper)
        detail = self.press(helper.locator(".rw-submit"), helper_id)["detail"]
        answer = api.run(self.system, action, params, seed=detail["seed"])
        assert answer["ok"], answer
        turns = turns_of(answer["result"])
        assert turns == turns_of(detail["result"]), f"{self.system}: the page's order ≠ CPython's"
        assert {t["name"] for t in turns} == set(FIGHTERS), turns
        sides = {
            str(f["name"]).strip(): f["seite"]
            for f in params[rows]
            if isinstance(f.get("seite"), str)
        }
        actor = turns[0]["name"]
        target = self.mirror.last_target(actor)
        # an initiative while an order stands begins the next round (fight-bar.js newOrder)
        state = self.mirror.state
        round_ = state["round"] + 1 if state["turns"] else 1
        event = {"type": "order", "turns": turns, "sides": sides, "actor": actor}
        self.mirror.record({**event, "target": target, "round": round_})
        self.verify("after the initiative")

    def start_tickleiste(self) -> None:
        board = self.helper(self.plan["board"])
        params = self.schema("tickleiste")
        for name in FIGHTERS:
            self.type(board.locator("[data-path='name']"), name)
            ini = str(_clip(params["ini"]["default"] + OFFSET[name] * 2, params["ini"]))
            self.type(board.locator("[data-path='ini']"), ini)
            self.tickleiste_command(
                board.get_by_role("button", name="Kämpfer hinzufügen"), f"{name} eingetragen"
            )
        self.tickleiste_command(
            board.get_by_role("button", name="Kampf beginnen (Initiative würfeln)"), "Kampfbeginn"
        )

    def tickleiste_command(self, button: Any, what: str) -> None:
        """A command of the Tickleiste: one step of the fight – the engine's board, its next
        actor „am Zug“ (with his last target) and, for an action, the acting fighter's own
        values (his Ticks, fields of ``subject: actor``) kept for him."""
        own = evaluate_one(button, OWN_VALUES)
        result = self.press(button, self.plan["board"])["detail"]["result"]
        event: dict[str, Any] = {
            "type": "board",
            "state": result.get("state"),
            "next": result.get("next") or None,
        }
        if own:
            event.update(own)
        self.mirror.record(event)
        self.verify(what, [f"Tickleiste: {result['event']}"] if result.get("event") else ())

    # -------------------------------------------------------------- one turn

    def opponent(self, actor: str) -> str | None:
        others = [n for n in (ENEMIES if actor in HEROES else HEROES) if not self.mirror.down(n)]
        if not others:
            return None
        return PARTNER[actor] if PARTNER[actor] in others else others[0]

    def choose_target(self, target: str) -> None:
        box = self.bar(".rw-fight-target")
        if box.input_value() == target:
            return
        self.select(box, target)
        self.mirror.choose(target=target)
        self.verify(f"{self.mirror.state['actor']} chooses {target}")

    def known(self, fighter: str, subject: str, action: str) -> dict[str, Any]:
        """What the fight knows of a fighter's values for a helper (fight.js knownValues)."""
        record = self.mirror.state["fighters"].get(fighter)
        if not record:
            return {}
        if subject == "target":
            return dict(record["stats"])
        return {**record["actions"].get(action, {}), **record["stats"]}

    def wanted(self, param: dict[str, Any], fighter: str) -> str | None:
        """The value a fighter has in a field the game master types for him, when nobody typed
        it yet: the schema's default moved a little; None for fields he leaves alone."""
        if param["type"] == "dice":
            return WEAPON[fighter]
        if param["type"] != "int" or (param["subject"] == "target" and param["default"] == 0):
            return None
        if param["subject"] == "actor" and not param.get("required"):
            return None
        if param.get("resource"):  # tough enough for three rounds – the weak one for two
            factor = 1.5 if fighter == WEAK else 2
            # a value the text gives no number for (Güte's LE, KE, AUS: blank-able, unknown
            # until typed) – the game master's own numbers
            base = param["default"] if param["default"] is not None else BLANK_RESOURCE
            return str(_clip(int(factor * base) + OFFSET[fighter], param))
        return str(_clip(param["default"] + OFFSET[fighter], param))

    def type_values(self, helper_id: str, carried: dict[str, Any]) -> None:
        """Type what the helper needs for this roll: the values of one roll it needs (see the
        module's docstring; no step – they are nobody's), then for the fighters chosen now
        each fighter's own values when the form does not show them (the first time).
        ``carried``: what a follow-up brought (left as it is)."""
        helper = self.helper(helper_id)
        action = self.helpers[helper_id]["action"]
        schema = self.schema(action)
        state = self.mirror.state
        if helper_id not in self.entered:
            self.enter_per_roll(helper, schema, carried)
            self.entered.add(helper_id)
        for subject in ("actor", "target"):
            fighter = state[subject]
            if not fighter:
                continue
            known = self.known(fighter, subject, action)
            touched = False
            visible = {f["path"]: f for f in evaluate_one(helper, VISIBLE)}
            for name, param in schema.items():
                if param.get("subject") != subject or param.get("advanced") or name in carried:
                    continue
                if name not in visible or param["type"] not in ("int", "dice"):
                    continue  # choices, switches and names: the situation, or filled by the page
                box = helper.locator(f".rw-form [data-path='{name}']")
                value = _number(known[name]) if name in known else self.wanted(param, fighter)
                if value is None or visible[name]["value"] == value:
                    continue
                key = (fighter, helper_id, name)
                if self.checks:
                    assert key not in self.typed_for, (
                        f"{self.system}: {name} of {fighter} in {helper_id} typed again – the "
                        f"page showed {visible[name]['value']!r} instead of {value!r}"
                    )
                self.typed_for.add(key)
                self.type(box, value)
                self.expect_typed(fighter, subject, action, name, value)
                touched = True
            if touched:
                self.verify(f"{fighter}'s values typed in {helper_id}")

    def enter_per_roll(
        self, helper: Any, schema: dict[str, dict[str, Any]], carried: dict[str, Any]
    ) -> None:
        """The values of one roll (``per_roll``): each shows its default (the page reset it
        after the last roll); a switch that opens other values of the roll is set by the dice
        at the table, a number the roll needs (required, or not 0 by default) entered anew."""
        opens = {key for p in schema.values() for key in (p.get("when") or {})}
        opens |= {p["required_when"]["field"] for p in schema.values() if p.get("required_when")}
        visible = {f["path"]: f for f in evaluate_one(helper, VISIBLE)}
        for name, param in schema.items():
            if not param.get("per_roll") or param.get("advanced") or name in carried:
                continue
            if name not in visible:
                continue
            shown = visible[name]["value"]
            if self.checks:
                default = param.get("default")
                expected = default if param["type"] == "bool" else _number(default)
                assert shown == expected, (
                    f"{self.system}: {name} (a value of one roll) shows {shown!r} before this "
                    f"roll, not its default {expected!r}"
                )
            box = helper.locator(f".rw-form [data-path='{name}']")
            if param["type"] == "bool":
                if name not in opens and not param.get("required"):
                    continue
                ticked = self.rng.random() < 0.5
                if shown != ticked:
                    self.tick(box, ticked)
                    # it may show or hide other fields
                    visible = {f["path"]: f for f in evaluate_one(helper, VISIBLE)}
            elif param["type"] == "int":
                needed = param.get("required") or param.get("required_when")
                if not needed and not param.get("default"):
                    continue
                value = str(_clip(int(param.get("default") or 0) + self.rng.randint(-2, 4), param))
                self.type(box, value)  # the same number again is typed all the same

    def expect_typed(self, fighter: str, subject: str, action: str, name: str, value: Any) -> None:
        """A value typed into a fighter's field is his at once, as a step (fight.js keepTyped)."""
        event: dict[str, Any] = {"type": "values", "fighter": fighter, "values": {name: value}}
        if subject == "actor":
            event["action"] = action
        self.mirror.record(event)

    def roll(
        self,
        helper_id: str,
        what: str,
        seed: int | None = None,
        button: Any = None,
        awaited: int | None = None,
    ) -> dict[str, Any]:
        """„Würfeln“ (or ``button``: a follow-up's „…: würfeln“ that fills and rolls in one
        click): the roll's consequence for the fight, as CPython's engine answers the same
        request (the form's values – for ``button`` the values the engine was sent, its
        answer's ``params`` – and the result's Wurfnummer)."""
        helper = self.helper(helper_id)
        action = self.helpers[helper_id]["action"]
        if seed is not None:
            if not evaluate_one(helper.locator("details.rw-advanced").first, "(d) => d.open"):
                self.click(helper.locator("details.rw-advanced > summary").first)
            self.type(helper.locator("[data-type='seed']"), str(seed))
        form = evaluate_one(helper, FORM)
        pressed = self.press(
            button if button is not None else helper.locator(".rw-submit"),
            helper_id,
            read=True,
            index=awaited,
        )
        self.answered = pressed["index"]
        self.entered.discard(helper_id)  # the page puts them back to their defaults
        detail = pressed["detail"]
        # a result without dice shows no Wurfnummer (results.js hasDice)
        rolled = any(
            item.get("dice")
            for section in detail["result"]["display"]["sections"]
            if section.get("kind") == "rolls"
            for item in section.get("items") or []
        )
        seed_shown = f"Wurfnummer {detail['seed']}" if rolled else ""
        assert pressed["seedShown"] == seed_shown, (what, pressed["seedShown"])
        kept = pressed["values"]  # the fighters' values the fight keeps from this roll
        if seed is not None:
            assert str(detail["seed"]) == str(seed)
        if button is not None or awaited is not None:
            form = {**form, "params": detail["params"]}
        answer = api.run(self.system, action, form["params"], seed=detail["seed"])
        assert answer["ok"], answer
        result = answer["result"]
        if self.checks:
            assert pressed["seedLeft"] == "", f"{what}: the Wurfnummer stays after the roll (B1)"
            assert result.get("target_update") == detail["result"].get("target_update"), what
            assert result.get("target_state") == detail["result"].get("target_state"), what
        state = self.mirror.state
        update = (
            result.get("target_update") if isinstance(result.get("target_update"), dict) else None
        )
        actor = state["actor"] if state["actor"] and form["hasActor"] else None
        target = state["target"] if state["target"] and (form["hasTarget"] or update) else None
        said: list[str] = []
        if update and target:
            # what the roll writes, said with the value before, in the order of the system's
            # life values (fight/rolls.js changesText)
            record = state["fighters"].get(target) or {"stats": {}}
            before = {**record["stats"], **kept["target"]}
            names = {key: name for name, key in self.resources.items()}
            order = list(names)
            ranked = sorted(update, key=lambda k: order.index(k) if k in order else len(order))
            for key, value in ((k, update[k]) for k in ranked):
                was = _number(before.get(key))
                step = f"{was} → " if was not in ("", _number(value)) else ""
                said.append(f"{names.get(key, key)} {step}{_number(value)}")
        made = False
        if actor or target:
            made = self.mirror.record(
                {
                    "type": "roll",
                    "action": action,
                    "actor": actor,
                    "target": target,
                    "actorValues": kept["actor"],
                    "targetValues": kept["target"],
                    "update": update if state["target"] else None,
                    "state": result.get("target_state") or None,
                }
            )
        if said:
            self.seen_damage += 1
            if self.checks:
                written = pressed["written"]
                assert written.startswith(f"Für {target} übernommen: {', '.join(said)}."), (
                    what,
                    written,
                )
        self.log.append(f"{what}: {helper_id} Wurfnummer {detail['seed']}")
        then = next((i for i in result.get("follow_ups") or [] if i.get("then")), None)
        if then and self.rolled_by_itself(self.shown(helper_id), {"item": then}):
            return dict(result)  # the page goes on by itself: checked after that roll
        self.verify(what, said if made else ())
        return dict(result)

    def damage_step(self, result: dict[str, Any], direct: bool = False) -> dict[str, Any] | None:
        """The next roll the rules ask for on the way to the target's life values: among the
        result's follow-ups, up to the first one to a helper with resource fields (the damage),
        the first whose helper has fields of the target – DSA's attack offers the parade before
        the damage („Abwehr des Ziels würfeln“, 001 „Abwehraktionen“), and only its failure goes
        on to the damage; a result with no follow-up to the damage leaves the chain. ``direct``:
        the damage itself (the parade failed at the table)."""
        by_action = {h["action"]: h for h in self.plan["helpers"]}
        items = [
            i
            for i in result.get("follow_ups") or []
            if not i.get("fighter") and not i.get("other_target") and i.get("action") in by_action
        ]
        last = next((n for n, i in enumerate(items) if by_action[i["action"]]["resources"]), None)
        if last is None:
            return None
        for item in items[last:] if direct else items[: last + 1]:
            helper = by_action[item["action"]]
            if helper["resources"] or helper["targets"]:
                return {"item": item, "helper": helper["id"]}
        return None

    def attack(self, target: str, what: str, seed: int | None = None, direct: bool = False) -> None:
        """An attack on ``target`` and the rolls that follow it by the rules (the parade, the
        damage), each in one click where the fight knows every value it needs (``direct``: on
        to the damage at once)."""
        self.where = what
        self.choose_target(target)
        self.open_tab(self.attack_id)
        self.type_values(self.attack_id, {})
        result = self.roll(self.attack_id, f"{what}: Angriff", seed)
        shown = self.helper(self.attack_id)
        for _ in range(3):
            follow = self.damage_step(result, direct)
            if not follow:
                return
            if follow["item"].get("then") and self.rolled_by_itself(shown, follow):
                # the rules leave nothing to decide: the page rolled it right after (no click)
                result = self.roll(
                    follow["helper"],
                    f"{what}: {follow['item']['title']} (von selbst)",
                    awaited=self.answered + 1,
                )
            else:
                result = self.follow(shown, follow, what)
            shown = self.shown(follow["helper"])

    def rolled_by_itself(self, shown: Any, follow: dict[str, Any]) -> bool:
        """Did the page roll a `then` follow-up by itself (fight/follow-ups.js rollThen: after a
        one-tap roll, every value known)? Its chain says so instead of offering buttons."""
        note = f"{follow['item']['title']} – gleich gewürfelt."
        return bool(shown.get_by_text(note, exact=False).count())

    def shown(self, helper_id: str) -> Any:
        """Where the game master sees the last roll of a helper: the helper, or – rolled by a
        one-tap follow-up while its helper is in another tab – the last link of the chain below
        the result it followed (fight/rolls.js)."""
        helper = self.helper(helper_id)
        if evaluate_one(helper, "(h) => h.offsetParent !== null"):
            return helper
        return self.page.locator(f".rw-chain-step[data-from='{helper_id}']").last

    def follow(self, shown: Any, follow: dict[str, Any], what: str) -> dict[str, Any]:
        """A follow-up of the result ``shown`` rolled: „…: würfeln ⚄“ where offered (every value
        known: one click), else „… ▸“, the values typed and „Würfeln“."""
        item = follow["item"]
        quick = shown.get_by_role("button", name=f"{item['title']}: würfeln ⚄", exact=True)
        if quick.count():
            return self.roll(
                follow["helper"], f"{what}: {item['title']} (gleich gewürfelt)", button=quick
            )
        self.click(shown.get_by_role("button", name=f"{item['title']} ▸"))
        self.helper(follow["helper"]).locator(".rw-submit").wait_for()
        # the follow-up fills the next helper; the fight itself is not changed by it (no step)
        self.verify(f"{what}: {item['title']} geöffnet")
        if self.check_follow_ups:
            self.check_carried(follow["helper"], item)
        self.type_values(follow["helper"], item.get("params") or {})
        return self.roll(follow["helper"], f"{what}: {item['title']}")

    def check_carried(self, helper_id: str, item: dict[str, Any]) -> None:
        """The follow-up brings the rolled values on (the TP of this attack), except where the
        fight knows the target's own value (B2: his RS)."""
        helper = self.helper(helper_id)
        action = self.helpers[helper_id]["action"]
        schema = self.schema(action)
        known = self.known(self.mirror.state["target"] or "", "target", action)
        for name, value in (item.get("params") or {}).items():
            param = schema.get(name)
            if not param or (param.get("subject") == "target" and name in known):
                continue
            got = helper.locator(f".rw-form [data-path='{name}']")
            shown = got.is_checked() if param["type"] == "bool" else got.input_value()
            expected = value if param["type"] == "bool" else _number(value)
            if shown != expected:
                self.carried.append(
                    f"{self.system}, {self.where}: „{item['title']} ▸“ should carry {name} = "
                    f"{expected!r} of this attack, the form shows {shown!r}"
                )

    def pass_turn(self) -> None:
        """On to the next fighter: „Weiter ▶“, or the action on the Tickleiste."""
        if self.plan["board"]:
            board = self.helper(self.plan["board"])
            actor = self.mirror.state["actor"]
            chosen = board.locator("select[data-path='fighter']")
            if chosen.input_value() != actor:
                self.select(chosen, actor)  # the board's choice is the fight's (fight-bar.js)
                self.mirror.choose(actor)
                self.verify(f"{actor} chosen on the Tickleiste")
            ticks = board.locator("[data-path='ticks']")
            if ticks.input_value() != TICKS[actor]:
                key = (actor, self.plan["board"], "ticks")
                if self.checks:
                    assert key not in self.typed_for, (
                        f"{self.system}: the Ticks of {actor} typed again – the Tickleiste "
                        f"showed {ticks.input_value()!r} instead of {TICKS[actor]!r}"
                    )
                self.typed_for.add(key)
                self.type(ticks, TICKS[actor])
            self.tickleiste_command(
                board.get_by_role("button", name="Handlung ausführen"), f"{actor} handelt"
            )
            return
        self.click(self.bar(".rw-fight-next"))
        self.mirror.step(1)
        self.verify("Weiter")

    def turn(self, what: str) -> None:
        actor = self.mirror.state["actor"]
        assert actor, f"{self.system}: nobody „am Zug“"
        target = self.opponent(actor)
        self.tally.add("turns")
        if target and not self.mirror.down(actor):
            self.tally.add("attacks")
            self.attack(target, f"{what} {actor} → {target}")
        self.pass_turn()

    # -------------------------------------------------------------- the trouble of round 2

    def reload(self) -> None:
        """A reload keeps the fight: the same steps, the same numbers."""
        self.page.reload()
        wait_engine_ready(self.page)
        self.page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
        self.page.evaluate(HOOK)
        self.page.evaluate(DICE, None)
        self.page.locator(".rw-fight-bar").wait_for()
        self.verify("after the reload")

    def wrong_click(self) -> None:
        """The actor's ally chosen as the target and hit (with a Wurfnummer that reaches the
        damage, found on CPython), then „↶ Rückgängig“ until every number is back: it takes
        back the changes (the values typed, the rolls) and, with the first of them, the choice
        of the ally they were made with – the next „Würfeln“ does not hit him again (issue #48,
        Deliver 4)."""
        actor = self.mirror.state["actor"]
        ally = next(n for n in (HEROES if actor in HEROES else ENEMIES) if n != actor)
        typed = set(self.typed_for)
        snapshot, made = copy.deepcopy(self.mirror.state), self.mirror.changes()
        self.choose_target(ally)
        chosen = copy.deepcopy(self.mirror.state)
        self.open_tab(self.attack_id)
        self.type_values(self.attack_id, {})
        params = form_params(self.helper(self.attack_id))
        # a Wurfnummer with which the attack writes a life value of the ally; where none does
        # (Ryssea keeps them by hand; Güte's hit follows the probes typed for this roll) the
        # wrong click changes what it changes
        found = (
            next((s for s in range(1, 300) if self.reaches_damage(params, s)), None)
            if self.written
            else None
        )
        seed = found if found is not None else 1
        self.attack(ally, f"falscher Klick {actor} → {ally}", seed, direct=True)
        steps = self.mirror.changes() - made
        hit = self.mirror.state["fighters"].get(ally, {}).get("stats", {})
        was = snapshot["fighters"].get(ally, {}).get("stats", {})
        changed = [k for k in self.resources.values() if hit.get(k) != was.get(k)]
        assert changed or found is None, f"{self.system}: the wrong click changed no number"
        undo = self.bar(".rw-fight-undo")
        for _ in range(steps):
            self.click(undo)
            self.mirror.undo()
            self.verify("Rückgängig")
        # nothing changed (a system whose attack writes no value of the target): nothing to
        # take back, the choice of the ally stands
        assert self.mirror.state == (snapshot if steps else chosen)
        if steps:
            assert self.mirror.state["target"] != ally, f"{self.system}: the ally is the target"
        self.typed_for = typed  # what the steps taken back knew is gone with them
        if self.checks and steps:
            redo = self.bar(".rw-fight-redo").get_attribute("title") or ""
            assert redo.startswith("Wiederherstellen: "), redo

    def damage_follow_up_of(self, params: dict[str, Any], seed: int) -> dict[str, Any]:
        """What the damage follow-up of the attack with this Wurfnummer carries ({} if none)."""
        result = api.run(self.system, self.attack_action, params, seed=seed)["result"]
        follow = self.damage_step(result, direct=True)
        return dict(follow["item"].get("params") or {}) if follow else {}

    def carried_differs(self, params: dict[str, Any], seed: int, earlier: dict[str, Any]) -> bool:
        """This Wurfnummer's attack goes on to the damage with other rolled values than
        ``earlier`` (any field the fight does not keep for the target)."""
        carried = self.damage_follow_up_of(params, seed)
        if not carried:
            return False
        action = self.helpers[self.damage_helper()]["action"]
        schema = self.schema(action)
        rolled = [k for k in carried if schema.get(k, {}).get("subject") != "target"]
        return not earlier or any(carried[k] != earlier.get(k) for k in rolled)

    def damage_helper(self) -> str:
        return str(
            next(
                h["id"]
                for h in self.plan["helpers"]
                if h["resources"] and h["id"] != self.attack_id
            )
        )

    def heal(self) -> None:
        """A correction in the overview: the first hero drinks a potion, +2 on the first
        resource the fight knows of him – a checked step „… (von Hand)“ with the state the
        engine's rule gives for the new value (one function for rolls and the overview)."""
        hero = HEROES[0]
        record = self.mirror.state["fighters"].get(hero) or {"stats": {}}
        known = [(c, k) for c, k in self.resources.items() if k in record["stats"]]
        if not known:
            return
        column, key = known[0]
        was = _number(record["stats"][key])
        value = int(was) + 2
        self.type(self.page.get_by_label(f"{column} von {hero}", exact=True), str(value))
        event: dict[str, Any] = {"type": "correct", "fighter": hero, "field": key, "value": value}
        contract = api.fight_contract(self.system)
        if contract["states"]:
            names = [v["name"] for v in contract["values"] + contract["reads"]]
            stats = {**record["stats"], key: value}
            state = api.fight_state(self.system, {n: stats[n] for n in names if n in stats})
            event["state"] = state or {"zustand": "kampffähig", "text": contract["fit"]["text"]}
        # the page asks the engine for the state first, then makes the step
        self.page.wait_for_function(
            "([system, hero, key, value]) => {"
            " const f = window.Regelwerk.fight(system).fighters[hero];"
            " return !!f && String(f.stats[key]) === String(value); }",
            arg=[self.system, hero, key, value],
            polling=50,
        )
        self.mirror.record(event)
        self.verify(f"{hero}: {column} von Hand", [f"{hero}: {column} {was} → {value} (von Hand)"])

    def reaches_damage(self, params: dict[str, Any], seed: int) -> bool:
        """With this Wurfnummer the attack changes a resource of the target or goes on to the
        damage."""
        if not self.written:
            return True
        result = api.run(self.system, self.attack_action, params, seed=seed)["result"]
        update = result.get("target_update") or {}
        hurt = any(str(v) != str(params.get(k)) for k, v in update.items())
        return bool(hurt or self.damage_step(result, direct=True))

    # -------------------------------------------------------------- the whole fight

    def play(self) -> Tally:
        """The fight; a round is the acting order once through (an initiative: until it
        begins again) or, on the Tickleiste, as many actions as there are fighters."""
        self.start()
        for number in range(ROUNDS):
            self.tally.begin(f"Runde {number + 1}")
            done = 0
            while True:
                if number == TROUBLE_ROUND and done == 1:
                    self.reload()
                    self.wrong_click()
                    self.heal()
                before = self.mirror.state["turn"]
                self.turn(f"Runde {number + 1}")
                done += 1
                if self.plan["board"]:
                    if done == len(FIGHTERS):
                        break
                elif self.mirror.state["turn"] <= before:
                    break
        return self.tally


# ------------------------------------------------------------------ a stored fight

ORDER_NAMES = ("Alrik", "Ork", "Bruna")


def journal_with_order(sides: dict[str, str] | None = None) -> str:
    """A stored fight (fight-journal.js, version 2) whose acting order is ORDER_NAMES (``sides``:
    a side per fighter, as DSA's initiative writes it)."""
    turns = [{"name": n, "label": f"Platz {i + 1}"} for i, n in enumerate(ORDER_NAMES)]
    fighters: dict[str, dict[str, Any]] = {
        name: {"actions": {}, "stats": {}, "state": None, "side": side}
        for name, side in (sides or {}).items()
    }
    base = {
        "fighters": fighters,
        "actor": ORDER_NAMES[0],
        "target": None,
        "turns": turns,
        "turn": 0,
        "round": 1,
        "board": None,
    }
    return json.dumps({"version": 2, "base": base, "steps": [], "redo": []})
