"""Checks every batched game's tests share: hidden information, the penalty for a masked-out action."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def cards_of(mask) -> list[int]:
    """The pack indices of a uint64 card set."""
    return [i for i in range(64) if int(mask) >> i & 1]


def assert_hidden(env, shuffle_unseen: Callable, steps: int = 60, seed: int = 3) -> None:
    """Re-dealing, in every deal's record, what a seat cannot see (``shuffle_unseen(env, b, seat, rng)``)
    leaves that seat's observations unchanged, on every step of random play; putting another hand in
    its place (the control) changes them."""
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


def assert_penalty_ends_only_the_offender(env, twin, deal: int = 5, reward: float = -3.0) -> None:
    """``env`` (illegal_action="penalty", illegal_reward=``reward``) and ``twin`` (same seed and moves):
    a masked-out action in ``deal`` ends that deal's episode with ``reward`` for its seat; the others
    play on exactly as the twin's do."""
    actions = env.sample_actions()
    assert np.array_equal(actions, twin.sample_actions())  # both deal streams moved alike
    offender = int(env.to_act[deal])
    actions[deal] = int(np.flatnonzero(env.mask[deal] == 0)[0])
    _, _, _, rewards, done = env.step(actions)
    expected = np.zeros(env.num_players, np.float32)
    expected[offender] = reward
    assert done[deal] and np.array_equal(rewards[deal], expected)
    twin_actions = actions.copy()
    twin_actions[deal] = int(np.flatnonzero(twin.mask[deal])[0])
    twin.step(twin_actions)
    others = np.arange(env.num_envs) != deal
    assert np.array_equal(env.obs[others], twin.obs[others])
