"""Toepen for the batched engine: the reference game's rules, compiled (see docs/vector.md)."""

from __future__ import annotations

from rams_env.vector.batch import BatchEnv


class ToepenBatch(BatchEnv):
    """B Toepen deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""
