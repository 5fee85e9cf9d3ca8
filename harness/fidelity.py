"""Text fidelity: the sentences of a source text and the visible text of built pages.

The sources are the canonical wording of the rules. The site may add structure (headings,
lists, tables, boxes, links) but must not change wording, spelling or punctuation. Only markup
is removed from a source before the comparison, exactly as the pages render it: list bullets
(``•``, ``·``), table cells (tab-separated, Markdown ``| a | b |`` rows or, in 004, glued
together), emphasis markers (``**``) and, for a text of flattened wiki markup (001), the wiki
tokens ``*****`` (chapter), ``>`` (section), ``*``/``**``/``***`` (list levels) and `` -> ``
(term → definition). Whitespace is normalised; nothing else is.

Shared by this repository's test (``tests/site/test_fidelity.py``), the quick check of one
system (:mod:`harness.check`) and a group's own site: the same sentences, the same threshold.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

THRESHOLD = 0.995


def listed_sources(root: Path) -> list[str]:
    """The source texts named in ``quellen/SHA256SUMS`` (``<digest>  <file name>`` per line)."""
    sums = root / "quellen" / "SHA256SUMS"
    return sorted(
        line.split(maxsplit=1)[1].strip()
        for line in sums.read_text(encoding="utf-8").splitlines()
        if line.strip()
    )


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


def pages_text(built_site: Path) -> str:
    """The visible text of every page of a built site (not the 404 page)."""
    pages = sorted(p for p in built_site.rglob("*.html") if p.name != "404.html")
    if not pages:
        raise FileNotFoundError(f"keine HTML-Seiten in {built_site}")
    return "\n".join(visible_text(p.read_text(encoding="utf-8")) for p in pages)


# --------------------------------------------------------------------------------------------------
# Sentences of the sources
# --------------------------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_BULLET = re.compile(r"^[•·]\s*")
# 004: a table whose cells were glued together ("GrößeGrößenmodifikator", "kolossal-8").
_GLUED_HEADER = {"GrößeGrößenmodifikator": ["Größe", "Größenmodifikator"]}
_GLUED_ROW = re.compile(r"^(\D+?)([+-]\d+)$")
# a Markdown table: ``| a | b |`` rows and their ``|---|:--:|`` separator line
_TABLE_ROW = re.compile(r"^\|.*\|$")
_TABLE_RULE = re.compile(r"^\|(\s*:?-+:?\s*\|)+$")


def _split_sentences(segment: str) -> list[str]:
    segment = _normalise(segment)
    return [s for s in _SENTENCE_END.split(segment) if s]


def segments_plain(text: str) -> list[str]:
    """One segment per line; bullets, tabs and Markdown ``|`` (table cells) and ``**`` are
    markup."""
    out: list[str] = []
    for line in text.split("\n"):
        line = _BULLET.sub("", line.strip()).replace("**", "")
        if not line.strip() or _TABLE_RULE.match(line):
            continue
        if _TABLE_ROW.match(line):
            out.extend(cell.strip() for cell in line.strip("|").split("|") if cell.strip())
        elif "\t" in line:
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


# The chapter token of flattened wiki markup (001): such a text is un-flattened, not split by line
_WIKI_CHAPTER = "\\*\\*\\*\\*\\*"


def source_sentences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    segments = segments_wiki(text) if _WIKI_CHAPTER in text else segments_plain(text)
    return [s for seg in segments for s in _split_sentences(seg)]
