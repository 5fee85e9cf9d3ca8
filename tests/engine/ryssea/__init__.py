"""Tests of the Ryssea rule system (regeln/ryssea/)."""
