"""The batched Toepen engine (rams_env.vector) against the reference engine, and its API.

The cross-check plays the same deals with the same random actions in both engines and
compares observations, masks, seats to act, dealers, lives, rewards, episode ends and
settlements on every step (tests/vector_reference.py). ``RAMS_VECTOR_DEALS`` deals per
preset and table size (default 300, CI 2000: about 3 s of CPU per 1000 deals); the slow tier
runs only when ``RAMS_VECTOR_SLOW_DEALS`` is set (two to three hours for 100,000 deals each):
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_toepen.py``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from rams_env.games.toepen.rules import ToepenRules  # noqa: E402
from tests import tiers  # noqa: E402
from tests.vector_checks import assert_hidden, assert_penalty_ends_only_the_offender, cards_of  # noqa: E402
from tests.vector_reference import crosscheck  # noqa: E402

DEALS = int(os.environ.get("RAMS_VECTOR_DEALS", "300"))
SLOW_DEALS = int(os.environ.get("RAMS_VECTOR_SLOW_DEALS", "0"))
PRESETS = ToepenRules.preset_names()
TABLES = (3, 4, 8)


@tiers.parametrize("n", TABLES, lambda n: n == 4)
@tiers.parametrize("preset", PRESETS, tiers.reference_preset("toepen"))
def test_same_as_reference_deal_by_deal(preset, n):
    counts = crosscheck(preset, n, DEALS, random_carry=True, seed=n)
    assert counts["deals"] >= DEALS and counts["episodes"] == counts["deals"]


@tiers.parametrize("preset", PRESETS, tiers.reference_preset("toepen"))
def test_same_as_reference_in_sessions(preset):
    counts = crosscheck(preset, 4, DEALS // 2, episode="session", seed=7)
    assert counts["episodes"] < counts["deals"]  # sessions of several deals were played through


@pytest.mark.slow
@pytest.mark.skipif(not SLOW_DEALS, reason="set RAMS_VECTOR_SLOW_DEALS (e.g. 100000) for the slow tier")
@pytest.mark.parametrize("n", TABLES)
@pytest.mark.parametrize("preset", PRESETS)
def test_same_as_reference_slow_tier(preset, n):
    counts = crosscheck(preset, n, SLOW_DEALS, random_carry=True, num_envs=256, seed=100 + n)
    assert counts["deals"] >= SLOW_DEALS


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and discards, stock, claim."""
    record, n = env.deals[b], env.num_players
    sets = [("hands", s) for s in range(n) if s != seat] + [("face_down", s) for s in range(n) if s != seat]
    if record["claimant"] not in (-1, seat):
        sets.append(("claim", None))
    held = [cards_of(record[f] if s is None else record[f][s]) for f, s in sets]
    stock = record["order"][record["stock_at"]:].tolist()
    pool = rng.permutation([c for group in held for c in group] + stock).tolist()
    for (f, s), group in zip(sets, held, strict=True):
        mask = sum(1 << c for c in pool[:len(group)])
        pool = pool[len(group):]
        if s is None:
            env.deals[f][b] = mask
        else:
            env.deals[f][b, s] = mask
    env.deals["order"][b, record["stock_at"]:] = pool


@tiers.parametrize("preset", ["standard", "any_time", "armoede"], tiers.reference_preset("toepen"))
def test_hidden_cards_never_reach_an_observation(preset):
    env = vector.make("toepen", num_envs=64, num_players=5, preset=preset, random_carry=True)
    env.reset(seed=3)
    assert_hidden(env, _shuffle_unseen, 60)


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
    env = vector.make("toepen", num_envs=4, num_players=6, preset="waalwijk")
    aec = rams_env.make("toepen", 6, preset="waalwijk")
    assert env.obs_size == aec.observation_space("player_0")["observation"].shape[0]
    assert env.num_actions == aec.action_space("player_0").n
    assert [env.action_label(a) for a in range(env.num_actions)] == list(aec.unwrapped.game.actions.labels)


def _stepped(**options):
    env = vector.make("toepen", num_envs=16, **options)
    env.reset(seed=11)
    for _ in range(5):
        env.step_random()
    return env


def test_masked_out_and_out_of_range_actions_are_refused_naming_the_deals():
    env = _stepped()
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(env.mask[3] == 0)[0])
    actions[3], actions[9] = illegal, env.num_actions
    saved, obs = env.deals.copy(), env.obs.copy()
    with pytest.raises(vector.IllegalActionsError) as err:
        env.step(actions)
    text = str(err.value)
    assert "2 of 16 deals (deals 3, 9)" in text and "deal 3: player_" in text
    assert f"action {illegal} ({env.action_label(illegal)}) is not legal now" in text
    assert f"deal 9: player_{env.to_act[9]} action {env.num_actions} out of range 0..41" in text
    assert np.array_equal(env.deals, saved) and np.array_equal(env.obs, obs)


@pytest.mark.parametrize("bad", [np.zeros(16, np.float32), np.zeros(16, bool), [0] * 16, np.zeros((16, 1), int),
                                 np.zeros(15, int)])
def test_wrong_shapes_and_dtypes_are_refused(bad):
    env = _stepped()
    saved = env.deals.copy()
    with pytest.raises((TypeError, ValueError)):
        env.step(bad)
    assert np.array_equal(env.deals, saved)


def test_penalty_ends_only_the_offending_deals():
    env = _stepped(illegal_action="penalty", illegal_reward=-3.0)
    assert_penalty_ends_only_the_offender(env, _stepped())
    with pytest.raises(vector.IllegalActionsError, match="out of range"):
        env.step(np.full(16, -1))


def test_policy_groups_split_deals_by_the_policy_of_the_seat_to_act():
    env = _stepped(num_players=4)
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
