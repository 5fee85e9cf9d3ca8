"""Importing this package registers every rule system's actions."""

from engine.systems import ryssea

__all__ = ["ryssea"]
