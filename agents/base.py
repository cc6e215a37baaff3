"""The one agent protocol used by scripted agents, checkpoint agents and humans.

An agent sees exactly what its seat may see: the observation vector and action mask
(for learned policies) and the structured seat-relative view of the same information
(for scripted play). It returns a legal action id. It never touches the game state, except
the search agent, which re-deals it (``searches`` below).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Anything that can take a seat at the table."""

    name: str
    # Optional class attributes: ``reads_observation`` / ``reads_view`` = False let evaluators skip
    # building what the agent never reads (agents/table.py); undeclared means both are read.
    # ``searches = True``: the one exception to "never touches the game state", the search agent
    # (agents/search.py). The deal loop asks its ``act_at(state)`` instead of ``act``; it may use the cards
    # its seat cannot see only through ``Game.shuffle_unseen``, which deals them again without looking where
    # they lie (tests/test_search_agent.py swaps them and asserts the same choices).

    def reset(self, seed: int | None = None) -> None:
        """A new episode begins; seed any private randomness from ``seed``."""

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        """A legal action id (``mask[action] == 1``)."""
