"""The batched Fipsen engine (rams_env.vector.fipsen) against the reference engine, and its API.

As tests/test_vector_toepen.py: the cross-check (tests/vector_crosscheck.py,
tests/vector_reference_fipsen.py) plays the same deals with the same random actions in both
engines and compares, before every step, the observation, the mask, the seat to act, the dealer
and the score sheet of every slot, and after it the rewards, the episode ends and the settlement
(reason, declarer, points, contract). ``RAMS_VECTOR_DEALS`` deals per variant (default 60, CI
2000); the slow tier runs when ``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_fipsen.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from rams_env.vector.fipsen import SUPPORTED  # noqa: E402
from tests import (
    tiers,  # noqa: E402
    vector_crosscheck,  # noqa: E402
)
from tests import vector_checks as checks  # noqa: E402
from tests.vector_crosscheck import DEALS, SLOW_DEALS, slow_tier  # noqa: E402
from tests.vector_reference_fipsen import FipsenSlot, reasons, replay  # noqa: E402

VARIANTS = [v.value for v in SUPPORTED]
COVERAGE_DEALS = 300
"""From this many deals the cross-check must have met every way a deal ends (and a redeal)."""


def crosscheck(variant: str, deals: int, **options):
    """Fipsen's variants are rules, not presets; 16 slots (the bidding styles of vector_reference_fipsen)."""
    return vector_crosscheck.crosscheck(FipsenSlot, None, None, deals, variant=variant, **{"num_envs": 16, **options})


@tiers.parametrize("variant", VARIANTS, tiers.reference_preset("fipsen"))
def test_same_as_reference_deal_by_deal(variant):
    counts = crosscheck(variant, DEALS, seed=1)
    assert counts["deals"] >= DEALS and counts["episodes"] == counts["deals"]
    if DEALS >= COVERAGE_DEALS:  # every way a deal ends (in this variant) was compared
        assert all(counts[reason] for reason in reasons(variant)), counts


@tiers.parametrize("variant", VARIANTS, tiers.reference_preset("fipsen"))
def test_same_as_reference_in_sessions(variant):
    counts = crosscheck(variant, DEALS // 2, episode="session", seed=7)
    assert counts["episodes"] < counts["deals"]  # sessions of several deals were played through


@pytest.mark.parametrize("episode", ["deal", "session"])
def test_same_as_reference_inside_a_race(episode):
    """Thedinghausen from random carried-over state: every seat's tricks toward the prize and the pot, drawn by
    the reference and queued; races are won from them, and the pot changes hands."""
    counts = crosscheck("thedinghausen", DEALS, episode=episode, random_carry=True, seed=5)
    assert counts["deals"] >= DEALS and counts["races_won"] > 0, counts


def test_random_carry_draws_a_race_as_the_reference_draws_it():
    class Top:  # a generator whose every draw is its upper bound minus one
        def integers(self, low, high, size=None):
            return np.full(size, high - 1) if size else high - 1
    game = rams_env.make_game("fipsen", variant="thedinghausen")
    top, n = game.random_carry(Top()), game.num_players
    assert top == {"race": [game.rules.race_to - 1] * n, "pot": n}
    env = vector.make("fipsen", num_envs=2000, variant="thedinghausen", random_carry=True)
    env.reset(seed=0)
    d = env.deals
    assert sorted(set(d["race"][:, :n].ravel().tolist())) == list(range(game.rules.race_to))
    assert (d["pot"] == n).all() and not d["race_won"].any()
    assert (d["bankrolls"][:, :n] == game.rules.bankroll).all()  # a race under way: nobody antes


def test_carried_race_is_refused_outside_thedinghausen_and_checked_by_the_reference():
    order = np.arange(32)
    with pytest.raises(ValueError, match="Thedinghausen only"):
        vector.make("fipsen", num_envs=1).queue_deals([0], order, races=[[0] * 4])
    env = vector.make("fipsen", num_envs=1, variant="thedinghausen")
    with pytest.raises(ValueError, match="race"):
        env.queue_deals([0], order, races=[[0, 0, 0, 0, 10]])  # ten tricks would have won the race
    assert not env.deals["pending"].any()


def test_a_siebener_fips_wins_thirty_without_play():
    hands = ["7c 7s 7h 7d Ac", "8c 9c 10c Jc Qc", "8s 9s 10s Js Qs", "8h 9h 10h Jh Qh"]
    breakdowns, total = replay("prisdorf", hands, "Kc Ks Kh As Ah", 3, ["bid siebener"])
    assert breakdowns[-1]["reason"] == "siebener_fips" and total.tolist() == [30, 0, 0, 0]


@slow_tier
@pytest.mark.parametrize("variant", VARIANTS)
def test_same_as_reference_slow_tier(variant):
    counts = crosscheck(variant, SLOW_DEALS, num_envs=256, seed=100)
    assert counts["deals"] >= SLOW_DEALS


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and discards, skat, talon."""
    places = checks.others(env.num_players, seat, "hands", "face_down") + [("skat", None), ("aside", None)]
    checks.redeal(env, b, places, rng)


@tiers.parametrize("variant", VARIANTS, tiers.reference_preset("fipsen"))
def test_hidden_cards_never_reach_an_observation(variant):
    checks.assert_hidden("fipsen", _shuffle_unseen, 80, variant=variant)


def test_hidden_cards_never_reach_an_observation_inside_a_race():
    checks.assert_hidden("fipsen", _shuffle_unseen, 80, variant="thedinghausen", random_carry=True)


# ------------------------------------------------------------------ the API
def test_observations_and_actions_are_the_aec_envs():
    checks.assert_aec_spaces("fipsen")


def test_masked_out_and_out_of_range_actions_are_refused_naming_the_deals():
    assert "2 of 16 deals (deals 3, 9)" in checks.refused(checks.stepped("fipsen"), masked=[3], out_of_range=[9])


def test_penalty_ends_only_the_offending_deals():
    penalised = checks.stepped("fipsen", illegal_action="penalty", illegal_reward=-3.0)
    checks.assert_penalty_ends_only_the_offender(penalised, checks.stepped("fipsen"))


@pytest.mark.parametrize(("rules", "message"), [
    ({"session_deals": 0}, "session_deals"), ({"num_players": 3}, "players"),  # the reference's errors
])
def test_bad_rules_are_refused(rules, message):
    with pytest.raises(ValueError, match=message):
        vector.make("fipsen", **rules)


def test_queued_deals_replay_the_same_cards():
    env = vector.make("fipsen", num_envs=3)
    env.queue_deals([0, 2], np.tile(np.arange(32)[::-1], (2, 1)), dealers=[1, 1])  # a duplicate deal
    obs, _, to_act = env.reset(seed=0)
    assert np.array_equal(obs[0], obs[2]) and not np.array_equal(obs[0], obs[1])
    assert to_act[0] == 2 and env.deals["hands"][0, 0] == sum(1 << c for c in (31, 30, 29, 28, 27))
    assert env.deals["skat"][0] == sum(1 << c for c in (11, 10))
