"""The batched Tippen engine (rams_env.vector) against the reference engine, and its own API.

The cross-check (tests/vector_crosscheck.py, tests/vector_reference_tippen.py) plays the same deals with the same random
actions in both engines and compares observations, masks, seats to act, dealers, pots, net
chips, rewards, episode ends and settlements on every step, for every batched preset at 3, 4
and its largest table. ``RAMS_VECTOR_DEALS`` deals each (default 60, CI 500); the slow tier
runs only when ``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_tippen.py``.
The API shared with Toepen (shapes, dtypes, penalties, policy groups) is tested in
tests/test_vector_toepen.py; here what Tippen adds.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env.vector as vector  # noqa: E402
from rams_env.core.rules import RulesError  # noqa: E402
from rams_env.games.tippen.rules import TippenRules  # noqa: E402
from rams_env.vector.tippen import spec as tippen_spec  # noqa: E402
from rams_env.vector.tippen import supported_presets  # noqa: E402
from tests import (
    tiers,  # noqa: E402
    vector_crosscheck,  # noqa: E402
)
from tests import vector_checks as checks  # noqa: E402
from tests.vector_crosscheck import DEALS  # noqa: E402
from tests.vector_reference_tippen import TippenSlot  # noqa: E402

crosscheck = partial(vector_crosscheck.crosscheck, TippenSlot)
PRESETS = supported_presets()
CASES = [(p, n) for p in PRESETS for n in sorted({3, 4, TippenRules.build(p).player_range()[1]})]


@pytest.mark.parametrize(("preset", "max_bete"), [("alvensleben_1859", 6), ("modern", 9)])
def test_the_maximum_bete_sets_chips_aside_as_the_reference(preset, max_bete):
    deals = max(DEALS // 2, vector_crosscheck.WHOLE_SESSIONS)
    counts = crosscheck(preset, 4, deals, episode="session", seed=5, num_envs=8, session_deals=4, max_bete=max_bete)
    assert counts["episodes"] > 0


@pytest.mark.parametrize("option", ["knock", "sniff_grupp", "sniff_alvensleben"])
def test_the_dealers_privilege_with_robbing_shoving_and_hops_as_the_reference(option):
    counts = crosscheck("modern", 4, DEALS, random_carry=True, seed=2, dealer_option=option, robbing=True,
                        shoving=True, hop_and_jump=True)
    assert counts["deals"] >= DEALS


test_same_as_reference_deal_by_deal, test_same_as_reference_in_sessions, test_same_as_reference_slow_tier = (
    vector_crosscheck.standard_tests(TippenSlot, CASES, PRESETS, whole_sessions=True, num_envs=8, session_deals=3))


# ------------------------------------------------------------ hidden information
def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and discards, the talon."""
    places = checks.others(env.num_players, seat, "hands", "face_down")
    checks.redeal(env, b, places, rng, int(env.deals["talon_at"][b]))


@tiers.parametrize("preset", ["modern", "alvensleben_robbing", "loup", "modern_knocking", "modern_sniffing"],
                   tiers.reference_preset("tippen"))
def test_hidden_cards_never_reach_an_observation(preset):
    checks.assert_hidden("tippen", _shuffle_unseen, 40, num_players=5, preset=preset, random_carry=True)


# ------------------------------------------------------------------ bad input
def test_masked_out_actions_are_refused_per_deal_and_change_nothing():
    env = checks.stepped("tippen", steps=3, seed=2)
    assert "2 of 16 deals (deals 4, 11)" in checks.refused(env, masked=[4], negative=[11])


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
