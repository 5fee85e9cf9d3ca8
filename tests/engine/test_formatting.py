"""Tests for engine.formatting: German number display.

Source: the task brief (German decimal comma, "." for thousands, U+2212 minus, U+00A0 before
"%", round half up, "< 0,1 %" for tiny non-zero values). Not game rules.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.formatting import MINUS, NBSP, decimal, fraction_text, number, percent, signed

F = Fraction


@pytest.mark.parametrize(
    ("p", "digits", "text"),
    [
        (F(5, 8), 1, "62,5\u00a0%"),
        (F(1, 2), 1, "50,0\u00a0%"),
        (F(1, 3), 1, "33,3\u00a0%"),
        (F(2, 3), 1, "66,7\u00a0%"),
        (F(3, 100), 1, "3,0\u00a0%"),
        (F(1, 16), 1, "6,3\u00a0%"),  # 6.25 rounds half up
        (F(1, 8), 0, "13\u00a0%"),  # 12.5 rounds half up (not to even)
        (F(5, 8), 0, "63\u00a0%"),
        (F(1, 3), 2, "33,33\u00a0%"),
        (F(1, 1000), 1, "0,1\u00a0%"),
        (F(1, 2000), 1, "0,1\u00a0%"),  # 0.05 rounds half up
        (F(1, 2001), 1, "<\u00a00,1\u00a0%"),
        (F(1, 6**100), 1, "<\u00a00,1\u00a0%"),
        (F(1, 1000), 0, "<\u00a01\u00a0%"),
        (F(1, 10**6), 2, "<\u00a00,01\u00a0%"),
        (F(0), 1, "0\u00a0%"),
        (F(0), 3, "0\u00a0%"),
        (F(1), 1, "100\u00a0%"),
        (F(1), 0, "100\u00a0%"),
        (F(999, 1000), 1, "99,9\u00a0%"),
        (F(9999, 10000), 1, ">\u00a099,9\u00a0%"),
        (F(1999, 2000), 1, ">\u00a099,9\u00a0%"),  # 99.95 would round half up to 100,0
        (F(1999, 2000) - F(1, 10**9), 1, "99,9\u00a0%"),
        (F(199, 200), 0, ">\u00a099\u00a0%"),
        (F(3, 2), 1, "150,0\u00a0%"),
        (F(25), 0, "2.500\u00a0%"),
        (F(-1, 4), 1, "\u221225,0\u00a0%"),
        (F(-1, 10**5), 1, ">\u00a0\u22120,1\u00a0%"),
        (0, 1, "0\u00a0%"),
        (1, 1, "100\u00a0%"),
    ],
)
def test_percent(p: Fraction, digits: int, text: str) -> None:
    assert percent(p, digits) == text


def test_percent_default_digits_and_constants() -> None:
    assert percent(F(5, 8)) == "62,5\u00a0%"
    assert MINUS == "\u2212"
    assert NBSP == "\u00a0"


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (F(5, 8), "5/8"),
        (F(10, 16), "5/8"),
        (F(1), "1"),
        (F(0), "0"),
        (F(-1, 3), "\u22121/3"),
        (F(1, 1296), "1/1.296"),
        (F(7, 2), "7/2"),
        (3, "3"),
    ],
)
def test_fraction_text(p: Fraction, text: str) -> None:
    assert fraction_text(p) == text


@pytest.mark.parametrize(
    ("n", "text"),
    [(3, "+3"), (-3, "\u22123"), (0, "±0"), (1234, "+1.234"), (-10_000, "\u221210.000")],
)
def test_signed(n: int, text: str) -> None:
    assert signed(n) == text


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0"),
        (7, "7"),
        (-12, "\u221212"),
        (999, "999"),
        (1000, "1.000"),
        (1234, "1.234"),
        (-1234, "\u22121.234"),
        (1_234_567, "1.234.567"),
        (100_000, "100.000"),
    ],
)
def test_number(n: int, text: str) -> None:
    assert number(n) == text


@pytest.mark.parametrize(
    ("x", "digits", "text"),
    [
        (F(7, 2), 2, "3,5"),
        (F(10, 3), 2, "3,33"),
        (F(20, 3), 2, "6,67"),
        (F(4), 2, "4"),
        (F(1, 200), 2, "0,01"),  # 0.005 rounds half up
        (F(1, 201), 2, "0"),
        (F(-1, 1000), 2, "0"),  # no "−0"
        (F(-7, 2), 2, "\u22123,5"),
        (F(-5, 2), 0, "\u22123"),  # half away from zero
        (F(5, 2), 0, "3"),
        (F(12345, 2), 1, "6.172,5"),
        (F(143, 20), 2, "7,15"),
        (F(1, 3), 5, "0,33333"),
        (2, 2, "2"),
    ],
)
def test_decimal(x: Fraction, digits: int, text: str) -> None:
    assert decimal(x, digits) == text


def test_bad_digits() -> None:
    with pytest.raises(ValueError):
        percent(F(1, 2), -1)
    with pytest.raises(ValueError):
        decimal(F(1, 2), -1)


PERCENT = re.compile(r"^(?:[<>]\u00a0)?(?:0|[1-9]\d{0,2})(?:\.\d{3})*(?:,\d)?\u00a0%$")


@given(st.fractions(min_value=0, max_value=1))
def test_percent_shape_and_value(p: Fraction) -> None:
    text = percent(p)
    assert PERCENT.match(text), text
    if p in (0, 1):
        assert text in ("0\u00a0%", "100\u00a0%")
        return
    assert text not in ("0,0\u00a0%", "100,0\u00a0%", "0\u00a0%", "100\u00a0%")
    if text[0] in "<>":
        # below 0,05 % or from 99,95 % on (rounded half up: 0,1 % and 100,0 %)
        assert (p < F(1, 2000)) if text[0] == "<" else (p >= F(1_999, 2_000))
        return
    shown = F(text.replace("\u00a0%", "").replace(",", ".")) / 100
    assert abs(shown - p) <= F(1, 2000)


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_number_round_trip(n: int) -> None:
    text = number(n)
    assert int(text.replace(".", "").replace(MINUS, "-")) == n
    assert signed(n).lstrip("+±") == text


@given(st.fractions(min_value=-1000, max_value=1000), st.integers(0, 6))
def test_decimal_round_trip(x: Fraction, digits: int) -> None:
    text = decimal(x, digits)
    assert not text.endswith(",") and not ("," in text and text.endswith("0"))
    shown = F(text.replace(".", "").replace(",", ".").replace(MINUS, "-"))
    assert abs(shown - x) <= F(1, 2 * 10**digits)
