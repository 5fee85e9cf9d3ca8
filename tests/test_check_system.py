"""``make check-system`` (harness/check.py): its wording step holds a new system's pages
to the rule ``make test`` holds them to – every sentence of the source word for word on the
site (CONTRIBUTING.md „Grundsätze“: „Jeder Satz steht wörtlich auf den Seiten“,
tests/site/test_fidelity.py). Before this step a Regelseite whose regeltabelle had replaced
the source's lines „1: Waffe verloren – …“ passed ``make check-system`` and failed ``make test``."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from harness.layout import Layout

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = Layout.of(ROOT)

SOURCE = """Patzertabelle (1W6)
1: Waffe verloren – die Waffe fliegt 1W6 Schritt weit davon.
2: Gestolpert – der Angreifer verliert seine nächste Handlung.
"""

# what a ``regeltabelle`` renders: the cells, without the source's „1: “ in front of the row
TABLE_ONLY = """<h2>Patzertabelle (1W6)</h2><table>
<tr><td>1</td><td>Waffe verloren – die Waffe fliegt 1W6 Schritt weit davon.</td></tr>
<tr><td>2</td><td>Gestolpert – der Angreifer verliert seine nächste Handlung.</td></tr></table>"""

LINES_KEPT = """<h2>Patzertabelle (1W6)</h2><ul>
<li>1: Waffe verloren – die Waffe fliegt 1W6 Schritt weit davon.</li>
<li>2: Gestolpert – der Angreifer verliert seine nächste Handlung.</li></ul>"""


def script() -> ModuleType:
    from harness import check

    return check


def built(tmp_path: Path, html: str) -> tuple[Path, Path]:
    source = tmp_path / "005_quelle.txt"
    source.write_text(SOURCE, encoding="utf-8")
    page = tmp_path / "site" / "eisenwald" / "regeln" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(f"<html><body><article>{html}</article></body></html>", encoding="utf-8")
    return source, tmp_path / "site" / "eisenwald"


def test_source_lines_kept_on_the_page_pass(tmp_path: Path) -> None:
    check = script()
    source, pages = built(tmp_path, LINES_KEPT)
    assert check.check_wording(source, pages, "eisenwald") == 3


def test_a_table_that_drops_the_row_numbers_fails_and_says_what_to_do(tmp_path: Path) -> None:
    check = script()
    source, pages = built(tmp_path, TABLE_ONLY)
    with pytest.raises(check.CheckFailed) as failed:
        check.check_wording(source, pages, "eisenwald")
    message = str(failed.value)
    assert "2 von 3 Sätzen aus quellen/005_quelle.txt" in message
    assert "– 1: Waffe verloren – die Waffe fliegt 1W6 Schritt weit davon." in message
    assert "regeltabelle" in message and "docs/eisenwald/" in message


def test_the_source_is_found_in_both_shapes_of_data_file() -> None:
    """A system in YAML names its source under ``system: {quelle}``; the Python systems' data
    files carry ``quelle`` at the top (regeln/ryssea.yaml). A wrong name is refused."""
    check = script()
    ryssea = json.loads((ROOT / "regeln" / "ryssea.json").read_text(encoding="utf-8"))
    assert check.source_file(LAYOUT, ryssea, "ryssea") == "000_5fbfd0ad384a0921.txt"
    declared = {"system": {"titel": "Eisenwald", "quelle": "002_51e59e824768e9e9.txt"}}
    assert check.source_file(LAYOUT, declared, "eisenwald") == "002_51e59e824768e9e9.txt"
    with pytest.raises(check.CheckFailed, match=r"system\.quelle"):
        check.source_file(LAYOUT, {"system": {"titel": "Eisenwald"}}, "eisenwald")


def test_a_damage_without_ressource_is_said(tmp_path: Path) -> None:
    """#47: „ressource looks required but is optional – and without it damage never reaches
    the fight's life values; nobody says so“: the quick check says so, naming the action."""
    from harness import check
    from harness.layout import Layout

    (tmp_path / "regeln").mkdir()
    declared = {
        "aktionen": {
            "schaden": {"art": "schaden", "wurf": "1W6"},
            "wunde": {"art": "schaden", "wurf": "1W6", "ressource": {"name": "lep"}},
            "patzer": {"art": "tabelle"},
        }
    }
    (tmp_path / "regeln" / "sturm.json").write_text(json.dumps(declared), encoding="utf-8")
    hints = check.life_value_hints(Layout(tmp_path, tmp_path / "regeln"), "sturm")
    assert len(hints) == 1 and "aktionen.schaden" in hints[0] and "ressource" in hints[0]
