"""Turn dice expressions in the rule text ("1W6+1", "2W10", "W20") into roll buttons.

The visible text stays exactly as written; only a ``<button>`` is put around it. Code,
headings, links, form controls and the roll helpers themselves are left alone.
"""

from __future__ import annotations

import re
from html import escape

from engine import dice
from engine.errors import EngineError

TAG = re.compile(r"(<[^>]+>)")
TAG_NAME = re.compile(r"</?\s*([a-zA-Z0-9]+)")
NOTATION = re.compile(
    r"(?<![\w/])"
    r"(\d{0,3}[Ww]\d{1,4}(?:\s?[+\-−]\s?\d{0,3}[Ww]\d{1,4})*(?:\s?[+\-−]\s?\d{1,4}(?![\w]))?)"
    r"(?![\w])"
)
SKIP = {
    "code",
    "pre",
    "a",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "script",
    "style",
    "button",
    "label",
    "textarea",
    "select",
    "option",
    "summary",
    "title",
}
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "source", "col", "area"}


def _button(text: str, system: str, vorteil: bool) -> str:
    try:
        notation = dice.parse(text).notation()
    except EngineError:
        return text  # already HTML text; leave what the engine cannot roll as it is
    hint = " – Umschalt-Klick: mit Vorteil, Strg-Klick: mit Nachteil" if vorteil else ""
    return (
        f'<button type="button" class="rw-dice" data-notation="{escape(notation)}" '
        f'data-system="{escape(system)}"{" data-vorteil" if vorteil else ""} '
        f'aria-haspopup="dialog" title="{escape(notation)} würfeln{hint}">{text}</button>'
    )


def link_dice(html: str, system: str, vorteil: bool) -> str:
    """Wrap every dice expression outside the skipped elements in a roll button."""
    out: list[str] = []
    skip_depth = 0
    in_helper = False  # inside a roll helper (a <section class="rw-helper …">)
    for part in TAG.split(html):
        if not part:
            continue
        if part.startswith("<"):
            match = TAG_NAME.match(part)
            name = match.group(1).lower() if match else ""
            closing = part.startswith("</")
            self_closing = part.endswith("/>") or name in VOID
            if in_helper:
                in_helper = not (name == "section" and closing)
            elif name == "section" and 'class="rw-helper' in part:
                in_helper = True
            elif name in SKIP and not self_closing:
                skip_depth += -1 if closing else 1
                skip_depth = max(skip_depth, 0)
            out.append(part)
            continue
        if skip_depth or in_helper:
            out.append(part)
            continue
        out.append(NOTATION.sub(lambda m: _button(m.group(1), system, vorteil), part))
    return "".join(out)
