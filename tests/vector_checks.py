"""Checks every batched game's tests share: hidden information, refused and penalised actions, the AEC spaces."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

import rams_env
import rams_env.vector as vector


def cards_of(mask) -> list[int]:
    """The pack indices of a uint64 card set."""
    return [i for i in range(64) if int(mask) >> i & 1]


def redeal(env, b: int, places: list[tuple[str, int | None]], rng: np.random.Generator,
           stock_from: int | None = None) -> None:
    """Shuffle among themselves, in deal ``b``'s record, the cards of ``places`` (``(field, seat)``, seat None
    for a card set of the deal) and the undealt cards ``order[stock_from:]``; every place keeps its size."""
    deals = env.deals
    held = [cards_of(deals[f][b] if s is None else deals[f][b, s]) for f, s in places]
    stock = [] if stock_from is None else deals["order"][b, stock_from:].tolist()
    pool = rng.permutation([c for group in held for c in group] + stock).tolist()
    for (f, s), group in zip(places, held, strict=True):
        mask = sum(1 << c for c in pool[:len(group)])
        pool = pool[len(group):]
        if s is None:
            deals[f][b] = mask
        else:
            deals[f][b, s] = mask
    if stock_from is not None:
        deals["order"][b, stock_from:] = pool


def others(n: int, seat: int, *fields: str) -> list[tuple[str, int]]:
    """The places ``(field, s)`` of every seat but ``seat``."""
    return [(f, s) for f in fields for s in range(n) if s != seat]


def assert_hidden(game: str, shuffle_unseen: Callable, steps: int = 60, seed: int = 3, **options) -> None:
    """Re-dealing, in every deal's record, what a seat cannot see (``shuffle_unseen(env, b, seat, rng)``)
    leaves that seat's observations unchanged, on every step of random play; putting another hand in
    its place (the control) changes them. ``options``: ``vector.make``'s, for 64 deals."""
    env = vector.make(game, num_envs=64, **options)
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


def stepped(game: str, num_envs: int = 16, steps: int = 5, seed: int = 11, **options) -> vector.BatchEnv:
    """A batch of ``game`` reset with ``seed`` and stepped ``steps`` times with random legal actions."""
    env = vector.make(game, num_envs=num_envs, **options)
    env.reset(seed=seed)
    for _ in range(steps):
        env.step_random()
    return env


def assert_aec_spaces(game: str, num_players: int | None = None, **rules) -> None:
    """The batched observations and actions are the AEC env's: sizes and every action label."""
    env = vector.make(game, num_envs=4, num_players=num_players, **rules)
    aec = rams_env.make(game, num_players, **rules)
    assert env.obs_size == aec.observation_space("player_0")["observation"].shape[0]
    assert env.num_actions == aec.action_space("player_0").n
    assert [env.action_label(a) for a in range(env.num_actions)] == list(aec.unwrapped.game.actions.labels)


def refused(env, masked: Sequence[int] = (), out_of_range: Sequence[int] = (), negative: Sequence[int] = ()) -> str:
    """A step with a masked-out action in the ``masked`` deals, ``num_actions`` in ``out_of_range`` and -1 in
    ``negative`` is refused naming each deal (its seat, action and why) and changes nothing; returns the message."""
    actions = env.sample_actions()
    for b in masked:
        actions[b] = int(np.flatnonzero(env.mask[b] == 0)[0])
    actions[list(out_of_range)] = env.num_actions
    actions[list(negative)] = -1
    saved, obs = env.deals.copy(), env.obs.copy()
    with pytest.raises(vector.IllegalActionsError) as err:
        env.step(actions)
    text = str(err.value)
    for b in masked:
        a = int(actions[b])
        assert f"deal {b}: player_{env.to_act[b]} action {a} ({env.action_label(a)}) is not legal now" in text
    for b in out_of_range:
        why = f"action {env.num_actions} out of range 0..{env.num_actions - 1}"
        assert f"deal {b}: player_{env.to_act[b]} {why}" in text
    assert np.array_equal(env.deals, saved) and np.array_equal(env.obs, obs)
    return text


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
