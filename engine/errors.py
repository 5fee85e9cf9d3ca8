"""The engine's one error type, and :func:`echo` for quoting user input in its messages."""

from __future__ import annotations

import math

__all__ = ["ECHO_LIMIT", "EngineError", "echo"]

ECHO_LIMIT = 40
"""Most characters of user input a message quotes (then „…“)."""


class EngineError(Exception):
    """Raised for every bad request the engine can recognise.

    ``field`` is the dotted path of the offending parameter (``"fighters.1.ini"``), or ``""``
    when the error is not about a single field. ``message`` is German and meant for players.
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


def _clip(text: str, limit: int) -> str:
    head = text[: limit + 1]
    if len(head) <= limit:
        return head
    return head[:limit].rstrip() + "…"


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """User input as a message may quote it: German, at most ``limit`` characters (then „…“).

    Texts are cut (line breaks and tabs become spaces), so a 10 MB name gives a short message;
    numbers too long to show (or to convert: Python refuses ints of more than 4,300 digits)
    are described by their number of digits; ``true``/``false``/``null`` read ja/nein/leer;
    lists and objects are described, not printed.
    """
    if isinstance(value, str):
        head = value[: limit + 1]
        return _clip("".join(" " if ch.isspace() else ch for ch in head), limit)
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if value is None:
        return "leer"
    if isinstance(value, int):
        bits = abs(value).bit_length()
        if bits <= 3 * limit:  # at most about 0.9 × limit digits: safe and short
            return _clip(str(value).replace("-", "\u2212"), limit)
        digits = int(bits * math.log10(2)) + 1
        sign = "\u2212" if value < 0 else ""
        return f"{sign}eine Zahl mit etwa {digits:,} Stellen".replace(",", ".")
    if isinstance(value, float):
        if math.isnan(value):
            return "keine Zahl (NaN)"
        if math.isinf(value):
            return "unendlich" if value > 0 else "minus unendlich"
        return _clip(repr(value).replace(".", ",").replace("-", "\u2212"), limit)
    if isinstance(value, list | tuple):
        return f"eine Liste mit {len(value)} {'Eintrag' if len(value) == 1 else 'Einträgen'}"
    if isinstance(value, dict):
        return f"ein Objekt mit {len(value)} {'Feld' if len(value) == 1 else 'Feldern'}"
    return "ein unbekannter Wert"
