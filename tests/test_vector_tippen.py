"""The batched Tippen engine (rams_env.vector) against the reference engine, and its own API.

The cross-check (tests/vector_tippen_reference.py) plays the same deals with the same random
actions in both engines and compares observations, masks, seats to act, dealers, pots, net
chips, rewards, episode ends and settlements on every step, for every batched preset at 3, 4
and its largest table. ``RAMS_VECTOR_DEALS`` deals each (default 300, CI 2000); the slow tier
runs only when ``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_tippen.py``.
The API shared with Toepen (shapes, dtypes, penalties, policy groups) is tested in
tests/test_vector_toepen.py; here what Tippen adds.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env.vector as vector  # noqa: E402
from rams_env.core.rules import RulesError  # noqa: E402
from rams_env.games.tippen.rules import TippenRules  # noqa: E402
from rams_env.vector.tippen import spec as tippen_spec  # noqa: E402
from rams_env.vector.tippen import supported_presets  # noqa: E402
from tests import tiers  # noqa: E402
from tests.vector_checks import assert_hidden  # noqa: E402
from tests.vector_tippen_reference import crosscheck  # noqa: E402

DEALS = int(os.environ.get("RAMS_VECTOR_DEALS", "300"))
SLOW_DEALS = int(os.environ.get("RAMS_VECTOR_SLOW_DEALS", "0"))
PRESETS = supported_presets()
CASES = [(p, n) for p in PRESETS for n in sorted({3, 4, TippenRules.build(p).player_range()[1]})]


@tiers.parametrize(("preset", "n"), CASES, lambda p, n: p == tiers.default_preset("tippen") and n == 4)
def test_same_as_reference_deal_by_deal(preset, n):
    counts = crosscheck(preset, n, DEALS, random_carry=True, seed=n)
    assert counts["deals"] >= DEALS and counts["episodes"] == counts["deals"]


@pytest.mark.parametrize(("preset", "max_bete"), [("alvensleben_1859", 6), ("modern", 9)])
def test_the_maximum_bete_sets_chips_aside_as_the_reference(preset, max_bete):
    counts = crosscheck(preset, 4, DEALS // 2, episode="session", seed=5, num_envs=8, session_deals=4,
                        max_bete=max_bete)
    assert counts["episodes"] > 0


@pytest.mark.parametrize("option", ["knock", "sniff_grupp", "sniff_alvensleben"])
def test_the_dealers_privilege_with_robbing_shoving_and_hops_as_the_reference(option):
    counts = crosscheck("modern", 4, DEALS, random_carry=True, seed=2, dealer_option=option, robbing=True,
                        shoving=True, hop_and_jump=True)
    assert counts["deals"] >= DEALS


@tiers.parametrize("preset", PRESETS, tiers.reference_preset("tippen"))
def test_same_as_reference_in_sessions(preset):
    counts = crosscheck(preset, 4, DEALS // 2, episode="session", seed=7, num_envs=8, session_deals=3)
    assert 0 < counts["episodes"] < counts["deals"]  # sessions of several deals were played through


@pytest.mark.slow
@pytest.mark.skipif(not SLOW_DEALS, reason="set RAMS_VECTOR_SLOW_DEALS (e.g. 100000) for the slow tier")
@pytest.mark.parametrize(("preset", "n"), CASES)
def test_same_as_reference_slow_tier(preset, n):
    counts = crosscheck(preset, n, SLOW_DEALS, random_carry=True, num_envs=256, seed=100 + n)
    assert counts["deals"] >= SLOW_DEALS


# ------------------------------------------------------------ hidden information
def _cards(mask) -> list[int]:
    return [i for i in range(64) if int(mask) >> i & 1]


def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and discards, the talon."""
    record, n = env.deals[b], env.num_players
    sets = [(f, s) for f in ("hands", "face_down") for s in range(n) if s != seat]
    held = [_cards(record[f][s]) for f, s in sets]
    talon = record["order"][record["talon_at"]:].tolist()
    pool = rng.permutation([c for group in held for c in group] + talon).tolist()
    for (f, s), group in zip(sets, held, strict=True):
        env.deals[f][b, s] = sum(1 << c for c in pool[:len(group)])
        pool = pool[len(group):]
    env.deals["order"][b, record["talon_at"]:] = pool


@tiers.parametrize("preset", ["modern", "alvensleben_robbing", "loup", "modern_knocking", "modern_sniffing"],
                   tiers.reference_preset("tippen"))
def test_hidden_cards_never_reach_an_observation(preset):
    env = vector.make("tippen", num_envs=64, num_players=5, preset=preset, random_carry=True)
    env.reset(seed=3)
    assert_hidden(env, _shuffle_unseen, 40)


# ------------------------------------------------------------------ bad input
def test_masked_out_actions_are_refused_per_deal_and_change_nothing():
    env = vector.make("tippen", num_envs=16)
    env.reset(seed=2)
    for _ in range(3):
        env.step_random()
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(env.mask[4] == 0)[0])
    actions[4], actions[11] = illegal, -1
    saved, obs = env.deals.copy(), env.obs.copy()
    with pytest.raises(vector.IllegalActionsError) as err:
        env.step(actions)
    text = str(err.value)
    assert "2 of 16 deals (deals 4, 11)" in text and f"({env.action_label(illegal)}) is not legal now" in text
    assert np.array_equal(env.deals, saved) and np.array_equal(env.obs, obs)


def test_every_preset_is_batched_and_rules_not_batched_would_be_refused_naming_what_is(monkeypatch):
    assert list(TippenRules.preset_names()) == PRESETS
    monkeypatch.setattr(tippen_spec, "UNSUPPORTED", {"shoving": False})  # as before shoving was batched
    with pytest.raises(RulesError, match="does not play shoving=True yet; batched presets: modern, modern_grupp"):
        vector.make("tippen", num_envs=2, preset="modern_shoving")


def test_queued_pots_are_checked():
    env = vector.make("tippen", num_envs=2)
    with pytest.raises(ValueError, match="pots must be whole numbers >= 0"):
        env.queue_deals([0], np.arange(32), pots=[-3])
    with pytest.raises(ValueError, match="hops must be 0..3"):
        env.queue_deals([0], np.arange(32), hops=[4])
    env.queue_deals([0, 1], np.tile(np.arange(32), (2, 1)), dealers=[2, 2], pots=[9, 0])
    env.reset(seed=0)
    assert env.deals["pot"].tolist() == [12, 3] and env.deals["dealer"].tolist() == [2, 2]
