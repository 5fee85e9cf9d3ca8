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


# The web app's footer line and notice as pwa.js makes them from its service worker's status
# messages (the same listener, navigator.serviceWorker's "message"), without the worker
# itself: a real one would fetch the whole site (24 MB) into the test's context, a third of
# its CPU time (conftest.Browsers). ``filling`` first: a worker that has just filled its cache
# reports it so, and pwa.js then also shows its „Offline bereit“ notice.
OFFLINE_STATUS = """(filling) => {
  const status = (complete) => ({
    complete, filling: !complete, texts: complete, error: "",
    core: { files: 40, cached: 40, bytes: 19e6, cachedBytes: 19e6 },
    pages: { files: 60, cached: complete ? 60 : 10, bytes: 6e6, cachedBytes: complete ? 6e6 : 1e6 },
    runtime: { files: 12, cached: complete ? 12 : 0, bytes: 1e7, cachedBytes: complete ? 1e7 : 0 },
  });
  for (const complete of filling ? [false, true] : [true]) {
    navigator.serviceWorker.dispatchEvent(new MessageEvent("message",
      { data: { type: "regelwerk-offline", status: status(complete) } }));
  }
  return document.querySelector(".rw-pwa-status")?.textContent || "";
}"""


def show_offline_status(page: Any, notice: bool = False) -> None:
    """The footer line „Offline bereit · … gespeichert“ (on every later page of the visit
    too: pwa.js renders it for each page), with ``notice`` also the notice that comes once
    the worker has filled its cache."""
    line = page.evaluate(OFFLINE_STATUS, notice)
    assert line.startswith("Offline bereit"), line


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


def check(page: Any, state: str, colours_only: bool = False, darkest: bool = True) -> Findings:
    """axe-core (all its rules, or with ``colours_only`` those that depend on colours) and
    our contrast measurements on the page as it is; ``darkest``: also name the darkest text
    pair of ours (for the report only: once per page state and scheme is enough)."""
    inject(page)
    found = Findings(state)
    rules = list(COLOUR_RULES) if colours_only else None
    found.violations = page.evaluate("(rules) => window.__rwA11y.axe(rules)", rules)
    controls = page.evaluate("() => window.__rwA11y.nonText()")
    found.weak_controls = [c for c in controls if c["ratio"] < 3]
    found.weakest_control = min(controls, key=lambda c: float(c["ratio"]), default=None)
    if darkest:
        found.darkest_text = page.evaluate("() => window.__rwA11y.darkestText()")
    return found


def focus_state(page: Any) -> dict[str, Any]:
    inject(page)
    return dict(page.evaluate("() => window.__rwA11y.focus()"))
