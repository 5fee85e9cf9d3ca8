"""Accessibility checks run in the page: axe-core (injected, never shipped) and our own
measurements of what axe does not measure (borders of controls, focus rings).

Shared by ``test_accessibility.py`` and ``test_keyboard.py``. axe-core comes from the pinned
npm devDependency (``node_modules/axe-core``); the site never loads it. Both it and the
helpers in ``a11y.js`` are injected with ``page.evaluate`` (the pages' Content Security
Policy blocks ``add_script_tag``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

AXE_SOURCE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
HELPERS = Path(__file__).with_name("a11y.js")
SERIOUS = ("serious", "critical")
# The axe rules whose verdict depends on colours: text contrast, and links told apart from
# the text around them by colour alone. Material's palette toggle changes colours only (a
# data attribute on <body>, the same DOM), so a second colour scheme needs no other rule.
COLOUR_RULES = ("color-contrast", "link-in-text-block")

# The palette toggle in Material's header: its radio input for the scheme checked and changed,
# as the toggle's label does (Material's palette listens to the input's change event and keeps
# the choice in localStorage, so every later page of the visit has it). Not a click: a click
# on the page closes an open dice popover, as a click outside it does, and the state checked
# in the other scheme must stay as it is.
SET_SCHEME = """(scheme) => {
  if (document.body.getAttribute("data-md-color-scheme") === scheme) return;
  const input = [...document.querySelectorAll("input[name='__palette']")]
    .find((i) => i.getAttribute("data-md-color-scheme") === scheme);
  input.checked = true;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}"""
# Material marks the body while it switches (no transitions then) and unmarks it a frame
# later: the colours are final once the mark is gone.
SCHEME_SET = """(s) => document.body.getAttribute('data-md-color-scheme') === s
  && !document.body.hasAttribute('data-md-color-switching')"""


def inject(page: Any) -> None:
    """axe-core and the helpers, once per loaded document (instant navigation keeps the
    window, so later pages of the visit have them already)."""
    if not page.evaluate("() => Boolean(window.axe && window.__rwA11y)"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
        page.evaluate(HELPERS.read_text(encoding="utf-8"))


def set_scheme(page: Any, scheme: str) -> None:
    page.evaluate(SET_SCHEME, scheme)
    page.wait_for_function(SCHEME_SET, arg=scheme, polling=50)


@dataclass
class Findings:
    """What axe and the contrast checks found on one page state."""

    state: str
    violations: list[dict[str, Any]] = field(default_factory=list)
    weak_controls: list[dict[str, Any]] = field(default_factory=list)
    darkest_text: dict[str, Any] | None = None
    weakest_control: dict[str, Any] | None = None

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [v for v in self.violations if v["ours"] and v["impact"] in SERIOUS]


def check(page: Any, state: str, colours_only: bool = False) -> Findings:
    """axe-core (all its rules, or with ``colours_only`` those that depend on colours) and
    our contrast measurements on the page as it is."""
    inject(page)
    found = Findings(state)
    rules = list(COLOUR_RULES) if colours_only else None
    found.violations = page.evaluate("(rules) => window.__rwA11y.axe(rules)", rules)
    controls = page.evaluate("() => window.__rwA11y.nonText()")
    found.weak_controls = [c for c in controls if c["ratio"] < 3]
    found.weakest_control = min(controls, key=lambda c: float(c["ratio"]), default=None)
    found.darkest_text = page.evaluate("() => window.__rwA11y.darkestText()")
    return found


def focus_state(page: Any) -> dict[str, Any]:
    inject(page)
    return dict(page.evaluate("() => window.__rwA11y.focus()"))
