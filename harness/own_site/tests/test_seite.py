"""Die ganze Seite: jedes System unter regeln/ besteht die schnelle Prüfung des Generators
(harness.check – Regeldaten übersetzt, jede Aktion würfelt über die JSON-Grenze und auf der
Kommandozeile, Wahrscheinlichkeiten gegen die Aufzählung, Seiten gebaut, Kampfhelfer mit jedem
Helfer, Druckansicht, jeder Satz der Quelle wörtlich auf den Seiten)."""

from __future__ import annotations

import hashlib

import pytest

from harness.check import check
from harness.layout import Layout

LAYOUT = Layout.of()
SYSTEMS = sorted(path.stem for path in LAYOUT.rules.glob("*.yaml"))


def test_die_seite_hat_ein_system() -> None:
    assert SYSTEMS, "regeln/ enthält kein System (make system NAME=… QUELLE=…)"


@pytest.mark.parametrize("name", SYSTEMS)
def test_das_system_besteht_die_pruefung(name: str) -> None:
    assert check(LAYOUT, name) == 0, f"make check-system NAME={name} nennt den Fehler"


def test_die_quellen_sind_unveraendert() -> None:
    """quellen/SHA256SUMS: jeder Text Byte für Byte so, wie er übergeben wurde."""
    listed = (LAYOUT.root / "quellen" / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    assert listed, "quellen/SHA256SUMS ist leer"
    for line in listed:
        digest, name = line.split(maxsplit=1)
        text = (LAYOUT.root / "quellen" / name).read_bytes()
        assert hashlib.sha256(text).hexdigest() == digest, f"quellen/{name} wurde verändert"
