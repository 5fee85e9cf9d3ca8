"""The tabs of every Kampfhelfer page (docs/<system>/kampfhelfer.md), read from the Markdown:
a „Patzer“ tab stands only where the text defines a fumble rule.

Issue 26: a Patzer tab whose „Würfeln“ answered „Keine Patzerregel im Text“ (Güte,
Aktionswürfel). A fumble rule decides something with dice – Ryssea's 2W10 on the Patzertabelle
(000 L406), DSA's Bestätigungswurf after a 20 (001, „Crits und Patzer“), Pathfinder's natural 1
(004 L10, L162) – so a Patzer tab's helper must roll; one that never rolls only says the text
has no rule, and that belongs on the rule page (where the text's own words stand), not on the
workbench.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from engine import api
from tests.conftest import ROOT, rule_systems

TAB = re.compile(r'^=== "([^"]+)"\n(.*?)(?=^=== "|^</div>)', re.MULTILINE | re.DOTALL)
HELPER = re.compile(r"^\s*```helfer\n(.*?)^\s*```", re.MULTILINE | re.DOTALL)


def tabs(system: str) -> dict[str, list[dict[str, Any]]]:
    """Each tab's title and the helpers in it."""
    text = (ROOT / "docs" / system / "kampfhelfer.md").read_text(encoding="utf-8")
    out: dict[str, list[dict[str, Any]]] = {}
    for title, body in TAB.findall(text):
        blocks = [yaml.safe_load(re.sub(r"^    ", "", b, flags=re.M)) for b in HELPER.findall(body)]
        out[title] = blocks
    return out


def sample(system: str, action: str, presets: dict[str, Any]) -> dict[str, Any]:
    spec = api.describe(system, action)
    needed = {
        f["name"]: f["default"]
        for f in spec["params"]
        if f.get("required") or f.get("required_when")
    }
    return {**needed, **presets}


def rolls_dice(result: dict[str, Any]) -> bool:
    return any(
        item["dice"]
        for section in result["display"]["sections"]
        if section["kind"] == "rolls"
        for item in section["items"]
    )


@pytest.mark.parametrize("system", rule_systems())
def test_a_patzer_tab_only_where_the_text_has_a_fumble_rule(system: str) -> None:
    for title, helpers in tabs(system).items():
        if "Patzer" not in title:
            continue
        assert helpers, (system, title)
        for block in helpers:
            params = sample(system, block["aktion"], block.get("vorgaben") or {})
            answers = [api.run(system, block["aktion"], params, seed) for seed in range(20)]
            assert all(answer["ok"] for answer in answers), (system, title)
            assert any(rolls_dice(answer["result"]) for answer in answers), (
                f"{system}: der Reiter „{title}“ würfelt nie – der Text hat keine Patzerregel"
            )


def test_the_tabs_are_read() -> None:
    """The reading above finds the workbench's tabs (and at least one Patzer tab)."""
    found = {system: tabs(system) for system in rule_systems()}
    assert all(found.values()), found
    assert any("Patzer" in title for system_tabs in found.values() for title in system_tabs)
