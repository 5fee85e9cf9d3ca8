"""Text fidelity: every sentence of every source text appears verbatim on the built site.

The sources (``quellen/``, unchanged bytes, listed in ``quellen/SHA256SUMS``, see
test_sources.py) are the canonical wording of the rules; the test covers every text listed
there, so a new system's source is checked without an edit here.

The site may add structure (headings, lists, tables, boxes, links) but must not change wording,
spelling or punctuation. Only markup is removed from a source before the comparison, exactly as the
pages render it: list bullets (``•``, ``·``), table cells (tab-separated, Markdown ``| a | b |``
rows or, in 004, glued together), emphasis markers (``**``) and, for a text of flattened wiki
markup (001), the wiki tokens ``*****`` (chapter), ``>`` (section), ``*``/``**``/``***`` (list
levels) and `` -> `` (term → definition). Whitespace is normalised; nothing else is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.fidelity import (
    THRESHOLD,
    listed_sources,
    pages_text,
    segments_plain,
    segments_wiki,
    source_sentences,
    visible_text,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site_text(built_site: Path) -> str:
    return pages_text(built_site)


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
    # a Markdown table, as a new group's export may bring it: cells, not "|" sentences
    assert segments_plain("| W6 | Ergebnis |\n|---|:--:|\n| 1–2 | Stolpern. |") == [
        "W6",
        "Ergebnis",
        "1–2",
        "Stolpern.",
    ]
    assert (
        visible_text('<p>A<a class="headerlink">¶</a></p><nav>Menü</nav><td>x</td><td>y</td>')
        == "A x y"
    )


@pytest.mark.parametrize("name", listed_sources(ROOT))
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
