"""The batched Mauscheln engine (rams_env.vector) against the reference engine, and its API.

The cross-check plays the same deals with the same random actions in both engines and
compares observations, masks, seats to act, dealers, bankrolls, the pot, rewards, episode
ends and settlements on every step (tests/vector_crosscheck.py, tests/vector_reference_mauscheln.py).
``RAMS_VECTOR_DEALS`` deals per preset and table size (default 60, CI 500); the slow tier runs
only when ``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_mauscheln.py``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from rams_env.games.mauscheln.rules import MauschelnRules  # noqa: E402
from rams_env.vector.mauscheln.spec import CARRY_POTS  # noqa: E402
from tests import (
    tiers,  # noqa: E402
    vector_crosscheck,  # noqa: E402
)
from tests import vector_checks as checks  # noqa: E402
from tests.vector_crosscheck import DEALS  # noqa: E402
from tests.vector_reference_mauscheln import MauschelnSlot  # noqa: E402

crosscheck = partial(vector_crosscheck.crosscheck, MauschelnSlot)
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


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_as_reference_with_other_options(variant):
    counts = crosscheck("standard", 4, DEALS, random_carry=True, seed=1, **VARIANTS[variant])
    assert counts["deals"] >= DEALS


def test_random_carry_draws_the_pots_of_the_reference():
    game = rams_env.make_game("mauscheln", 4)
    rng = np.random.default_rng(0)
    pots = {game.random_carry(rng)["pot"] for _ in range(400)}
    assert pots == {game.rules.pinke * i for i in range(CARRY_POTS)}
    env = vector.make("mauscheln", num_envs=512, random_carry=True)
    env.reset(seed=0)
    dealer_pinke = game.rules.pinke
    assert set((env.deals["pot"] - dealer_pinke).tolist()) <= pots  # no quartets: the Pinke only


test_same_as_reference_deal_by_deal, test_same_as_reference_in_sessions, test_same_as_reference_slow_tier = (
    vector_crosscheck.standard_tests(MauschelnSlot, CASES, PRESETS, session_deals=5))


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and bonfires, the talon
    (and the seat's own hand while it decides to knock blind)."""
    places = checks.others(env.num_players, seat, "hands", "face_down")
    if env.deals["phase"][b] == env.spec[0]["ph_knock"][0] and env.deals["dealer"][b] == seat:
        places.append(("hands", seat))
    checks.redeal(env, b, places, rng, int(env.deals["talon_at"][b]))


@tiers.parametrize("preset", ["standard", "tavern", "large_table"], tiers.reference_preset("mauscheln"))
def test_hidden_cards_never_reach_an_observation(preset):
    checks.assert_hidden("mauscheln", _shuffle_unseen, num_players=5, preset=preset, random_carry=True)


# ------------------------------------------------------------------ the API
def test_observations_and_actions_are_the_aec_envs():
    checks.assert_aec_spaces("mauscheln", 7, preset="large_table")


def test_bad_actions_are_refused_per_deal_and_change_nothing():
    text = checks.refused(checks.stepped("mauscheln"), masked=[4], negative=[5], out_of_range=[11])
    assert "3 of 16 deals (deals 4-5, 11)" in text


def test_penalty_ends_only_the_offending_deal():
    penalised = checks.stepped("mauscheln", illegal_action="penalty", illegal_reward=-3.0)
    checks.assert_penalty_ends_only_the_offender(penalised, checks.stepped("mauscheln"))


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
