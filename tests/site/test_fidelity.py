"""Text fidelity: every sentence of the source texts appears verbatim on the built site.

The sources (``quellen/``, unchanged bytes, see test_sources.py) are the canonical wording
of the rules:

- ``000_5fbfd0ad384a0921.txt`` – Ryssea, Kampfregeln (tick system, from the Ryssea Google Site)
- ``001_240b8e52c108db7c.txt`` – DSA 4.1 Hausregeln (one line of flattened wiki markup)
- ``002_51e59e824768e9e9.txt`` – Güte-System, „Kampfregeln - Nahkampf“
- ``003_3ac4060591b07c19.txt`` – Aktionswürfel-System, „Kampf“
- ``004_019b513a861ec26f.txt`` – Pathfinder 1, „Die Grundregeln des Kampfes“

The site may add structure (headings, lists, tables, boxes, links) but must not change wording,
spelling or punctuation. Only markup is removed from a source before the comparison, exactly as the
pages render it: list bullets (``•``, ``·``), table cells (tab-separated or, in 004, glued
together), emphasis markers (``**``) and, for 001, the wiki tokens ``*****`` (chapter), ``>``
(section), ``*``/``**``/``***`` (list levels) and `` -> `` (term → definition). Whitespace is
normalised; nothing else is.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

THRESHOLD = 0.995

# every text in quellen/SHA256SUMS (read, not listed: a new system's text is checked too)
SOURCES = [
    line.split(maxsplit=1)[1]
    for line in (Path(__file__).resolve().parents[2] / "quellen" / "SHA256SUMS")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]

# --------------------------------------------------------------------------------------------------
# Visible text of the built pages
# --------------------------------------------------------------------------------------------------

_SKIP_TAGS = {"script", "style", "nav", "header", "footer", "noscript", "template", "svg", "button"}
_SKIP_CLASSES = {
    "md-sidebar",
    "md-search",
    "headerlink",
    "md-skip",
    "md-source",
    "md-dialog",
    "md-top",
}
_BLOCK_TAGS = {
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "br",
    "hr",
    "blockquote",
    "pre",
    "section",
    "article",
    "details",
    "summary",
    "figure",
    "figcaption",
    "main",
    "form",
    "label",
    "fieldset",
    "legend",
}
_VOID = {
    "br",
    "hr",
    "img",
    "input",
    "meta",
    "link",
    "source",
    "wbr",
    "area",
    "base",
    "col",
    "embed",
    "track",
}


class _VisibleText(HTMLParser):
    """Collect the text a reader sees; block elements become word breaks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._stack: list[bool] = []  # per open element: does it start a skipped subtree?
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        # dice buttons ("1W6+1") are rule text made clickable: their text counts
        skip = (tag in _SKIP_TAGS and "rw-dice" not in classes) or bool(classes & _SKIP_CLASSES)
        if tag in _BLOCK_TAGS:
            self.parts.append(" ")
        if tag in _VOID:
            return
        self._stack.append(skip)
        if skip:
            self._skip_depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if tag in _BLOCK_TAGS:
            self.parts.append(" ")
        if self._stack and self._stack.pop():
            self._skip_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self.parts.append(data)


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return _normalise("".join(parser.parts))


@pytest.fixture(scope="module")
def site_text(built_site: Path) -> str:
    pages = sorted(p for p in built_site.rglob("*.html") if p.name != "404.html")
    assert pages, f"no HTML pages in {built_site}"
    return "\n".join(visible_text(p.read_text(encoding="utf-8")) for p in pages)


# --------------------------------------------------------------------------------------------------
# Sentences of the sources
# --------------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_BULLET = re.compile(r"^[•·]\s*")
# 004: a table whose cells were glued together ("GrößeGrößenmodifikator", "kolossal-8").
_GLUED_HEADER = {"GrößeGrößenmodifikator": ["Größe", "Größenmodifikator"]}
_GLUED_ROW = re.compile(r"^(\D+?)([+-]\d+)$")


def _split_sentences(segment: str) -> list[str]:
    segment = _normalise(segment)
    return [s for s in _SENTENCE_END.split(segment) if s]


def segments_plain(text: str) -> list[str]:
    """000/002/003/004: one segment per line; bullets, tabs (table cells) and ``**`` are markup."""
    out: list[str] = []
    for line in text.split("\n"):
        line = _BULLET.sub("", line.strip()).replace("**", "")
        if not line.strip():
            continue
        if "\t" in line:
            out.extend(cell for cell in line.split("\t") if cell.strip())
        elif line in _GLUED_HEADER:
            out.extend(_GLUED_HEADER[line])
        elif m := _GLUED_ROW.match(line):
            out.extend([m.group(1), m.group(2)])
        else:
            out.append(line)
    return out


_WIKI_TOKEN = re.compile(
    r"\\\*\\\*\\\*\\\*\\\*|(?<=\s)>(?=\s)|(?<=\s)\*{1,3}(?=\s)|(?<=\s)->(?=\s)"
)
# In 001 a lone " * " is a list marker – except in this formula, where it is a multiplication sign.
_LITERAL_STAR = "KO * W6"


def segments_wiki(text: str) -> list[str]:
    """001: un-flatten the wiki markup into the segments the pages render separately."""
    text = text.replace(_LITERAL_STAR, "KO \0 W6")
    segments = [s.replace("\0", "*").strip() for s in _WIKI_TOKEN.split(text)]
    return [s for s in segments if s]


def source_sentences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    segments = segments_wiki(text) if path.name.startswith("001_") else segments_plain(text)
    return [s for seg in segments for s in _split_sentences(seg)]


# --------------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------------


def test_segmenters_understand_the_markup() -> None:
    """The un-flattening of 001 and the glued 004 table behave as the pages render them."""
    assert segments_wiki(r"\*\*\*\*\* Kampfregeln > Kürzel KR -> Kampfrunde") == [
        "Kampfregeln",
        "Kürzel KR",
        "Kampfrunde",
    ]
    assert segments_wiki("a * b ** c *** d") == ["a", "b", "c", "d"]
    assert segments_wiki("von KO * W6 KR Ab (KO*-1) LeP") == ["von KO * W6 KR Ab (KO*-1) LeP"]
    assert segments_plain("kolossal-8\nsehr klein+2\nGrößeGrößenmodifikator") == [
        "kolossal",
        "-8",
        "sehr klein",
        "+2",
        "Größe",
        "Größenmodifikator",
    ]
    assert segments_plain("Ausweichen**:** Text\n• Punkt\tZelle") == [
        "Ausweichen: Text",
        "Punkt",
        "Zelle",
    ]
    assert (
        visible_text('<p>A<a class="headerlink">¶</a></p><nav>Menü</nav><td>x</td><td>y</td>')
        == "A x y"
    )


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_source_sentences_appear_verbatim(name: str, sources_dir: Path, site_text: str) -> None:
    """≥ 99.5 % of each source's sentences (see module docstring) occur verbatim on the site."""
    sentences = source_sentences(sources_dir / name)
    assert sentences, f"no sentences found in {name}"
    missing = [s for s in sentences if s not in site_text]
    share = 1 - len(missing) / len(sentences)
    print(f"{name}: {len(sentences) - len(missing)}/{len(sentences)} Sätze gefunden ({share:.2%})")
    for s in missing:
        print(f"  FEHLT: {s}")
    assert share >= THRESHOLD, (
        f"{name}: nur {share:.2%} der Sätze wörtlich auf der Website "
        f"(Soll ≥ {THRESHOLD:.1%}). Fehlend:\n" + "\n".join(f"  - {s}" for s in missing)
    )


# Chapters and tables the sources refer to but do not contain (000 L5, L7, L19, L263, L356, L384;
# 002 L33, L117, L119; 001 "Missgeschick"; 004 L10, L35, L95, L100, L146, L162).
MISSING_CHAPTERS = [
    "Würfelsystem & Proben",
    "Zustände",
    "Waffen",
    "Meisterschaften",
    "Am Spieltisch",
    "Monster und Gegner",
    "Fliegen",
    "Tabelle: Modifikationen durch besondere Situationen",
    "Tabelle: Modifikationen durch Nahkampfoptionen",
    "Tabelle: Ausdauerkosten je Fertigkeitsstufe",
    "Aktionen im Kampf",
    "Tabelle: Rüstungen und Schilde",
    "Diagramm Gelegenheitsangriffe",
    "Verletzung und Tod",
]


def test_missing_chapters_page_lists_every_missing_chapter() -> None:
    """docs/fehlende-kapitel.md exists and names each chapter/table the sources cite but lack."""
    page = Path(__file__).resolve().parents[2] / "docs" / "fehlende-kapitel.md"
    assert page.is_file(), "docs/fehlende-kapitel.md fehlt"
    headings = [
        line.lstrip("#").strip()
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith("###")
    ]
    for chapter in MISSING_CHAPTERS:
        assert any(chapter in h for h in headings), (
            f"'{chapter}' fehlt auf der Seite Fehlende Kapitel"
        )


def test_missing_chapters_page_is_built_and_linked(built_site: Path) -> None:
    """The page is part of the build and the source references point to it."""
    assert (built_site / "fehlende-kapitel" / "index.html").is_file()
    linking = [
        p
        for p in built_site.rglob("*.html")
        if "fehlende-kapitel/#" in p.read_text(encoding="utf-8")
    ]
    assert len(linking) >= 10, f"nur {len(linking)} Seiten verlinken auf Fehlende Kapitel"
