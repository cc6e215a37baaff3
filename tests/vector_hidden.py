"""The hidden-information property of a batched engine: what a seat observes must not depend on cards it cannot see.

Shared by the batched games' tests: each supplies how to re-deal, inside one deal's record, the
cards a seat cannot see; the control (another seat's hand in the seat's place) must change
observations, so the check cannot pass by observing nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Shuffle = Callable[[object, int, int, np.random.Generator], None]
"""``shuffle(env, deal, seat, rng)`` re-deals in ``env.deals[deal]`` the cards ``seat`` cannot see."""


def assert_hidden_cards_unseen(env, shuffle_unseen: Shuffle, steps: int, seed: int) -> None:
    """Over ``steps`` random steps, every seat's observation survives re-dealing what it cannot see."""
    env.reset(seed=seed)
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
