"""A seeded random agent: uniform over the legal actions, with its own generator."""

from __future__ import annotations

from typing import Any

import numpy as np


class RandomAgent:
    """Uniform over legal actions; reproducible from ``seed`` (never the global numpy RNG)."""

    reads_observation = False  # only the mask: evaluators may skip encoding the observation and view
    reads_view = False

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("RandomAgent asked to act with an empty action mask")
        return int(legal[self._rng.integers(len(legal))])
