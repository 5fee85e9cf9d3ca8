"""Tests of the Ryssea rule system (engine/systems/ryssea/)."""
