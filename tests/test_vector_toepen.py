"""The batched Toepen engine (rams_env.vector) against the reference engine, and its API.

The cross-check plays the same deals with the same random actions in both engines and
compares observations, masks, seats to act, dealers, lives, rewards, episode ends and
settlements on every step (tests/vector_crosscheck.py, tests/vector_reference_toepen.py).
``RAMS_VECTOR_DEALS`` deals per preset and table size (default 60, CI 500: about 3 s of CPU per
1000 deals); the slow tier runs only when ``RAMS_VECTOR_SLOW_DEALS`` is set (two to three hours
for 100,000 deals each): ``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_toepen.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env.vector as vector  # noqa: E402
from rams_env.games.toepen.rules import ToepenRules  # noqa: E402
from tests import (
    tiers,  # noqa: E402
    vector_crosscheck,  # noqa: E402
)
from tests import vector_checks as checks  # noqa: E402
from tests.vector_reference_toepen import ToepenSlot  # noqa: E402

PRESETS = ToepenRules.preset_names()
CASES = [(preset, n) for preset in PRESETS for n in (3, 4, 8)]


test_same_as_reference_deal_by_deal, test_same_as_reference_in_sessions, test_same_as_reference_slow_tier = (
    vector_crosscheck.standard_tests(ToepenSlot, CASES, PRESETS))


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and discards, stock, claim."""
    places = checks.others(env.num_players, seat, "hands", "face_down")
    if env.deals["claimant"][b] not in (-1, seat):
        places.append(("claim", None))
    checks.redeal(env, b, places, rng, int(env.deals["stock_at"][b]))


@tiers.parametrize("preset", ["standard", "any_time", "armoede"], tiers.reference_preset("toepen"))
def test_hidden_cards_never_reach_an_observation(preset):
    checks.assert_hidden("toepen", _shuffle_unseen, 60, num_players=5, preset=preset, random_carry=True)


# ------------------------------------------------------------------ the API
def test_same_seed_same_deals_whatever_the_batch_size():
    small = vector.make("toepen", num_envs=8)
    large = vector.make("toepen", num_envs=32)
    small.reset(seed=5)
    large.reset(seed=5)
    for _ in range(40):
        a, b = small.step_random(), large.step_random()
        assert np.array_equal(a[0], b[0][:8]) and np.array_equal(a[3], b[3][:8])


def test_observations_and_actions_are_the_aec_envs():
    checks.assert_aec_spaces("toepen", 6, preset="waalwijk")


def test_masked_out_and_out_of_range_actions_are_refused_naming_the_deals():
    assert "2 of 16 deals (deals 3, 9)" in checks.refused(checks.stepped("toepen"), masked=[3], out_of_range=[9])


@pytest.mark.parametrize("bad", [np.zeros(16, np.float32), np.zeros(16, bool), [0] * 16, np.zeros((16, 1), int),
                                 np.zeros(15, int)])
def test_wrong_shapes_and_dtypes_are_refused(bad):
    env = checks.stepped("toepen")
    saved = env.deals.copy()
    with pytest.raises((TypeError, ValueError)):
        env.step(bad)
    assert np.array_equal(env.deals, saved)


def test_penalty_ends_only_the_offending_deals():
    env = checks.stepped("toepen", illegal_action="penalty", illegal_reward=-3.0)
    checks.assert_penalty_ends_only_the_offender(env, checks.stepped("toepen"))
    with pytest.raises(vector.IllegalActionsError, match="out of range"):
        env.step(np.full(16, -1))


def test_policy_groups_split_deals_by_the_policy_of_the_seat_to_act():
    env = checks.stepped("toepen", num_players=4)
    seat_policy = np.array([0, 1, 0, 2])  # seats 0 and 2 play policy 0
    groups = env.policy_groups(seat_policy)
    for policy, deals in groups.items():
        assert (seat_policy[env.to_act[deals]] == policy).all()
    assert sorted(np.concatenate(list(groups.values())).tolist()) == list(range(16))
    per_deal = np.tile(seat_policy, (16, 1))
    per_deal[0] = 7
    assert 7 in env.policy_groups(per_deal)
    with pytest.raises(ValueError, match="seat_policy"):
        env.policy_groups(np.zeros(3, int))


def test_unknown_game_and_bad_rules_are_refused():
    with pytest.raises(ValueError, match="batched games: toepen"):
        vector.make("whist")  # no such game
    with pytest.raises(ValueError, match="lives"):
        vector.make("toepen", lives=1)
    with pytest.raises(ValueError, match="num_envs"):
        vector.make("toepen", num_envs=0)


def test_reset_comes_first_and_queued_deals_are_checked():
    env = vector.make("toepen", num_envs=4)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="permutation"):
        env.queue_deals([0], np.zeros(32, int))
    with pytest.raises(ValueError, match="lives_lost"):
        env.queue_deals([0], np.arange(32), lives_lost=[[10, 0, 0, 0]])
    with pytest.raises(ValueError, match="dealers"):
        env.queue_deals([0], np.arange(32), dealers=[4])
    env.queue_deals([0, 2], np.tile(np.arange(32)[::-1], (2, 1)), dealers=[1, 1])  # a duplicate deal
    obs, mask, to_act = env.reset(seed=0)
    assert np.array_equal(obs[0], obs[2]) and not np.array_equal(obs[0], obs[1])
    assert to_act[0] == 2 and env.deals["hands"][0, 0] == sum(1 << c for c in (31, 30, 29, 28))


def test_numba_is_loaded_by_the_batched_engine_only():
    import subprocess
    import sys

    code = "import sys, rams_env; rams_env.make('toepen', 4); print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_saved_deals_continue_exactly_in_another_env_and_misfits_are_refused():
    env = vector.make("toepen", 16, 4)
    env.reset(seed=3)
    for _ in range(7):
        env.step(env.sample_actions())
    saved = env.state()
    other = vector.make("toepen", 16, 4)
    other.load_state(saved)
    for _ in range(40):  # through deal ends and auto-resets: the random streams were saved too
        actions = env.sample_actions()
        assert np.array_equal(actions, other.sample_actions())
        for ours, theirs in zip(env.step(actions), other.step(actions), strict=True):
            assert np.array_equal(ours, theirs)
    for misfit in (vector.make("toepen", 8, 4), vector.make("toepen", 16, 3)):
        with pytest.raises(ValueError, match="saved"):
            misfit.load_state(saved)
