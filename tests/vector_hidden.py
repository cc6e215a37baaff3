"""The hidden-information check every batched game runs: re-deal what a seat cannot see, in the batch's records.

``assert_hidden(env, shuffle_unseen, steps)`` plays ``steps`` random steps; before each, for every
seat, it re-deals in every deal the cards that seat cannot see (``shuffle_unseen(env, b, seat,
rng)``, written per game) and requires the seat's observations to stay the same. The control puts
another seat's hand in the seat's place, which must change some observations (so the check can fail).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def cards(mask) -> list[int]:
    """The pack indices of a ``uint64`` card set."""
    return [i for i in range(64) if int(mask) >> i & 1]


def assert_hidden(env, shuffle_unseen: Callable, steps: int, seed: int = 3) -> None:
    rng = np.random.default_rng(seed)
    changed_own = 0
    for step in range(steps):
        for seat in range(env.num_players):
            before = env.observe(seat)
            saved = env.deals.copy()
            for b in range(env.num_envs):
                shuffle_unseen(env, b, seat, rng)
            assert np.array_equal(env.observe(seat), before), f"seat {seat} sees hidden cards (step {step})"
            env.deals["hands"][:, seat] = saved["hands"][:, (seat + 1) % env.num_players]  # the control
            changed_own += int((env.observe(seat) != before).any(axis=1).sum())
            env.deals[:] = saved
        env.step(env.sample_actions())
    assert changed_own > 0, "the control (another hand in the seat's place) must change observations"
