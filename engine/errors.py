"""The engine's one error type: a German message that names the field it is about."""

from __future__ import annotations


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
