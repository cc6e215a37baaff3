"""Fipsen for the batched engine: the reference game's rules, compiled (see docs/vector.md).

Every variant is batched. Thedinghausen is the only variant that carries state over (the race
and the hedewig pot): ``random_carry`` draws it as the reference does, and ``queue_deals`` can
fix it, as the reference's ``race`` and ``pot`` reset options do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rams_env.core.game import OptionError
from rams_env.games.fipsen.rules import Variant
from rams_env.vector.batch import BatchEnv

SUPPORTED = tuple(Variant)
"""Variants the kernels play; each is cross-checked against the reference (tests/test_vector_fipsen.py)."""


class FipsenBatch(BatchEnv):
    """B Fipsen deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""

    def queue_deals(self, indices: Sequence[int], orders: Any, dealers: Any = None,  # type: ignore[override]
                    races: Any = None, pots: Any = None) -> None:
        """The next deal started in each of ``indices`` uses these cards (see :meth:`BatchEnv.queue_deals`).

        Thedinghausen: ``races[i]`` (every seat's tricks toward the prize) and ``pots[i]`` (hedewigs) apply
        when that deal starts a new episode (None: drawn with random carry, else a race's start), checked
        as the reference checks its ``race`` and ``pot`` reset options.
        """
        idx, order, dealer = self._checked_orders(indices, orders, dealers)
        if (races is not None or pots is not None) and not self.game.thedinghausen:
            raise OptionError("races and pots are carried over in Fipsen's Thedinghausen only")
        pot, race = self._checked_carry(len(idx), pots, races, "race")
        if race is None:
            race = np.full((len(idx), self.num_players), -1)
        self._queue(idx, order, dealer, pending_pot=pot, pending_race=race)
