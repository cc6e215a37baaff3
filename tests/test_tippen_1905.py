"""Tippen, Meyers 1905: the basic stake, everyone plays without a bête, pot bêtes, the 52-card large table.

Source: ../shared/seeds/000_87480ce3960bd8a6.txt, section "Tippen (1905)" (and the 52-card tables that
1859 and 1905 allow).
"""

from __future__ import annotations

import numpy as np
import pytest

import rams_env
from rams_env.games.tippen import Phase
from tests.conformance import random_playout
from tests.tippen_helpers import HANDS_1905, chips, legal, play, table


def test_1905_basic_stake_everyone_plays_follow_or_trump_third_and_pot_betes():
    env, raw = table(hands=HANDS_1905, preset="meyers_1905")
    assert raw.game_state.forced and raw.game_state.phase is Phase.PLAY  # no bidding, no exchange
    play(env, "0:7c")
    assert legal(raw) == ["8c", "9c"]  # follow; no duty to head
    play(env, "1:8c")
    assert legal(raw) == sorted(["As", "Ks", "Qs"])
    play(env, "2:Qs 3:7d 1:9c 2:Ks 3:8d")
    assert legal(raw) == ["Ah", "Kh"]  # void: must trump (either)
    play(env, "0:Kh 0:Ah 1:Qh 2:As 3:9d")
    assert chips(raw) == [2, 1, -3, -6] and raw.game_state.ledger.pot == 6


def test_1905_with_a_bete_players_may_pass():
    env, raw = table(hands=HANDS_1905, preset="meyers_1905", pot=6)
    assert not raw.game_state.forced and raw.game_state.phase is Phase.BID


def test_1905_lone_player_and_all_pass_with_a_bete():
    env, raw = table(hands=HANDS_1905, ruleset="meyers_1905", pot=9)
    play(env, "0:pass 1:pass 2:tap 3:pass")
    assert raw.game_state.breakdown["reason"] == "lone_player" and chips(raw) == [0, 0, 12, -3]
    env, raw = table(hands=HANDS_1905, ruleset="meyers_1905", pot=9)
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.breakdown["reason"] == "all_passed" and raw.game_state.ledger.pot == 12


def test_1905_trickless_player_pays_the_whole_pot():
    env, raw = table(hands=HANDS_1905, ruleset="meyers_1905", pot=9)
    play(env, "0:tap 1:tap 2:tap 3:pass 0:7c 1:8c 2:Qs 1:9c 2:Ks 0:Kh 0:Ah 1:Qh 2:As")
    assert raw.game_state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [8, 4, -12, -3] and raw.game_state.ledger.pot == 12  # a third of 12 per trick


# ===================================================== the 52-card tables
def test_1905_large_table_with_52_cards():
    env = rams_env.make("tippen", 9, ruleset="meyers_1905_large")
    env.reset(seed=0)
    assert len(env.unwrapped.game.pack()) == 52
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("tippen", 7, ruleset="meyers_1905")


@pytest.mark.parametrize("ruleset", ["alvensleben_1859", "meyers_1905"])
def test_52_card_tables_beyond_six_play_and_conserve(ruleset):
    """1859 and 1905: "or by more players using a Whist pack of 52 cards"."""
    rng = np.random.default_rng(7)
    for n in (7, 10):
        env = rams_env.make("tippen", n, ruleset=ruleset, large_pack=True, random_carry=True)
        for seed in range(4):
            random_playout(env, seed, rng, check_hidden_every=2)
