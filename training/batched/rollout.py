"""The multi-seat rollout buffer and GAE for turn-based deals with several learner seats.

A learner decision's reward is its seat's rewards summed from the decision until that seat's
next decision or the end of the deal (``rewards[b, s]`` arrive every step for every seat, stakes
when a deal ends). Per (slot, seat) the buffer keeps the index of the seat's pending decision:
every step's rewards are added to it, the seat's next decision links it (``next``), the deal's
end marks it terminal. Rewards that reach a seat before its first decision of a deal (antes) go
to that first decision.

GAE runs backwards over the links: ``delta = r + gamma * V(next) - V``, ``A = delta + gamma *
lambda * A(next)`` (no ``next`` term after a terminal decision). A decision whose seat has not
decided again by the rollout's end is *not* bootstrapped (the state at the rollout's end is
another seat's turn, and its value is not this seat's): it is carried over into the next rollout
and completes there, with the log-probability and value the behaviour policy gave it (PPO's ratio
corrects for the update in between). A complete decision whose next decision is still pending
is bootstrapped with that decision's value (truncated GAE, as at any rollout's end).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from training.batched.sparse import SparseObs, sparse_rows

NONE = -1
"""No decision (an empty pending entry, a decision without a next one yet)."""
LINKED = ("mask", "actions", "log_probs", "values", "rewards", "next", "terminal")
"""The per-decision columns beside the observation."""


@dataclass
class Batch:
    """The complete decisions of a rollout, ready for the PPO update."""

    obs: SparseObs | np.ndarray  # as their non-zero entries (the buffer's), or dense (N, obs_size)
    mask: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


class RolloutBuffer:
    """Decisions of the learner's seats in insertion order, linked per (slot, seat).

    Observations are kept as their non-zero entries (``obs_index``, ``obs_value``: sparse.py's padded rows), as the
    rollout's forward already computed them: a general Toepen observation has at most 70 non-zero floats of 864, so
    the buffer holds a sixth of the bytes of dense rows (46 MB against 287 for the general Toepen config), and the
    update reads the batch's entries without converting it (docs/results.md). The width grows to the widest row
    added."""

    def __init__(self, capacity: int, num_slots: int, max_players: int, num_actions: int) -> None:
        self.capacity = capacity
        self.obs_index = np.zeros((capacity, 0), np.int32)
        self.obs_value = np.zeros((capacity, 0), np.float32)
        self.mask = np.zeros((capacity, num_actions), bool)
        self.actions = np.zeros(capacity, np.int64)
        self.log_probs = np.zeros(capacity, np.float32)
        self.values = np.zeros(capacity, np.float32)
        self.rewards = np.zeros(capacity, np.float32)
        self.next = np.full(capacity, NONE, np.int64)
        self.terminal = np.zeros(capacity, bool)
        self.pending = np.full((num_slots, max_players), NONE, np.int64)
        self.early = np.zeros((num_slots, max_players), np.float32)  # rewards before the seat's first decision
        self.size = 0
        self.blocks: list[tuple[int, int]] = []  # [start, end) of the decisions added by each call to add()

    def clear(self) -> None:
        """Forget every decision (the deals start afresh)."""
        self.pending[:] = NONE
        self.early[:] = 0.0
        self.size = 0
        self.blocks = []

    def add(self, slots: np.ndarray, seats: np.ndarray, obs: SparseObs | np.ndarray, mask: np.ndarray,
            actions: np.ndarray, log_probs: np.ndarray, values: np.ndarray) -> None:
        """The decisions just taken by the learner's seats ``seats`` in ``slots``; ``obs`` as the forward's
        SparseObs (dense rows are converted)."""
        start, end = self.size, self.size + len(slots)
        if end > self.capacity:
            raise RuntimeError(f"rollout buffer full: {end} decisions > capacity {self.capacity}")
        self._put_obs(start, end, obs if isinstance(obs, SparseObs) else sparse_rows(torch.from_numpy(obs)))
        index = np.arange(start, end)
        previous = self.pending[slots, seats]
        linked = previous != NONE
        self.next[previous[linked]] = index[linked]
        self.mask[start:end], self.actions[start:end] = mask, actions
        self.log_probs[start:end], self.values[start:end] = log_probs, values
        self.rewards[start:end] = self.early[slots, seats]
        self.early[slots, seats] = 0.0
        self.next[start:end], self.terminal[start:end] = NONE, False
        self.pending[slots, seats] = index
        self.blocks.append((start, end))
        self.size = end

    def _put_obs(self, start: int, end: int, obs: SparseObs) -> None:
        """Rows ``start:end`` of the observations become ``obs``'s, the rest of each row padding."""
        width = obs.index.shape[1]
        if width > self.obs_index.shape[1]:  # a wider row than any before: widen every row (rare)
            grow = ((0, 0), (0, width - self.obs_index.shape[1]))
            self.obs_index, self.obs_value = np.pad(self.obs_index, grow), np.pad(self.obs_value, grow)
        self.obs_index[start:end, :width], self.obs_value[start:end, :width] = obs.index.numpy(), obs.value.numpy()
        self.obs_index[start:end, width:], self.obs_value[start:end, width:] = 0, 0.0

    def observations(self, rows: np.ndarray | slice) -> SparseObs:
        """The observations of ``rows`` as a SparseObs as wide as the widest of them (padding columns cost the
        first layer time: it reads every entry)."""
        value = self.obs_value[rows]
        width = int((value != 0).sum(1).max()) if len(value) else 0
        return SparseObs(torch.from_numpy(np.ascontiguousarray(self.obs_index[rows, :width])),
                         torch.from_numpy(np.ascontiguousarray(value[:, :width])))

    def reward(self, rewards: np.ndarray, done: np.ndarray) -> None:
        """Every seat's rewards of a step (``(B, max_players)``) and the slots whose deal ended."""
        waiting = self.pending != NONE
        self.rewards[self.pending[waiting]] += rewards[waiting]
        self.early[~waiting] += rewards[~waiting]
        ended = waiting & done[:, None]
        self.terminal[self.pending[ended]] = True
        self.pending[done] = NONE
        self.early[done] = 0.0

    def complete(self) -> np.ndarray:
        """Which stored decisions have their reward settled (a next decision or the deal's end)."""
        return (self.next[:self.size] != NONE) | self.terminal[:self.size]

    def state(self) -> dict[str, np.ndarray]:
        """The decisions held (between rollouts: the carried-over ones) and the per-seat links, as arrays; the
        observations as their non-zero entries (``index``, ``value``: a few percent of the dense rows)."""
        size = self.size
        sparse = self.observations(slice(0, size))
        index, value = sparse.index.numpy(), sparse.value.numpy()
        columns = {name: getattr(self, name)[:size].copy() for name in LINKED}
        return {"obs_index": index, "obs_value": value, **columns, "pending": self.pending.copy(),
                "early": self.early.copy(), "blocks": np.array(self.blocks, np.int64).reshape(-1, 2)}

    def load_state(self, state: dict[str, np.ndarray]) -> None:
        """Restore :meth:`state` (a ValueError if it does not fit this buffer)."""
        size = len(state["actions"])
        if size > self.capacity or state["pending"].shape != self.pending.shape:
            raise ValueError(f"saved rollout of {size} decisions and {state['pending'].shape} seats does not fit "
                             f"a buffer of {self.capacity} and {self.pending.shape}")
        self._put_obs(0, size, SparseObs(torch.from_numpy(state["obs_index"].astype(np.int32)),
                                         torch.from_numpy(state["obs_value"].astype(np.float32))))
        for name in LINKED:
            getattr(self, name)[:size] = state[name]
        self.pending[:], self.early[:] = state["pending"], state["early"]
        self.blocks = [(int(a), int(b)) for a, b in state["blocks"]]
        self.size = size

    def advantages(self, gamma: float, gae_lambda: float) -> np.ndarray:
        """GAE of every stored decision (0 for those still pending), block by block from the last."""
        advantages = np.zeros(self.size + 1, np.float32)  # the extra entry: A of "no next decision" = 0
        values = np.append(self.values[:self.size], np.float32(0.0))
        complete = self.complete()
        for start, end in reversed(self.blocks):
            following = self.next[start:end]  # NONE (-1) reads the extra zero entry
            going_on = ~self.terminal[start:end]
            delta = self.rewards[start:end] + gamma * values[following] * going_on - values[start:end]
            gae = delta + gamma * gae_lambda * going_on * advantages[following]
            advantages[start:end] = np.where(complete[start:end], gae, 0.0)
        return advantages[:self.size]

    def take(self, gamma: float, gae_lambda: float) -> Batch:
        """The complete decisions with their advantages and returns; the pending ones move to the front."""
        advantages = self.advantages(gamma, gae_lambda)
        done = np.flatnonzero(self.complete())
        batch = Batch(self.observations(done), self.mask[done], self.actions[done], self.log_probs[done],
                      self.values[done], advantages[done], advantages[done] + self.values[done])
        self._carry_over()
        return batch

    def _carry_over(self) -> None:
        """Keep only the pending decisions, at indices 0..k-1, as one block, with ``pending`` renumbered."""
        waiting = self.pending != NONE
        keep = self.pending[waiting]  # the pending decisions are exactly the incomplete ones
        order = np.argsort(keep)
        kept = keep[order]
        count = len(kept)
        for column in (self.obs_index, self.obs_value, self.mask, self.actions, self.log_probs, self.values,
                       self.rewards):
            column[:count] = column[kept]
        self.next[:count], self.terminal[:count] = NONE, False
        renumbered = np.empty(count, np.int64)
        renumbered[order] = np.arange(count)
        self.pending[waiting] = renumbered
        self.size = count
        self.blocks = [(0, count)] if count else []
