"""Brute force for the probability checks: enumerate every outcome of a set of dice."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction


def outcomes(sides: Sequence[int]) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every combination of faces of the given dice, each with its (equal) probability."""
    weight = Fraction(1)
    for s in sides:
        weight /= s
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        yield faces, weight


def chance(sides: Sequence[int], event: Callable[[tuple[int, ...]], bool]) -> Fraction:
    """Probability that ``event(faces)`` holds, by enumerating all faces."""
    return sum((w for faces, w in outcomes(sides) if event(faces)), Fraction(0))


def expectation(
    sides: Sequence[int], value: Callable[[tuple[int, ...]], Fraction | int]
) -> Fraction:
    return sum((w * value(faces) for faces, w in outcomes(sides)), Fraction(0))


def distribution(
    sides: Sequence[int], value: Callable[[tuple[int, ...]], int]
) -> dict[int, Fraction]:
    """The exact distribution of ``value(faces)`` over every combination of faces (values of
    chance 0 left out)."""
    out: dict[int, Fraction] = {}
    for faces, weight in outcomes(sides):
        v = value(faces)
        out[v] = out.get(v, Fraction(0)) + weight
    return {v: p for v, p in out.items() if p}
