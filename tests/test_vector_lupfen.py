"""The batched Lupfen engine (rams_env.vector) against the reference engine, and its own checks.

The cross-check plays the same deals with the same random actions in both engines and
compares observations, masks, seats to act, dealers, pots, net results, rewards, episode ends
and settlements on every step (tests/vector_crosscheck.py, tests/vector_reference_lupfen.py), for every preset at 3 to 6
players. ``RAMS_VECTOR_DEALS`` deals per preset and table size (default 60, CI 500); the
slow tier runs only when ``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_lupfen.py``.
The API every batched game shares (errors, penalties, policy groups, seeding) is tested once,
with Toepen, in tests/test_vector_toepen.py; here only what Lupfen adds.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from rams_env.games.lupfen.rules import LupfenRules  # noqa: E402
from rams_env.vector.lupfen.spec import CARRY_POT_STEPS, CARRY_POT_UNIT  # noqa: E402
from rams_env.vector.lupfen.state import REASONS  # noqa: E402
from tests import (
    tiers,  # noqa: E402
    vector_crosscheck,  # noqa: E402
)
from tests import vector_checks as checks  # noqa: E402
from tests.vector_crosscheck import DEALS  # noqa: E402
from tests.vector_reference_lupfen import LupfenSlot  # noqa: E402

crosscheck = partial(vector_crosscheck.crosscheck, LupfenSlot)
PRESETS = LupfenRules.preset_names()
CASES = [(preset, n) for preset in PRESETS for n in (3, 4, 5, 6)]


def test_same_as_reference_with_every_option_changed():
    """Big antes fill the pot past the observation's cap and push net results to their clip."""
    options = {"ante": 99, "dealer_fee": 6, "shoving": True, "compulsory_hearts": True, "compulsory_lift": True,
               "blind_lift": True, "bankroll": 50, "session_end": "deals", "session_deals": 4}
    counts = crosscheck("standard", 5, DEALS // 2, episode="session", random_carry=True, seed=9, **options)
    assert counts["episodes"] < counts["deals"]


def test_the_cross_check_reaches_every_way_a_deal_ends_scraps_and_shoves():
    counts = crosscheck("shoving", 4, max(DEALS, 300), random_carry=True, seed=1)
    assert all(counts[key] for key in (*REASONS, "scraps", "shoves")), counts


def test_carried_pot_is_drawn_as_the_reference_draws_it():
    class Fixed:  # a generator whose every draw is its upper bound minus one
        def integers(self, low, high):
            return high - 1
    top = rams_env.make_game("lupfen", 4).random_carry(Fixed())["pot"]
    assert top == CARRY_POT_UNIT * (CARRY_POT_STEPS - 1)
    env = vector.make("lupfen", num_envs=2000, random_carry=True)
    env.reset(seed=0)
    carried = env.deals["pot"] - env.deals["paid_in"].sum(axis=1)
    assert sorted(set(carried.tolist())) == list(range(0, top + 1, CARRY_POT_UNIT))


test_same_as_reference_deal_by_deal, test_same_as_reference_in_sessions, test_same_as_reference_slow_tier = (
    vector_crosscheck.standard_tests(LupfenSlot, CASES, PRESETS))


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands (her own before she
    looks) and the stock below the turned card."""
    looked = env.deals["looked"][b, seat]
    places = [("hands", s) for s in range(env.num_players) if s != seat or not looked]
    first = int(env.deals["stock_at"][b]) + (env.deals["turned"][b] >= 0)  # the turned card is public
    checks.redeal(env, b, places, rng, first)


@tiers.parametrize("preset", ["standard", "shoving", "blind"], tiers.reference_preset("lupfen"))
def test_hidden_cards_never_reach_an_observation(preset):
    checks.assert_hidden("lupfen", _shuffle_unseen, 40, num_players=5, preset=preset, random_carry=True)


def test_every_seat_is_asked_about_scrap_whatever_it_holds():
    env = vector.make("lupfen", num_envs=256, num_players=4, random_carry=True)
    env.reset(seed=5)
    asked, holders = np.zeros(4, int), 0
    scrap, keep = env.action_id("scrap"), env.action_id("keep")
    for _ in range(60):
        in_scrap = env.mask[:, keep] == 1
        np.add.at(asked, env.to_act[in_scrap], 1)
        holders += int(env.mask[in_scrap, scrap].sum())
        env.step(env.sample_actions())
    assert (asked > 0).all() and 0 < holders < asked.sum()


# ------------------------------------------------------------------ the API
def test_observations_and_actions_are_the_aec_envs():
    checks.assert_aec_spaces("lupfen", 5, preset="blind")


def test_illegal_actions_are_refused_naming_the_deals():
    env = checks.stepped("lupfen", num_envs=8, steps=0, seed=2, num_players=3)
    assert "1 of 8 deals (deals 6)" in checks.refused(env, masked=[6])


def test_penalty_ends_the_offending_deals_and_the_new_ante_is_paid_with_the_next_reward():
    env = vector.make("lupfen", num_envs=16, num_players=4, illegal_action="penalty", illegal_reward=-2.0)
    env.reset(seed=4)
    offenders = env.to_act.copy()
    _, _, _, rewards, done = env.step(np.argmin(env.mask, axis=1))  # a masked-out action in every deal
    expected = np.zeros((16, 4), np.float32)
    expected[np.arange(16), offenders] = -2.0
    assert done.all() and np.array_equal(rewards, expected)
    assert (env.deals["net"][:, :4] == -3).all()  # new force rounds: everyone anted, not yet reported
    _, _, _, rewards, done = env.step(env.sample_actions())
    assert (~done).any() and (rewards[~done] == -3).all()  # the antes reach the payers with the next step


def test_queued_deals_are_checked_and_replayed():
    env = vector.make("lupfen", num_envs=4, num_players=4)
    with pytest.raises(ValueError, match="permutation"):
        env.queue_deals([0], np.zeros(20, int))
    with pytest.raises(ValueError, match="pot"):
        env.queue_deals([0], pots=[-5])
    with pytest.raises(ValueError, match="dealers"):
        env.queue_deals([0], dealers=[4])
    env.queue_deals([1, 3], np.tile(np.arange(20)[::-1], (2, 1)), dealers=[2, 2], pots=[12, 12])
    obs, _, to_act = env.reset(seed=0)
    assert np.array_equal(obs[1], obs[3]) and to_act[1] == 3 and env.deals["pot"][1] == 12
    assert env.deals["hands"][1, 0] == sum(1 << c for c in (19, 18, 17))


def test_lupfen_is_a_batched_game():
    assert "lupfen" in vector.GAMES
    with pytest.raises(ValueError, match="takes 3 to 6 players"):
        vector.make("lupfen", num_players=7)
