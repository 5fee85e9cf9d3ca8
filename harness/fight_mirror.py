"""The fight a test expects, kept by the page's own code run in Node (``fight_reducer.mjs``:
fight/store.js with its journal and its one reducer, fight/roster.js) – the tests keep no copy of
the reducer (issue #48, Deliver 3). A test feeds it the steps it makes on the page, as the page
would make them, and compares the page with what it answers.

    mirror = Mirror("dsa", has_board=False)
    mirror.record({"type": "order", …}); mirror.choose(target="Ork"); mirror.step(1); mirror.undo()
    mirror.state, mirror.events, mirror.undone, mirror.names(), mirror.positions, mirror.down("Ork")
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).with_name("fight_reducer.mjs")
UNSET: Any = object()


class Mirror:
    """One fight in a Node process of its own (closed with :meth:`close` or at exit)."""

    def __init__(self, system: str, *, has_board: bool) -> None:
        self.process = subprocess.Popen(
            ["node", str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.answer: dict[str, Any] = {}
        self.passed: list[str] = []
        self._ask({"op": "start", "system": system, "hasBoard": has_board})

    def _ask(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(command, ensure_ascii=False) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        assert answer.get("ok"), f"fight_reducer.mjs: {answer.get('error')}"
        self.answer = answer
        return dict(answer)

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin
            self.process.stdin.close()
            self.process.wait(timeout=10)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # the interpreter may be going away
            self.close()

    # -------------------------------------------------------------- what the store holds

    @property
    def state(self) -> dict[str, Any]:
        return dict(self.answer["state"])

    @property
    def events(self) -> list[dict[str, Any]]:
        return [step["event"] for step in self.answer["journal"]["steps"]]

    @property
    def labels(self) -> list[str]:
        return [step["label"] for step in self.answer["journal"]["steps"]]

    @property
    def undone(self) -> list[dict[str, Any]]:
        return list(self.answer["journal"]["redo"])

    def changes(self) -> int:
        return sum(1 for event in self.events if event["type"] != "choose")

    def names(self) -> list[str]:
        return list(self.answer["names"])

    @property
    def positions(self) -> dict[str, str]:
        return dict(self.answer["positions"])

    def down(self, name: str) -> bool:
        return name in self.answer["unable"]

    def last_target(self, actor: str | None) -> str | None:
        record = self.state["fighters"].get(actor) if actor else None
        last = record.get("lastTarget") if record else None
        ok = isinstance(last, str) and last != actor and last in self.names()
        return last if ok else None

    # -------------------------------------------------------------- the steps

    def record(self, event: dict[str, Any], label: str = "") -> bool:
        return bool(self._ask({"op": "record", "event": event, "label": label})["changed"])

    def choose(self, actor: Any = UNSET, target: Any = UNSET) -> bool:
        command: dict[str, Any] = {"op": "choose"}
        if actor is not UNSET:
            command["actor"] = actor
        if target is not UNSET:
            command["target"] = target
        return bool(self._ask(command)["changed"])

    def step(self, by: int = 1) -> bool:
        answer = self._ask({"op": "step", "by": by})
        self.passed = list(answer.get("passed") or [])
        return bool(answer["changed"])

    def undo(self) -> str:
        step = self._ask({"op": "undo"})["step"]
        assert step, "nothing to undo"
        return str(step["label"])
