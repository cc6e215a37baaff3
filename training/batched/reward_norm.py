"""Per-table reward normalisation for a learner that trains at many tables at once (``reward_norm: per_table``).

A general run mixes tables whose deals pay very different amounts: in Tippen a modern table moves about ten
times the chips of a historic table with forced stakes. PPO normalises advantages over each minibatch, so the
tables that pay little barely move the policy, and the value loss is ruled by the tables that pay much. This
divides each table's rewards by a running estimate of the spread of its deals' payoffs (the root of the mean
squared payoff of a seat's deal), so every table weighs about the same: the "ART" half of PopArt (Hessel et al.,
"Multi-task deep reinforcement learning with PopArt", AAAI 2019), without re-scaling the value head (the
estimate moves slowly, so the value targets drift slowly too).
"""

from __future__ import annotations

import numpy as np

REWARD_NORMS = ("none", "per_table")
"""The values of ``batched.reward_norm``."""


class TableRewardScale:
    """Running mean squared payoff of a seat's deal at each table; ``__call__`` scales a step's rewards by it."""

    def __init__(self, table_of_slot: np.ndarray, num_players: np.ndarray, max_players: int,
                 rate: float = 0.01, floor: float = 0.01) -> None:
        self.table_of_slot = np.asarray(table_of_slot)
        self.num_tables = int(self.table_of_slot.max()) + 1
        self.seated = np.arange(max_players)[None, :] < np.asarray(num_players)[:, None]  # (B, max_players)
        self.rate, self.floor = float(rate), float(floor)
        self.second_moment = np.ones(self.num_tables)  # until a table's first deals end: scale 1
        self.seen = np.zeros(self.num_tables, bool)
        self.returns = np.zeros(self.seated.shape)  # each seat's payoff so far in the deal under way

    @property
    def scale(self) -> np.ndarray:
        """(tables,) the divisor of each table's rewards."""
        return np.sqrt(np.maximum(self.second_moment, self.floor ** 2))

    def __call__(self, rewards: np.ndarray, done: np.ndarray) -> np.ndarray:
        """``rewards`` (B, max_players) divided by their table's scale; the deals that end here then update it."""
        scaled = (rewards / self.scale[self.table_of_slot][:, None]).astype(np.float32)
        self.returns += rewards
        if done.any():
            self._update(done)
            self.returns[done] = 0.0
        return scaled

    def _update(self, done: np.ndarray) -> None:
        """Each table's mean squared seat payoff over the deals that just ended, folded into its estimate."""
        tables = self.table_of_slot[done]
        squares = np.where(self.seated[done], self.returns[done] ** 2, 0.0).sum(1)
        seats = self.seated[done].sum(1)
        total = np.bincount(tables, squares, self.num_tables)
        count = np.bincount(tables, seats, self.num_tables)
        ended = count > 0
        mean = total[ended] / count[ended]
        weight = np.where(self.seen[ended], np.minimum(1.0, self.rate * count[ended]), 1.0)
        self.second_moment[ended] += weight * (mean - self.second_moment[ended])
        self.seen |= ended

    def state(self) -> dict[str, np.ndarray]:
        return {"second_moment": self.second_moment.copy(), "seen": self.seen.copy(), "returns": self.returns.copy()}

    def load_state(self, state: dict[str, np.ndarray]) -> None:
        for key in ("second_moment", "seen", "returns"):
            value = np.asarray(state[key])
            if value.shape != getattr(self, key).shape:
                raise ValueError(f"reward_norm {key} has shape {value.shape}, this run {getattr(self, key).shape}")
            getattr(self, key)[...] = value
