"""German number formatting for everything a player reads.

Decimal comma, ``.`` as thousands separator, the real minus sign ``−`` (U+2212) and a
no-break space (U+00A0) before ``%``. Rounding is "half up" (half away from zero), never the
banker's rounding of :func:`round`, so ``percent(Fraction(1, 8), 0)`` is ``"13 %"``.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["MINUS", "NBSP", "decimal", "fraction_text", "number", "percent", "signed"]

MINUS = "\u2212"
"""The minus sign used in every displayed number."""
NBSP = "\u00a0"
"""No-break space, between a number and ``%`` (and after ``<``/``>``)."""


def _grouped(digits: str) -> str:
    """``"1234567"`` → ``"1.234.567"``."""
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return ".".join(groups)


def number(n: int) -> str:
    """An integer: ``"−12"``, ``"1.234"``, ``"0"``."""
    text = _grouped(str(abs(n)))
    return MINUS + text if n < 0 else text


def signed(n: int) -> str:
    """An integer with its sign always shown: ``"+3"``, ``"−3"``, ``"±0"``."""
    if n == 0:
        return "±0"
    return "+" + number(n) if n > 0 else number(n)


def fraction_text(p: Fraction | int) -> str:
    """A fraction in lowest terms: ``"5/8"``, ``"1"``, ``"0"``, ``"−1/3"``."""
    value = Fraction(p)
    if value.denominator == 1:
        return number(value.numerator)
    return f"{number(value.numerator)}/{number(value.denominator)}"


def parse_fraction(text: str) -> Fraction:
    """The inverse of :func:`fraction_text`: ``"1.234/5.678"`` → ``Fraction(617, 2839)``."""
    return Fraction(text.replace(".", "").replace(MINUS, "-"))


def _check_digits(digits: int) -> None:
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 0:
        raise ValueError(f"digits must be a non-negative int, got {digits!r}")


def _scaled(x: Fraction, digits: int) -> int:
    """``|x|`` in units of ``10**-digits``, rounded half up."""
    scale: int = 10**digits
    scaled = abs(x) * scale
    return (2 * scaled.numerator + scaled.denominator) // (2 * scaled.denominator)


def _fixed(x: Fraction, digits: int, strip: bool) -> str:
    units = _scaled(x, digits)
    whole, part = divmod(units, 10**digits)
    fraction_digits = str(part).zfill(digits) if digits else ""
    if strip:
        fraction_digits = fraction_digits.rstrip("0")
    text = _grouped(str(whole))
    if fraction_digits:
        text += "," + fraction_digits
    return MINUS + text if x < 0 and units else text


def decimal(x: Fraction | int, digits: int = 2) -> str:
    """A decimal with at most ``digits`` places, trailing zeros removed:
    ``Fraction(7, 2)`` → ``"3,5"``, ``Fraction(10, 3)`` → ``"3,33"``, ``4`` → ``"4"``."""
    _check_digits(digits)
    return _fixed(Fraction(x), digits, strip=True)


def percent(p: Fraction | int, digits: int = 1) -> str:
    """A probability as a percentage with ``digits`` places: ``Fraction(5, 8)`` → ``"62,5 %"``.

    Exactly 0 and 1 are ``"0 %"`` and ``"100 %"``; a value that is not exactly 0 (or 1) never
    shows as 0 (or 100): ``"< 0,1 %"``, ``"> 99,9 %"``.
    """
    _check_digits(digits)
    value = Fraction(p)
    if value == 0:
        return f"0{NBSP}%"
    if value == 1:
        return f"100{NBSP}%"
    percentage = value * 100
    step = Fraction(1, 10**digits)
    units = _scaled(percentage, digits)
    if units == 0:
        if value > 0:
            return f"<{NBSP}{_fixed(step, digits, strip=False)}{NBSP}%"
        return f">{NBSP}{_fixed(-step, digits, strip=False)}{NBSP}%"
    if 0 < value < 1 and units == 100 * 10**digits:
        return f">{NBSP}{_fixed(100 - step, digits, strip=False)}{NBSP}%"
    return f"{_fixed(percentage, digits, strip=False)}{NBSP}%"
