"""Render a roll helper's form from the engine's parameter schema (``engine.describe``).

The schema is the only place a field is defined: labels, limits, defaults and help texts
come from it, so the form, the CLI and the engine's validation cannot drift apart.
"""

from __future__ import annotations

import functools
import json
import re
from html import escape
from typing import Any

import pyphen

import engine
from engine.data_files import load

ROW_INDEX = "__i__"


# German hyphenation points (LibreOffice's patterns, PyPI pyphen) for labels in narrow
# fields: Chromium without a German dictionary would break „Verteidigungswer|t“ anywhere;
# with soft hyphens every browser breaks „Vertei-digungswert“ the same way. Two letters at
# least on either side of a break (German typesetting's usual minimums).
_HYPHENATOR = pyphen.Pyphen(lang="de_DE", left=2, right=2)
_LONG_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{9,}")
_VOWEL = re.compile(r"[AEIOUYÄÖÜaeiouyäöü]")
# Compounds are split at their joints first, then each part at its syllables: the patterns
# alone read „Kampfrun-de“, „Tal-entwert“, „Streiftref-fer“. A declared word that starts a
# label's compound („Talent|wert“); the rest must be a word of its own (three letters at least).
COMPOUND_HEADS = ("Kampf", "Schadens", "Streif", "Talent", "Würfel", "Zusammen")
_MIN_TAIL = 3


def _parts(word: str) -> list[str]:
    """``word`` split at the joints of the declared compound heads (left to right)."""
    lower = word.lower()
    for head in COMPOUND_HEADS:
        tail = word[len(head) :]
        if lower.startswith(head.lower()) and len(tail) >= _MIN_TAIL and _VOWEL.search(tail):
            return [word[: len(head)], *_parts(tail)]
    return [word]


def syllables(word: str) -> list[str]:
    """``word`` in the pieces between its break points: compound joints, then pyphen's
    syllables within each part. The patterns split some words inside a syllable
    („Scha-den-s-punk-te“, „glü-ck-lich“); a piece without a vowel or of one letter is never a
    syllable of its own, so it stays with the piece before it (the first with the next)."""
    pieces: list[str] = []
    for part in _parts(word):
        joined: list[str] = []
        for piece in _HYPHENATOR.inserted(part, hyphen="\u00ad").split("\u00ad"):
            if joined and (len(piece) < 2 or not _VOWEL.search(piece)):
                joined[-1] += piece
            else:
                joined.append(piece)
        if len(joined) > 1 and (len(joined[0]) < 2 or not _VOWEL.search(joined[0])):
            joined[:2] = [joined[0] + joined[1]]
        pieces.extend(joined)
    return pieces


def label_text(text: str) -> str:
    """``text`` escaped for HTML, long words with soft hyphens (U+00AD) at their syllables."""
    return _LONG_WORD.sub(lambda m: "\u00ad".join(syllables(m.group(0))), escape(text))


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _field_id(helper_id: str, path: str) -> str:
    return f"{helper_id}-{path.replace('.', '-')}"


def _input(helper_id: str, field: dict[str, Any], path: str, value: Any) -> str:
    fid = _field_id(helper_id, path)
    err = f"{fid}-fehler"
    hint = f"{fid}-hilfe"
    described = f"{hint} {err}" if field.get("help") else err
    common = (
        f'id="{_attr(fid)}" data-path="{_attr(path)}" data-type="{_attr(field["type"])}" '
        f'aria-describedby="{_attr(described)}"'
    )
    kind = field["type"]
    if kind == "bool":
        control = (
            f'<input type="checkbox" {common}{" checked" if value else ""}>'
            f'<label for="{_attr(fid)}">{label_text(field["label"])}</label>'
        )
        label_html = ""
    else:
        label_html = f'<label for="{_attr(fid)}">{label_text(field["label"])}</label>'
        if kind == "int":
            # a blank-able field (``blank``) starts empty when nobody knows its value
            shown = "" if value is None else value
            control = (
                f'<input type="text" inputmode="numeric" autocomplete="off" {common} '
                f'value="{_attr(shown)}" size="4">'
            )
        elif kind == "choice":
            options = "".join(
                f'<option value="{_attr(c["value"])}"'
                f"{' selected' if c['value'] == value else ''}>{escape(c['label'])}</option>"
                for c in field["choices"]
            )
            control = f"<select {common}>{options}</select>"
        else:
            control = (
                f'<input type="text" autocomplete="off" {common} value="{_attr(value)}" '
                f'maxlength="{_attr(field.get("max_length", 40))}">'
            )
    # help: a screen reader reads it with the field (aria-describedby); on screen it opens
    # with the „?“ next to the label – never by focus alone, which would move the layout
    # under a pointer that is about to click
    help_html = toggle = ""
    if field.get("help"):
        text = escape(field["help"])
        help_html = f'<span class="rw-help" id="{_attr(hint)}" hidden>{text}</span>'
        toggle = (
            f'<button type="button" class="rw-help-toggle" aria-expanded="false" '
            f'aria-controls="{_attr(hint)}" aria-label="Hilfe zu {_attr(field["label"])}">?'
            "</button>"
        )
    if kind == "bool":
        control += toggle
    else:
        label_html = f'<span class="rw-label-row">{label_html}{toggle}</span>'
    return (
        f'<div class="rw-field rw-field--{_attr(kind)}"{_hints(field)}>{label_html}{control}'
        f'{help_html}<span class="rw-field-error" id="{_attr(err)}" hidden></span></div>'
    )


def _hints(field: dict[str, Any]) -> str:
    """The schema's hints for the browser: whose value a field is (``subject``: the acting
    fighter or the target, for connected helpers), whether it belongs to one roll only
    (``per_roll``: page.js puts it back to its default after the roll, remember.js does not
    keep it), when it applies (``when``: the form hides and does not send it otherwise),
    whether a result changes it (``resource``), whether it may stay empty (``blank``: an
    unknown value, sent as empty, never 0) and which condition of the actor or the target it
    stands for (``condition``: ``data-condition`` with ``data-condition-of``; a choice maps its
    values in ``data-condition-choices``)."""
    out = ""
    if field.get("subject"):
        out += f' data-subject="{_attr(field["subject"])}"'
    if field.get("per_roll"):
        out += " data-per-roll"
    if field.get("when"):
        out += f' data-when="{_attr(json.dumps(field["when"], ensure_ascii=False))}"'
    if field.get("resource"):
        out += f' data-resource="{_attr(field.get("resource_name", ""))}"'
    if field.get("blank"):
        out += " data-blank"
    condition = field.get("condition")
    if condition:  # the condition of the actor or target this field of the situation stands for
        if "name" in condition:
            out += f' data-condition="{_attr(condition["name"])}"'
        else:
            choices = json.dumps(condition["choices"], ensure_ascii=False)
            out += f' data-condition-choices="{_attr(choices)}"'
        out += f' data-condition-of="{_attr(condition["of"])}"'
    return out


def _row(helper_id: str, spec: dict[str, Any], index: str, values: dict[str, Any]) -> str:
    path = f"{spec['name']}.{index}"
    number = str(int(index) + 1) if index.isdigit() else ROW_INDEX
    fields = "".join(
        _input(helper_id, f, f"{path}.{f['name']}", values.get(f["name"], f["default"]))
        for f in spec["item"]
    )
    return (
        f'<fieldset class="rw-row" data-index="{_attr(index)}">'
        f'<legend>{label_text(spec["item_label"])} <span class="rw-row-number">{number}</span>'
        f"</legend>{fields}"
        f'<button type="button" class="rw-remove md-button">'
        f"{escape(spec['item_label'])} entfernen</button></fieldset>"
    )


def _list(helper_id: str, spec: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    body = "".join(_row(helper_id, spec, str(i), row) for i, row in enumerate(rows))
    template = _row(helper_id, spec, ROW_INDEX, {})
    return (
        f'<div class="rw-list" data-path="{_attr(spec["name"])}" '
        f'data-min="{spec["min_items"]}" data-max="{spec["max_items"]}" '
        f'data-label="{_attr(spec["item_label"])}">'
        f'<div class="rw-list-label" id="{_attr(_field_id(helper_id, spec["name"]))}" '
        f'data-path="{_attr(spec["name"])}" tabindex="-1">{label_text(spec["label"])}</div>'
        f'<div class="rw-rows">{body}</div>'
        f"<template>{template}</template>"
        f'<span class="rw-field-error" id="{_attr(_field_id(helper_id, spec["name"]))}-fehler" '
        f"hidden></span>"
        f'<button type="button" class="rw-add md-button">'
        f"{escape(spec['item_label'])} hinzufügen</button></div>"
    )


def _fields(helper_id: str, fields: list[dict[str, Any]], defaults: dict[str, Any]) -> str:
    """The fields in schema order; consecutive fields of one ``group`` share a fieldset."""
    out: list[str] = []
    index = 0
    while index < len(fields):
        group = fields[index].get("group", "")
        run = [fields[index]]
        while group and index + len(run) < len(fields):
            if fields[index + len(run)].get("group", "") != group:
                break
            run.append(fields[index + len(run)])
        html = []
        for field in run:
            value = defaults.get(field["name"], field["default"])
            if field["type"] == "list":
                html.append(_list(helper_id, field, value))
            else:
                html.append(_input(helper_id, field, field["name"], value))
        if group:
            out.append(
                f'<fieldset class="rw-group"><legend>{label_text(group)}</legend>'
                f"{''.join(html)}</fieldset>"
            )
        else:
            out.append(f'<div class="rw-group rw-group--plain">{"".join(html)}</div>')
        index += len(run)
    return "".join(out)


def _seed_field(helper_id: str) -> str:
    """The roll number (the engine's seed): empty for a new roll, or a logged number to roll
    exactly that roll again. Players see „Wurfnummer“; the CLI calls it ``--seed``."""
    seed_id = f"{helper_id}-seed"
    return (
        f'<details class="rw-advanced"><summary>Wurf wiederholen (Wurfnummer)</summary>'
        f'<div class="rw-field"><label for="{_attr(seed_id)}">Wurfnummer</label>'
        f'<input type="text" inputmode="numeric" autocomplete="off" id="{_attr(seed_id)}" '
        f'data-path="seed" data-type="seed" aria-describedby="{_attr(seed_id)}-fehler '
        f'{_attr(seed_id)}-hilfe" size="12">'
        f'<span class="rw-help" id="{_attr(seed_id)}-hilfe">Leer lassen für einen neuen Wurf; '
        f"dieselbe Wurfnummer mit denselben Werten ergibt denselben Wurf.</span>"
        f'<span class="rw-field-error" id="{_attr(seed_id)}-fehler" hidden></span></div>'
        f"</details>"
    )


def _status() -> str:
    return (
        '<span class="rw-status" role="status" aria-live="polite" data-state="idle">'
        "Würfelhelfer wird vorbereitet …</span>"
        '<button type="button" class="rw-retry md-button" hidden>Erneut versuchen</button>'
    )


def _form_body(helper_id: str, spec: dict[str, Any], defaults: dict[str, Any]) -> str:
    basic = [f for f in spec["params"] if not f.get("advanced")]
    advanced = [f for f in spec["params"] if f.get("advanced")]
    parts = [_fields(helper_id, basic, defaults)]
    if advanced:
        parts.append(
            '<details class="rw-more"><summary>Weitere Angaben und Modifikatoren</summary>'
            f"{_fields(helper_id, advanced, defaults)}</details>"
        )
    # an action that never rolls a die has no Wurfnummer to repeat (``rolls_dice``)
    seed = _seed_field(helper_id) if spec.get("rolls_dice", True) else ""
    return (
        _values_bar(helper_id)
        + "".join(parts)
        + seed
        + '<div class="rw-actions"><button type="submit" class="md-button md-button--primary '
        'rw-submit">Würfeln</button><button type="button" class="md-button rw-reset">'
        f"Zurücksetzen</button>{_status()}</div>"
    )


def _values_bar(helper_id: str) -> str:
    """„Meine Werte“: fill the form from a saved set with one choice, or save the current
    values under a name (saved.js keeps them in the browser)."""
    select_id = f"{helper_id}-werte"
    return (
        '<div class="rw-values">'
        f'<label for="{_attr(select_id)}">Meine Werte</label>'
        f'<select id="{_attr(select_id)}" class="rw-values-select">'
        '<option value="">noch keine gespeichert</option></select>'
        '<button type="button" class="md-button rw-values-save">Werte speichern …</button>'
        '<div class="rw-values-notices" aria-live="polite"></div></div>'
    )


def _command_button(command: str, label: str, primary: bool = False) -> str:
    kind = "submit" if primary else "button"
    css = "md-button md-button--primary" if primary else "md-button"
    return (
        f'<button type="{kind}" class="{css} rw-command" data-command="{_attr(command)}">'
        f"{escape(label)}</button>"
    )


def _tickleiste_body(helper_id: str, spec: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The Tickleiste: the time line, acting, adding fighters; each command goes to the engine
    with the state the browser keeps (tickleiste.js, timeline.js).

    Buttons carry ``data-command``; a command sends only the fields of its own fieldset. Once
    the fight has started the script shows „Handeln“ before „Kämpfer hinzufügen“.
    """
    fields = {f["name"]: f for f in spec["params"]}
    newcomer = [fields[n] for n in ("name", "ini", "intuition", "modifier", "surprised")]
    acting = [fields[n] for n in ("action", "ticks", "free_movement")]
    who = fields["fighter"]
    who_id = _field_id(helper_id, "fighter")
    select = (
        f'<div class="rw-field rw-field--text"><label for="{_attr(who_id)}">'
        f'{label_text(who["label"])}</label><select id="{_attr(who_id)}" data-path="fighter" '
        f'data-type="text" aria-describedby="{_attr(who_id)}-fehler"></select>'
        f'<span class="rw-field-error" id="{_attr(who_id)}-fehler" hidden></span></div>'
    )
    inputs = "".join(
        _input(helper_id, f, f["name"], defaults.get(f["name"], f["default"])) for f in newcomer
    )
    act_inputs = "".join(
        _input(helper_id, f, f["name"], defaults.get(f["name"], f["default"])) for f in acting
    )
    board = (
        f'<div class="rw-tl-board" id="{_attr(helper_id)}-zeitstrahl">'
        '<p class="rw-help">Der Zeitstrahl erscheint, sobald Kämpfer eingetragen sind.</p></div>'
    )
    return (
        f"{board}"
        '<fieldset class="rw-group rw-tl-act" data-command-default="handeln">'
        f"<legend>Handeln</legend>{select}{act_inputs}"
        '<div class="rw-tl-buttons">'
        f"{_command_button('handeln', 'Handlung ausführen', primary=True)}"
        f"{_command_button('abwarten', 'Abwarten')}"
        f"{_command_button('bereithalten', 'Aktion bereithalten')}"
        f"{_command_button('eingreifen', 'Wieder eingreifen')}</div></fieldset>"
        '<fieldset class="rw-group rw-tl-add" data-command-default="hinzufuegen">'
        f"<legend>Kämpfer hinzufügen</legend>{_values_bar(helper_id)}{inputs}"
        '<div class="rw-tl-buttons">'
        f"{_command_button('hinzufuegen', 'Kämpfer hinzufügen')}"
        f"{_command_button('start', 'Kampf beginnen (Initiative würfeln)')}</div></fieldset>"
        f'<div class="rw-actions">{_status()}</div>'
        f"{_seed_field(helper_id)}"
    )


def _tickleiste_tools(helper_id: str) -> str:
    """Undo, remove, file export/import and a fresh start, below the board."""
    return (
        '<div class="rw-tl-tools" role="group" aria-label="Tickleiste verwalten">'
        '<button type="button" class="md-button rw-tl-undo" disabled>Rückgängig</button>'
        '<button type="button" class="md-button rw-tl-redo" disabled>Wiederherstellen</button>'
        '<button type="button" class="md-button rw-tl-remove">Kämpfer entfernen …</button>'
        '<button type="button" class="md-button rw-tl-export">Als Datei sichern</button>'
        f'<label class="md-button rw-tl-import-label" for="{_attr(helper_id)}-import">'
        "Aus Datei laden</label>"
        f'<input type="file" accept="application/json,.json" class="rw-tl-import" '
        f'id="{_attr(helper_id)}-import">'
        '<button type="button" class="md-button rw-tl-reset">Neu beginnen …</button></div>'
        '<div class="rw-tl-notices" aria-live="polite"></div>'
    )


@functools.cache
def former_names(system: str) -> dict[str, str]:
    """Every former name of a field of the system's helpers (``formerly`` in ``describe``,
    CONTRIBUTING.md „Namen“) with its name now: the page reads values saved, shared or kept in
    a fight under an old name into the renamed field (forms.js ``renameValues``). One map for
    the whole system – a fight keeps a fighter's values of every helper of it – and within a
    system a former name means one field (tests/engine/test_vocabulary.py)."""
    out: dict[str, str] = {}
    spec = next(s for s in engine.catalog()["systems"] if s["name"] == system)
    for action in spec["actions"]:
        for field in engine.describe(system, action["name"])["params"]:
            for one in (field, *field.get("item", [])):
                out.update(dict.fromkeys(one.get("formerly", []), one["name"]))
    return out


def render_helper(
    system: str,
    action: str,
    helper_id: str,
    defaults: dict[str, Any],
    rule_link: tuple[str, str] | None = None,
) -> str:
    """The HTML of one helper: form, status line, result area and the Annahme notes.

    The root is a ``<section>`` (no nested sections inside): Material's search parser compares
    elements by tag name only, so ``data-search-exclude`` would end at the first inner
    ``</div>`` of a ``<div>`` root and let the form's text into the search index.
    """
    spec = engine.describe(system, action)
    widget = spec.get("widget", "")
    if widget == "tickleiste":
        body = _tickleiste_body(helper_id, spec, defaults)
        tools = _tickleiste_tools(helper_id)
    elif widget:
        raise ValueError(f"unknown widget {widget!r} for {system}.{action}")
    else:
        body = _form_body(helper_id, spec, defaults)
        tools = ""
    # what the text leaves open, folded: a helper stays compact; a result names the
    # assumptions it actually used
    notes = spec["assumptions"]
    assumptions = (
        '<details class="rw-assumptions"><summary>'
        f"Annahmen ({len(notes)})</summary><ul>"
        + "".join(f'<li class="rw-assumption">{escape(text)}</li>' for text in notes)
        + "</ul></details>"
        if notes
        else ""
    )
    css = "rw-helper rw-tickleiste" if widget else "rw-helper"
    widget_attr = f' data-widget="{_attr(widget)}"' if widget else ""
    # fields the page presets (``vorgaben``) define this helper's purpose there: remembered
    # input from other pages does not overwrite them
    if defaults:
        widget_attr += f' data-preset="{_attr(",".join(sorted(defaults)))}"'
    odds = _odds(spec)
    if odds:
        widget_attr += f' data-odds="{_attr(json.dumps(odds, ensure_ascii=False))}"'
    formerly = former_names(system)
    if formerly:
        widget_attr += f' data-formerly="{_attr(json.dumps(formerly, ensure_ascii=False))}"'
    title_id = f"{helper_id}-titel"
    return (
        f'<section class="{css}" id="{_attr(helper_id)}" aria-labelledby="{_attr(title_id)}" '
        f'data-system="{_attr(system)}" '
        f'data-action="{_attr(action)}"'
        f"{widget_attr} data-search-exclude>"
        # the level is set to fit the page by the plugin (on_page_content)
        f'<h3 class="rw-title" id="{_attr(title_id)}">Würfelhelfer: '
        f"{escape(spec['title'])}</h3>"
        f'<form class="rw-form" novalidate aria-labelledby="{_attr(title_id)}">'
        f'<p class="rw-summary">{escape(spec["summary"])}</p>'
        f"{body}</form>"
        # the result is read on demand (focusable, not live); screen readers hear a roll
        # once, outcome first, from the visually hidden live region (results.js announce)
        f'<div class="rw-result" tabindex="-1"></div>'
        '<div class="rw-announce rw-sr-only" aria-live="polite" aria-atomic="true"></div>'
        f"{tools}{assumptions}"
        f"{_source_line(spec['source'], rule_link)}"
        f"</section>"
    )


def _odds(spec: dict[str, Any]) -> dict[str, Any]:
    """What „Was wäre wenn“ and „Vergleichen“ can ask of this helper (``describe``'s
    ``what_if`` and ``compare``), with the fields' labels for the buttons (helpers/odds.js)."""
    labels = {p["name"]: p["label"] for p in spec["params"]}
    out: dict[str, Any] = {}
    if spec.get("what_if") in labels:
        out["what_if"] = {"field": spec["what_if"], "label": labels[spec["what_if"]]}
    compare = [{"field": f, "label": labels[f]} for f in spec.get("compare") or [] if f in labels]
    if compare:
        out["compare"] = compare
    return out


def _source_line(source: str, rule_link: tuple[str, str] | None) -> str:
    """„Regel: <the rule's name, linked>“; the file and lines stay for maintainers in the
    link's title."""
    if rule_link is None:
        return f'<p class="rw-source">Quelle: <span title="{_attr(source)}">Regeltext</span></p>'
    href, name = rule_link
    return (
        f'<p class="rw-source">Regel: <a href="{_attr(href)}" title="{_attr(source)}">'
        f"{escape(name)}</a></p>"
    )


def render_table(system: str, name: str) -> str:
    """A rule table from ``regeln/<system>.yaml`` (``tabellen.<name>``) as an HTML table.

    The roll helpers read the very same rows, so page and engine cannot disagree. Rows carry
    ``data-von``/``data-bis`` when the data has them, for highlighting a rolled row.
    """
    data = load(system)
    key = f"tabellen.{name}"
    columns = data.table(f"{key}.spalten", ("feld", "titel"))
    fields = tuple(str(c["feld"]) for c in columns)
    rows = data.table(f"{key}.zeilen", fields)
    head = "".join(f"<th>{escape(str(c['titel']))}</th>" for c in columns)
    body = []
    for row in rows:
        attrs = "".join(
            f' data-{bound}="{_attr(row[bound])}"' for bound in ("von", "bis") if bound in row
        )
        cells = "".join(f"<td>{escape(str(row[f]))}</td>" for f in fields)
        body.append(f"<tr{attrs}>{cells}</tr>")
    table_id = f"tabelle-{system}-{name}"
    # Material wraps only class-less tables for horizontal scrolling; do the same here
    return (
        '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
        f'<table class="rw-rule-table" id="{_attr(table_id)}" data-system="{_attr(system)}" '
        f'data-table="{_attr(name)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div></div>"
    )
