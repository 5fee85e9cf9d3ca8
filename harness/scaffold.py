"""Add a rule system: everything it needs, from its source text to a rolling Kampfhelfer page.

    .venv/bin/python -m harness.scaffold NAME QUELLE [--titel "Titel"]
    make system NAME=klingenspiel QUELLE=~/klingenspiel.txt TITEL="Klingenspiel"

Works in the site of the working directory – this repository or a group's own site
(:mod:`harness.layout`).

NAME is the system key (a–z, 0–9, _; the folder under docs/, the data file's name), QUELLE
the source text (UTF-8). Writes – and refuses to overwrite anything that is there:

- ``quellen/NNN_<16 hex>.txt``: the text byte for byte under its canonical name (the next free
  number, the first 16 hex digits of its SHA-256), its line in ``quellen/SHA256SUMS`` and a row
  in ``quellen/README.md``;
- ``regeln/NAME.yaml`` (+ ``.json``): the system, its fight
  (``kampf:`` – a life value, a state rule, the conditions; engine/fight_contract.py) and one
  declared action of each kind –
  ``initiative``, ``angriff`` (a check against a target), ``schaden``, ``patzer`` (a table roll)
  – with sample rules to replace by the text's own (engine/declarative);
- ``docs/NAME/``: ``index.md`` (Quelle & Stand), ``regeln.md`` (the text, one paragraph per
  line, then the helpers), ``kampfhelfer.md`` (initiative in the fight column, the others as
  tabs); in ``mkdocs.yml`` the nav section with its „Druckansicht“ (the print page is
  generated) and the system's label for the search; in ``glossary.yml`` its abbreviations; in
  ``tests/site/search_queries.yml`` a word of the text that must find its rules page first;
- ``tests/engine/NAME/test_rules.py``: tests that check the odds of the declared actions
  against an enumeration of every face (they read the YAML, so they follow its edits).

Then ``make check-system NAME=…`` (engine, odds, pages) and ``make serve``.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections import Counter
from pathlib import Path

from harness.layout import Layout
from site_plugins.compile_data import compile_all

NAME = re.compile(r"[a-z][a-z0-9_]{1,30}")
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{9,}")


class ScaffoldError(Exception):
    pass


def source_name(root: Path, text: bytes) -> str:
    """``NNN_<16 hex>.txt``: the next free number and the start of the text's SHA-256."""
    numbers = [int(p.name[:3]) for p in (root / "quellen").glob("[0-9][0-9][0-9]_*.txt")]
    number = max(numbers, default=-1) + 1
    return f"{number:03d}_{hashlib.sha256(text).hexdigest()[:16]}.txt"


def data_yaml(title: str, source: str, lines: int) -> str:
    whole = f"L1–L{lines}"
    return f"""\
# {title}: Regeldaten und Würfelhelfer (engine/declarative, CONTRIBUTING.md „Ein Regelsystem
# in YAML“). Die Aktionen unten sind Beispiele je Art: Zahlen, Würfel, Texte und Zeilen der
# Quelle („quelle: L…“) an den Text anpassen, nicht Gebrauchtes löschen; `make data` danach.
system:
  titel: {title}
  quelle: {source}

tabellen:
  patzertabelle:
    titel: Patzertabelle
    quelle: "{source} {whole}"
    spalten:
      - {{feld: wurf, titel: "1W6"}}
      - {{feld: wirkung, titel: "Auswirkung"}}
    zeilen:
      - {{wurf: "1–2", von: 1, bis: 2, wirkung: "Der Angreifer verliert seine nächste Aktion."}}
      - {{wurf: "3–5", von: 3, bis: 5, wirkung: "Die Waffe fällt zu Boden."}}
      - {{wurf: "6", von: 6, bis: 6, schaden: 1W6,
         wirkung: "Der Angreifer verletzt sich selbst (1W6 Schaden)."}}

# Der Kampf (CONTRIBUTING.md „Der Kampf“): die Lebenswerte, die der Überblick des Kampfes
# führt, die Zustände, zu denen sie führen (die erste Regel, die zutrifft, gilt; bis = höchstens,
# ab = mindestens), und die Bedingungen, die der Text nennt (liegend, betäubt …).
kampf:
  werte:
    - {{name: lebenspunkte, titel: LeP, label: Lebenspunkte, min: -99, max: 999,
       quelle: "{source} {whole}"}}
  zustaende:
    - {{id: kampfunfaehig, wert: lebenspunkte, bis: 0, zustand: kampfunfähig, text: kampfunfähig,
       quelle: "{source} {whole}"}}
  bedingungen: []

aktionen:
  initiative:
    art: initiative
    titel: Initiative
    zusammenfassung: Jeder würfelt 1W6 + Gewandtheit; das höhere Ergebnis handelt zuerst.
    quelle: {whole}
    wurf: 1W6
    wert:
      {{name: gewandtheit, label: Gewandtheit, vorgabe: 2, min: 0, max: 20, pflicht: true}}
    gleichstand: [hoeherer_wert, stechen]
    beispiel:
      - {{name: Alrik, gewandtheit: 3}}
      - {{name: Ork, gewandtheit: 2}}

  angriff:
    art: probe
    titel: Angriff
    zusammenfassung: 2W6 + Angriffswert + Modifikator gegen die Verteidigung des Ziels.
    quelle: {whole}
    wurf: 2W6
    wert: {{name: angriffswert, label: Angriffswert, wer: handelnder, pflicht: true,
           vorgabe: 4, min: -10, max: 30}}
    modifikatoren:
      - {{name: modifier, label: Modifikator, min: -20, max: 20}}
    ziel: {{name: verteidigung, label: Verteidigung, wer: ziel, vorgabe: 11, min: 0, max: 60}}
    gelingt: ab
    kritisch: {{augen: [12]}}
    patzer: {{augen: [2], immer: true}}
    worte: {{erfolg: Treffer, misserfolg: Verfehlt, kritisch: Kritischer Treffer, patzer: Patzer}}
    folgen: {{erfolg: schaden, patzer: patzer}}

  schaden:
    art: schaden
    titel: Schaden
    zusammenfassung: Waffenschaden + Stärke − Rüstung, mindestens 0, von den Lebenspunkten.
    quelle: {whole}
    wurf: {{name: waffe, label: Waffenschaden, art: wuerfel, vorgabe: 1W6, wer: handelnder}}
    bonus:
      - {{name: staerke, label: Stärke, wer: handelnder, min: -5, max: 20}}
    ruestung: {{name: armor, label: Rüstung, wer: ziel, min: 0, max: 20}}
    minimum: 0
    kritisch: {{verdoppeln: true}}
    ressource: {{name: lebenspunkte, label: Lebenspunkte vor dem Treffer, ressource: LeP,
                vorgabe: 12, min: -99, max: 999}}

  patzer:
    art: tabelle
    titel: Patzertabelle
    zusammenfassung: Nach einem Patzer 1W6 auf der Patzertabelle.
    quelle: {whole}
    tabelle: patzertabelle
    wurf: 1W6
    folgewurf: {{spalte: schaden, titel: Schaden}}
"""


def _paragraph(line: str) -> str:
    """One line of the source as a Markdown paragraph showing exactly its words."""
    text = line.strip().replace("&", "&amp;").replace("<", "&lt;")
    text = re.sub(r"([\\`*_\[\]#|])", r"\\\1", text)
    if re.match(r"^(\d+)([.)])\s", text):
        text = re.sub(r"^(\d+)([.)])", r"\1\\\2", text)
    if text[:1] in "-+>=":
        text = "\\" + text
    return text.replace("\t", " ")


TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
TABLE_RULE = re.compile(r"^\s*\|(\s*:?-+:?\s*\|)+\s*$")


def _blocks(text: str) -> list[str]:
    """The text as Markdown blocks: a paragraph per line, and rows written with ``|`` (a table
    in the source, ``| W6 | Folge |``) as that table – with the rule line Markdown needs under
    its first row when the source has none."""
    blocks: list[str] = []
    rows: list[str] = []

    def close_table() -> None:
        if rows:
            if len(rows) < 2 or not TABLE_RULE.match(rows[1]):
                cells = rows[0].strip().strip("|").count("|") + 1
                rows.insert(1, "|" + "---|" * cells)
            blocks.append("\n".join(row.strip() for row in rows))
            rows.clear()

    for line in text.splitlines():
        if TABLE_ROW.match(line):
            rows.append(line)
            continue
        close_table()
        if line.strip():
            blocks.append(_paragraph(line))
    close_table()
    return blocks


def rules_page(name: str, title: str, text: str) -> str:
    paragraphs = "\n\n".join(_blocks(text))
    return f"""\
# Regeln: {title} {{ #regeln }}

{paragraphs}

## Initiative {{ #initiative }}

```helfer
system: {name}
aktion: initiative
```

## Angriff {{ #angriff }}

```helfer
system: {name}
aktion: angriff
```

## Schaden {{ #schaden }}

```helfer
system: {name}
aktion: schaden
```

## Patzertabelle {{ #patzertabelle }}

```regeltabelle
system: {name}
tabelle: patzertabelle
```

```helfer
system: {name}
aktion: patzer
```
"""


def index_page(title: str, source: str) -> str:
    return f"""\
# {title}

!!! info "Quelle & Stand"
    Quelltext: `{source}`. Stand: **nicht kanon-geprüft**.

## Seiten dieses Abschnitts

| Seite | Inhalt |
|---|---|
| [Kampfhelfer](kampfhelfer.md) | Initiative, Angriff, Schaden und Patzertabelle zum Würfeln |
| [Regeln](regeln.md) | Der Text der Regeln mit ihren Würfelhelfern |
"""


def workbench_page(name: str, title: str) -> str:
    tabs = "".join(
        f"""
=== "{label}"


    Regel: [{label}](regeln.md#{anchor}).

    ```helfer
    system: {name}
    aktion: {action}
    ```
"""
        for label, anchor, action in (
            ("Angriff", "angriff", "angriff"),
            ("Schaden", "schaden", "schaden"),
            ("Patzer", "patzertabelle", "patzer"),
        )
    )
    return f"""\
---
# Tool page: the helpers repeat the rule words, and the search should lead to the rules.
search:
  exclude: true
hide:
  - toc
---

# Kampfhelfer: {title} {{ #kampfhelfer }}

Hier stehen alle Würfelhelfer von {title} auf einer Seite – für den schnellen Griff am
Spieltisch; die Regeln selbst stehen auf der verlinkten Seite.

<div class="rw-workbench" markdown>
<div class="rw-workbench-fight" markdown>

## Initiative {{ #initiative }}

Regel: [Initiative](regeln.md#initiative).

```helfer
system: {name}
aktion: initiative
```

</div>
<div class="rw-workbench-tools" markdown>
{tabs}
</div>
</div>
"""


TEST_TEMPLATE = '''\
"""{title}: the declared actions of {data}, each chance against an
enumeration of every face (harness/brute.py). The tests read the declaration, so they
follow its edits; cite the source's lines ({source} L…) where a rule is checked."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine import api, dice
from engine.data_files import load
from harness import brute
from harness.support import SystemTests

SYSTEM = "{name}"
DATA = load(SYSTEM)
run = SystemTests(SYSTEM).run  # the result of an action: ok, JSON-safe, with a headline


def declared(kind: str) -> list[tuple[str, dict[str, Any]]]:
    actions = DATA.raw("aktionen")
    return [(name, spec) for name, spec in actions.items() if spec["art"] == kind]


def sides(notation: str) -> tuple[list[int], int]:
    """The dice of a plain expression (no kh/kl) and its constant."""
    expression = dice.parse(notation)
    faces = [t.sides for t in expression.terms for _ in range(t.count)]
    assert all(t.sign > 0 and not t.drops for t in expression.terms), notation
    return faces, expression.constant


def test_every_action_is_in_the_catalog() -> None:
    listed = next(s for s in api.catalog()["systems"] if s["name"] == SYSTEM)
    assert {{a["name"] for a in listed["actions"]}} >= set(DATA.raw("aktionen"))


def test_checks_hit_as_often_as_the_faces_say() -> None:
    for action, spec in declared("probe"):
        faces, constant = sides(spec["wurf"])
        value = spec["wert"].get("vorgabe", 0)
        for target in (value + 2, value + 7, value + 12):
            params = {{spec["wert"]["name"]: value}}
            if "ziel" in spec:
                params[spec["ziel"]["name"]] = target
            else:
                target = spec["zielwert"]
            result = run(action, params)
            over = spec.get("gelingt", "ab") == "ueber"
            auto_hit = (
                set(spec.get("kritisch", {{}}).get("augen", []))
                if spec.get("kritisch", {{}}).get("immer")
                else set()
            )
            auto_miss = (
                set(spec.get("patzer", {{}}).get("augen", []))
                if spec.get("patzer", {{}}).get("immer")
                else set()
            )

            def hits(
                f: tuple[int, ...],
                t: int = target,
                constant: int = constant,
                value: int = value,
                over: bool = over,
                auto_hit: set[int] = auto_hit,
                auto_miss: set[int] = auto_miss,
            ) -> bool:
                natural = sum(f) + constant
                if natural in auto_hit:
                    return True
                if natural in auto_miss:
                    return False
                total = natural + value
                return total > t if over else total >= t

            assert Fraction(result["chances"]["hit"]) == brute.chance(faces, hits), (action, target)


def test_tables_give_every_row_its_share_of_the_faces() -> None:
    for action, spec in declared("tabelle"):
        faces, constant = sides(spec["wurf"])
        rows = DATA.raw(f"tabellen.{{spec['tabelle']}}.zeilen")
        result = run(action, {{}})
        for row in rows:
            expected = brute.chance(
                faces, lambda f, r=row, c=constant: r["von"] <= sum(f) + c <= r["bis"]
            )
            assert Fraction(result["chances"][f"{{row['von']}}-{{row['bis']}}"]) == expected


def test_damage_on_average_as_the_faces_say() -> None:
    for action, spec in declared("schaden"):
        notation = spec["wurf"] if isinstance(spec["wurf"], str) else spec["wurf"]["vorgabe"]
        faces, constant = sides(notation)
        bonus = {{b["name"]: 2 for b in spec.get("bonus", [])}}
        armour = {{spec["ruestung"]["name"]: 1}} if "ruestung" in spec else {{}}
        params: dict[str, Any] = {{**bonus, **armour}}
        result = run(action, params)
        minimum = spec.get("minimum", 0)

        def hurt(
            f: tuple[int, ...],
            minimum: int = minimum,
            constant: int = constant,
            extra: int = 2 * len(bonus) - len(armour),
        ) -> int:
            return max(minimum, sum(f) + constant + extra)

        expected = brute.expectation(faces, hurt)
        assert Fraction(result["chances"]["expected_damage"]) == expected, action


def test_initiative_first_chances_add_up_and_favour_the_higher_value() -> None:
    for action, spec in declared("initiative"):
        value = spec["wert"]["name"]
        fighters = [{{"name": "Hoch", value: 5}}, {{"name": "Tief", value: 1}}]
        extra = [r["feld"] for r in spec["gleichstand"] if isinstance(r, dict)]
        for row in fighters:
            row.update({{f["name"]: f.get("vorgabe", 0) for f in extra}})
        chances = run(action, {{"fighters": fighters}})["first_chances"]
        faces, _ = sides(spec["wurf"])

        def first(f: tuple[int, ...], ties: list[Any] = spec["gleichstand"]) -> bool:
            return f[0] + 5 >= f[1] + 1 if "hoeherer_wert" in ties else False

        if spec["gleichstand"][0] == "hoeherer_wert":
            assert Fraction(chances["Hoch"]) == brute.chance(faces + faces, first)
        together = spec["gleichstand"][-1] == "gleichzeitig"
        total = sum(Fraction(p) for p in chances.values())
        assert total >= 1 if together else total == 1
'''


def _insert_nav(text: str, name: str, title: str) -> str:
    section = (
        f"  - {title}:\n"
        f"      - {name}/index.md\n"
        f"      - Kampfhelfer: {name}/kampfhelfer.md\n"
        f"      - Regeln: {name}/regeln.md\n"
        f"      - Druckansicht: {name}/druck.md\n"
    )
    anchor = "  - Meine Werte: meine-werte.md\n"
    if anchor not in text:
        raise ScaffoldError(f"mkdocs.yml: „{anchor.strip()}“ nicht gefunden (nav)")
    return text.replace(anchor, section + anchor, 1)


def _insert_label(text: str, name: str, title: str) -> str:
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == "systeme:"), None)
    if start is None:
        raise ScaffoldError("mkdocs.yml: „systeme:“ (regelwerk-suche) nicht gefunden")
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and (
        len(lines[end]) - len(lines[end].lstrip()) > indent or lines[end].lstrip().startswith("#")
    ):
        end += 1
    lines.insert(end, " " * (indent + 2) + f"{name}: {title}\n")
    return "".join(lines)


SYSTEMS_TABLE = "| System | Seiten |\n|---|---|\n"  # the start page of a group's own site


def list_on_start_page(root: Path, name: str, title: str) -> bool:
    """A row for the new system in the start page's table of systems (a group's own site,
    harness/own_site/docs/index.md); this repository's start page describes each system in
    words, which its maintainers write (False: nothing written)."""
    page = root / "docs" / "index.md"
    text = page.read_text(encoding="utf-8") if page.exists() else ""
    if SYSTEMS_TABLE not in text:
        return False
    start = text.index(SYSTEMS_TABLE) + len(SYSTEMS_TABLE)
    end = start
    while text.startswith("|", end):
        end = text.index("\n", end) + 1
    row = (
        f"| [{title}]({name}/index.md) | [Regeln]({name}/regeln.md), "
        f"[Kampfhelfer]({name}/kampfhelfer.md) |\n"
    )
    page.write_text(text[:end] + row + text[end:], encoding="utf-8")
    return True


def search_word(root: Path, text: str) -> str:
    """The text's most frequent long word that no other page uses (its pages' own word)."""
    others = "\n".join(p.read_text(encoding="utf-8").lower() for p in (root / "docs").rglob("*.md"))
    counts = Counter(WORD.findall(text))
    for word, _ in counts.most_common():
        if word.lower() not in others:
            return str(word)
    raise ScaffoldError("kein Wort der Quelle, das nur auf den neuen Seiten steht (Suchtest)")


def scaffold(root: Path, name: str, source: Path, title: str) -> list[Path]:
    if not NAME.fullmatch(name):
        raise ScaffoldError(f"NAME: „{name}“ – nur a–z, 0–9 und _, mit einem Buchstaben vorn")
    from engine.cli import OWN_COMMANDS  # the command line's own commands (python -m engine …)

    if name in OWN_COMMANDS:
        raise ScaffoldError(f"NAME: „{name}“ ist ein Befehl der Kommandozeile, kein Systemname")
    raw = source.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScaffoldError(f"QUELLE: {source} ist kein UTF-8 ({error.reason})") from None
    canonical = source_name(root, raw)
    layout = Layout.of(root)
    new_files = {
        root / "quellen" / canonical: raw,
        layout.data_yaml(name): data_yaml(title, canonical, len(text.splitlines())).encode(),
        root / "docs" / name / "index.md": index_page(title, canonical).encode(),
        root / "docs" / name / "regeln.md": rules_page(name, title, text).encode(),
        root / "docs" / name / "kampfhelfer.md": workbench_page(name, title).encode(),
        layout.tests(name) / "__init__.py": b"",
        layout.tests(name) / "test_rules.py": TEST_TEMPLATE.format(
            name=name, title=title, source=canonical, data=layout.shown(layout.data_yaml(name))
        ).encode(),
    }
    taken = [str(p.relative_to(root)) for p in new_files if p.exists()]
    if taken or (root / "docs" / name).exists():
        raise ScaffoldError(f"{name}: schon vorhanden ({', '.join(taken) or 'docs/' + name})")
    queries = root / "tests" / "site" / "search_queries.yml"  # this repository's search test
    word = search_word(root, text) if queries.exists() else ""
    mkdocs = root / "mkdocs.yml"
    config = _insert_label(
        _insert_nav(mkdocs.read_text(encoding="utf-8"), name, title), name, title
    )
    for path, content in new_files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    mkdocs.write_text(config, encoding="utf-8")
    sums = root / "quellen" / "SHA256SUMS"
    with sums.open("a", encoding="utf-8") as handle:
        handle.write(f"{hashlib.sha256(raw).hexdigest()}  {canonical}\n")
    readme = root / "quellen" / "README.md"
    rows = readme.read_text(encoding="utf-8")
    last_row = max(i for i, line in enumerate(rows.splitlines()) if line.startswith("|"))
    lines = rows.splitlines(keepends=True)
    lines.insert(last_row + 1, f"| `{canonical}` | {title} | {source.name} |\n")
    readme.write_text("".join(lines), encoding="utf-8")
    with (root / "glossary.yml").open("a", encoding="utf-8") as handle:
        handle.write(f"\n{name}:\n  LeP: Lebenspunkte\n")
    changed = [mkdocs, sums, readme, root / "glossary.yml"]
    if word:
        with queries.open("a", encoding="utf-8") as handle:
            handle.write(f"- {{suche: {word}, seite: {name}/regeln/}}  # {title}\n")
        changed.append(queries)
    if list_on_start_page(root, name, title):
        changed.append(root / "docs" / "index.md")
    compile_all(data_dir=layout.rules)
    return [*new_files, layout.rules / f"{name}.json", *changed]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Ein Regelsystem anlegen (Quelle, Daten, Seiten, Tests)"
    )
    parser.add_argument("name", help="Systemschlüssel: a–z, 0–9, _ (Ordner unter docs/)")
    parser.add_argument("quelle", type=Path, help="der Quelltext (UTF-8)")
    parser.add_argument("--titel", default="", help="Name des Systems auf den Seiten")
    args = parser.parse_args(argv)
    title = args.titel or args.name.replace("_", " ").title()
    root = Layout.of().root
    try:
        written = scaffold(root, args.name, args.quelle, title)
    except (ScaffoldError, OSError) as error:
        print(f"Fehler: {error}", file=sys.stderr)
        return 1
    print("Angelegt oder ergänzt:")
    for path in written:
        print(f"  {path.relative_to(root)}")
    print(f"Weiter: make check-system NAME={args.name}, dann make serve")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
