"""Tippen for the batched engine: the reference game's rules, compiled (see docs/vector.md).

Every preset and option of the reference is batched (``spec.supported_presets()``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rams_env.core.game import OptionError
from rams_env.vector.batch import BatchEnv
from rams_env.vector.tippen.spec import supported_presets
from rams_env.vector.tippen.state import NOT_GIVEN

__all__ = ["TippenBatch", "supported_presets"]


class TippenBatch(BatchEnv):
    """B Tippen deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""

    def queue_deals(self, indices: Sequence[int], orders: Any, dealers: Any = None, pots: Any = None,
                    hops: Any = None) -> None:
        """The next deal started in each of ``indices`` uses these cards (see ``BatchEnv.queue_deals``).

        ``orders[i]``: hands seat by seat from its front, then the turned trump card, then the talon
        (top first). ``dealers`` and ``pots`` (chips in the pot, the reference's reset option
        ``pot``) apply when that deal starts a new episode (None: drawn). ``hops``: with hop and jump,
        the cuts that pass the deal on before it (None: cut at random), so a reference deal replays exactly.
        """
        idx, order, dealer = self._checked_orders(indices, orders, dealers)
        pot = np.full(len(idx), NOT_GIVEN)
        if pots is not None:
            pot = np.asarray(pots, np.int64).reshape(len(idx))
            if (pot < 0).any():
                raise OptionError(f"pots must be whole numbers >= 0 (the reference's option 'pot'), got {pot.tolist()}")
        hop = np.full(len(idx), NOT_GIVEN) if hops is None else np.asarray(hops, np.int64).reshape(len(idx))
        if ((hop < NOT_GIVEN) | (hop >= self.num_players)).any():
            raise OptionError(f"hops must be 0..{self.num_players - 1} (or -1: cut at random), got {hop.tolist()}")
        self._queue(idx, order, dealer, pending_pot=pot, pending_hops=hop)
