"""The Ryssea fumble helper marks the rolled row of the Patzertabelle on the same page.

000_5fbfd0ad384a0921.txt L404–L415: 2W10 on the Patzertabelle; the page's table and the
engine read the same rows (tabellen.patzertabelle in regeln/ryssea.yaml).
"""

from __future__ import annotations

import pytest

from engine import api
from tests.browser.conftest import SharedVisit

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("seed", [3, 8])
def test_rolled_row_is_marked_in_the_table(reader: SharedVisit, seed: int) -> None:
    expected = api.run("ryssea", "fumble", {}, seed)["result"]
    page = reader.arrive("ryssea/patzertabelle/")
    helper = page.locator("#patzer-helfer")
    helper.locator("details.rw-advanced > summary").click()
    helper.locator("[data-path='seed']").fill(str(seed))
    helper.get_by_role("button", name="Würfeln", exact=True).click()
    helper.locator(".rw-result .rw-outcome").wait_for()
    assert helper.locator(".rw-outcome").inner_text() == expected["display"]["outcome"]
    marked = page.locator("#tabelle-ryssea-patzertabelle tr.rw-row-hit")
    assert marked.count() == 1
    assert marked.get_attribute("data-von") == str(expected["row"]["von"])
    assert marked.get_attribute("aria-current") == "true"
    assert expected["row"]["wirkung"] in marked.inner_text()
