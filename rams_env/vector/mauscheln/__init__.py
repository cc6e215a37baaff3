"""Mauscheln for the batched engine: the reference game's rules, compiled (see docs/vector.md)."""

from __future__ import annotations

from rams_env.vector.potgame import PotBatch


class MauschelnBatch(PotBatch):
    """B Mauscheln deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""
