"""The batched Mauscheln engine (rams_env.vector) against the reference engine, and its API.

The cross-check plays the same deals with the same random actions in both engines and
compares observations, masks, seats to act, dealers, bankrolls, the pot, rewards, episode
ends and settlements on every step (tests/vector_reference_mauscheln.py). ``RAMS_VECTOR_DEALS``
deals per preset and table size (default 300, CI 2000); the slow tier runs only when
``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_mauscheln.py``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from rams_env.games.mauscheln.rules import MauschelnRules  # noqa: E402
from rams_env.vector.mauscheln.spec import CARRY_POTS  # noqa: E402
from tests import tiers  # noqa: E402
from tests.vector_checks import assert_hidden, assert_penalty_ends_only_the_offender, cards_of  # noqa: E402
from tests.vector_reference_mauscheln import crosscheck  # noqa: E402

DEALS = int(os.environ.get("RAMS_VECTOR_DEALS", "300"))
SLOW_DEALS = int(os.environ.get("RAMS_VECTOR_SLOW_DEALS", "0"))
PRESETS = MauschelnRules.preset_names()


def _tables(preset: str) -> tuple[int, ...]:
    """Every table size the preset allows."""
    lo, hi = rams_env.make_game("mauscheln", preset=preset).player_range()
    return tuple(range(lo, hi + 1))


CASES = [(preset, n) for preset in PRESETS for n in _tables(preset)]
VARIANTS = {  # rule options no preset sets, each crossing a branch of the rules
    "pinke_shares": {"trick_share": "pinke", "pinke": 8},
    "belli_penalty": {"belli": True, "belli_penalty": 3, "dealer_knock": True, "knock_ranks": ("A", "K", "Q")},
    "small_exchange": {"max_exchange": 1, "quartets": True, "dealer_knock": True},
    "no_exchange": {"max_exchange": 0, "dealer_knock": True},
}


@tiers.parametrize("preset,n", CASES, lambda p, n: p == tiers.default_preset("mauscheln") and n == 4,
                   ids=[f"{p}-{n}" for p, n in CASES])
def test_same_as_reference_deal_by_deal(preset, n):
    counts = crosscheck(preset, n, DEALS, random_carry=True, seed=n)
    assert counts["deals"] >= DEALS and counts["episodes"] == counts["deals"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_as_reference_with_other_options(variant):
    counts = crosscheck("standard", 4, DEALS, random_carry=True, seed=1, **VARIANTS[variant])
    assert counts["deals"] >= DEALS


@tiers.parametrize("preset", PRESETS, tiers.reference_preset("mauscheln"))
def test_same_as_reference_in_sessions(preset):
    counts = crosscheck(preset, 4, DEALS // 2, episode="session", seed=7, session_deals=5)
    assert counts["episodes"] < counts["deals"]  # sessions of several deals were played through


@pytest.mark.slow
@pytest.mark.skipif(not SLOW_DEALS, reason="set RAMS_VECTOR_SLOW_DEALS (e.g. 100000) for the slow tier")
@pytest.mark.parametrize("preset,n", CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_same_as_reference_slow_tier(preset, n):
    counts = crosscheck(preset, n, SLOW_DEALS, random_carry=True, num_envs=256, seed=100 + n)
    assert counts["deals"] >= SLOW_DEALS


def test_random_carry_draws_the_pots_of_the_reference():
    game = rams_env.make_game("mauscheln", 4)
    rng = np.random.default_rng(0)
    pots = {game.random_carry(rng)["pot"] for _ in range(400)}
    assert pots == {game.rules.pinke * i for i in range(CARRY_POTS)}
    env = vector.make("mauscheln", num_envs=512, random_carry=True)
    env.reset(seed=0)
    dealer_pinke = game.rules.pinke
    assert set((env.deals["pot"] - dealer_pinke).tolist()) <= pots  # no quartets: the Pinke only


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and bonfires, the talon
    (and the seat's own hand while it decides to knock blind)."""
    record, n = env.deals[b], env.num_players
    sets = [("hands", s) for s in range(n) if s != seat] + [("face_down", s) for s in range(n) if s != seat]
    if record["phase"] == env.spec[0]["ph_knock"][0] and record["dealer"] == seat:
        sets.append(("hands", seat))
    held = [cards_of(record[f][s]) for f, s in sets]
    talon_at = int(record["talon_at"])
    talon = record["order"][talon_at:].tolist()
    pool = rng.permutation([c for group in held for c in group] + talon).tolist()
    for (f, s), group in zip(sets, held, strict=True):
        env.deals[f][b, s] = sum(1 << c for c in pool[:len(group)])
        pool = pool[len(group):]
    env.deals["order"][b, talon_at:] = pool


@tiers.parametrize("preset", ["standard", "tavern", "large_table"], tiers.reference_preset("mauscheln"))
def test_hidden_cards_never_reach_an_observation(preset):
    env = vector.make("mauscheln", num_envs=64, num_players=5, preset=preset, random_carry=True)
    env.reset(seed=3)
    assert_hidden(env, _shuffle_unseen)


# ------------------------------------------------------------------ the API
def test_observations_and_actions_are_the_aec_envs():
    env = vector.make("mauscheln", num_envs=4, num_players=7, preset="large_table")
    aec = rams_env.make("mauscheln", 7, preset="large_table")
    assert env.obs_size == aec.observation_space("player_0")["observation"].shape[0]
    assert env.num_actions == aec.action_space("player_0").n
    assert [env.action_label(a) for a in range(env.num_actions)] == list(aec.unwrapped.game.actions.labels)


def _stepped(**options):
    env = vector.make("mauscheln", num_envs=16, **options)
    env.reset(seed=11)
    for _ in range(5):
        env.step_random()
    return env


def test_bad_actions_are_refused_per_deal_and_change_nothing():
    env = _stepped()
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(env.mask[4] == 0)[0])
    actions[4], actions[5], actions[11] = illegal, -1, env.num_actions
    saved, obs = env.deals.copy(), env.obs.copy()
    with pytest.raises(vector.IllegalActionsError) as err:
        env.step(actions)
    text = str(err.value)
    assert "3 of 16 deals (deals 4-5, 11)" in text
    assert f"deal 4: player_{env.to_act[4]} action {illegal} ({env.action_label(illegal)}) is not legal now" in text
    assert f"action {env.num_actions} out of range 0..{env.num_actions - 1}" in text
    assert np.array_equal(env.deals, saved) and np.array_equal(env.obs, obs)
    for bad in (actions.astype(np.float32), [0] * 16, np.zeros(15, int)):
        with pytest.raises((TypeError, ValueError)):
            env.step(bad)
    assert np.array_equal(env.deals, saved)


def test_penalty_ends_only_the_offending_deal():
    env = _stepped(illegal_action="penalty", illegal_reward=-3.0)
    assert_penalty_ends_only_the_offender(env, _stepped())


def test_queued_carry_is_checked_by_the_reference():
    env = vector.make("mauscheln", num_envs=4)
    with pytest.raises(ValueError, match="permutation"):
        env.queue_deals([0], np.zeros(32, int))
    with pytest.raises(ValueError, match="pot"):
        env.queue_deals([0], np.arange(32), pots=[-4])
    with pytest.raises(ValueError, match="bankrolls"):
        env.queue_deals([0], np.arange(32), bankrolls=[[1.5, 0, 0, 0]])
    assert not env.deals["pending"].any()
    env.queue_deals([0, 2], np.tile(np.arange(32)[::-1], (2, 1)), dealers=[1, 1], pots=[40, 40])
    obs, mask, to_act = env.reset(seed=0)
    assert np.array_equal(obs[0], obs[2]) and env.deals["pot"][0] == 40 + env.game.rules.pinke
    assert to_act[0] == 2 and env.deals["hands"][0, 0] == sum(1 << c for c in (31, 30, 29, 28))


def test_rewards_of_an_episode_add_up_to_what_left_the_pot():
    env = vector.make("mauscheln", num_envs=64, num_players=4, preset="tavern")
    env.reset(seed=2)
    totals = np.zeros((64, 4))
    finished = 0
    for _ in range(200):
        _, _, _, rewards, done = env.step_random()
        totals += rewards
        # chips only move between the seats and the pot, which starts empty without random carry
        assert np.array_equal(totals[done].sum(axis=1), -env.deals["result_pot"][done])
        finished += int(done.sum())
        totals[done] = 0
    assert finished > 100
