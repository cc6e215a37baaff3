"""The one agent protocol used by scripted agents, checkpoint agents and humans.

An agent sees exactly what its seat may see: the observation vector and action mask
(for learned policies) and the structured seat-relative view of the same information
(for scripted play). It returns a legal action id. It never touches the game state.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Anything that can take a seat at the table."""

    name: str
    # Optional class attributes: ``reads_observation`` / ``reads_view`` = False let evaluators skip
    # building what the agent never reads (evaluation/tournament.py); undeclared means both are read.

    def reset(self, seed: int | None = None) -> None:
        """A new episode begins; seed any private randomness from ``seed``."""

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        """A legal action id (``mask[action] == 1``)."""


def play_episode(env, agents: list[Agent], seed: int | None = None, options: dict | None = None) -> list[float]:
    """Play one episode of an AEC rams env with one agent per seat; returns each seat's total reward."""
    env.reset(seed=seed, options=options)
    raw = env.unwrapped
    for i, agent in enumerate(agents):
        agent.reset(None if seed is None else seed * 1009 + i)
    totals = {a: 0.0 for a in raw.possible_agents}
    for name in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[name] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = raw.possible_agents.index(name)
        env.step(agents[seat].act(obs["observation"], obs["action_mask"], raw.view(name)))
    return [totals[a] for a in raw.possible_agents]
