"""Lupfen for the batched engine: the reference game's rules, compiled (see docs/vector.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rams_env.core.game import OptionError
from rams_env.vector.batch import BatchEnv


class LupfenBatch(BatchEnv):
    """B Lupfen deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""

    def queue_deals(self, indices: Sequence[int], orders: Any = None, dealers: Any = None,  # type: ignore[override]
                    pots: Any = None) -> None:
        """Fix what comes next in the slots ``indices``: the cards of their next deal, the start of their next episode.

        ``orders[i]`` (a permutation of the pack indices 0..19: hands dealt from its front seat by
        seat, then the stock, top first, its top card turned) is used by the slot's next deal,
        a redeal after a scrap or a shoving dealer's deal included. ``dealers`` and ``pots`` (the
        carried-over pot) apply when the slot next starts an episode (-1 or None: drawn).
        Lupfen deals its cards only when the shoving dealer deals, so both are queued apart.
        """
        idx = np.asarray(indices, np.int64).reshape(-1)
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_envs):
            raise ValueError(f"deal indices must be 0..{self.num_envs - 1}")
        d, cards = self.deals, self.deals["order"].shape[1]
        if orders is not None:
            order = np.asarray(orders).reshape(len(idx), cards)
            if (np.sort(order, axis=1) != np.arange(cards)).any():
                raise OptionError(f"each order must be a permutation of the pack indices 0..{cards - 1}")
        if dealers is None and pots is None:
            starts = None
        else:
            starts = [self._start(dealers, len(idx), self.num_players, "dealers"), self._start(pots, len(idx), None,
                                                                                              "pots")]
            for pot in starts[1]:  # the reference's own check of a carried-over pot
                if pot >= 0:
                    self.game.new_session(np.random.default_rng(0), 0, {"pot": int(pot)})
        if orders is not None:
            d["pending_order"][idx] = order
            d["pending"][idx] = True
        if starts is not None:
            d["pending_dealer"][idx], d["pending_pot"][idx] = starts
            d["pending_start"][idx] = True

    @staticmethod
    def _start(given: Any, size: int, limit: int | None, name: str) -> np.ndarray:
        values = np.full(size, -1, np.int64) if given is None else np.asarray(given, np.int64).reshape(size)
        if (values < -1).any() or (limit is not None and (values >= limit).any()):
            raise OptionError(f"{name} must be " + (f"seats 0..{limit - 1}" if limit else "whole numbers >= 0")
                              + " (or -1: drawn)")
        return values
