"""Our copies of Material's partials (``overrides/``, mkdocs.yml ``custom_dir``) are Material's
own with exactly the change each names: when Material's partial changes (a new version), the
copy fails here instead of silently keeping the old template."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from tests.conftest import ROOT

MATERIAL = Path(material.__file__).parent / "templates"
OVERRIDES = ROOT / "overrides"
# partial → (Material's text, ours): the one change of each copy
CHANGES = {
    "partials/search.html": (
        '<div class="md-search" data-md-component="search" role="dialog">',
        '<div class="md-search" data-md-component="search" role="dialog"'
        " aria-label=\"{{ lang.t('search') }}\">",
    ),
    "partials/palette.html": (
        '<form class="md-header__option" data-md-component="palette">',
        '<form class="md-header__option" data-rw-palette>',
    ),
    "partials/progress.html": (
        'role="progressbar">',
        'role="progressbar" aria-label="Seite wird geladen">',
    ),
}


def body(text: str) -> str:
    """The template without its leading ``{#- … -#}`` comment."""
    return text.split("-#}\n", 1)[1] if text.startswith("{#-") else text


def test_every_override_is_listed() -> None:
    found = {p.relative_to(OVERRIDES).as_posix() for p in OVERRIDES.rglob("*.html")}
    assert found == set(CHANGES)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_override_is_materials_partial_with_its_change(name: str) -> None:
    theirs = body((MATERIAL / name).read_text("utf-8"))
    before, after = CHANGES[name]
    assert theirs.count(before) == 1, f"{name}: Materials Vorlage hat sich geändert"
    assert body((OVERRIDES / name).read_text("utf-8")) == theirs.replace(before, after)
