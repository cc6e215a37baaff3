"""Tippen's oldest rule sets: Drei Karten (1821) and Loup (Wolf), where the dealer's last card shows trumps.

Source: ../shared/seeds/000_87480ce3960bd8a6.txt, sections "Drei Karten (1821)" and "Variants" / "Loup or Wolf".
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rams_env
from rams_env.games.tippen import Phase
from tests import tiers
from tests.conformance import random_playout
from tests.tippen_helpers import H4, chips, legal, play, table


# ================================================================ 1821
def test_1821_dealer_last_card_shows_trumps_and_one_counter_per_trick():
    hands = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9h"]
    env, raw = table(hands=hands, turned=None, ruleset="drei_karten_1821")
    assert raw.view("player_0")["trump_card"] == "9h" and raw.view("player_0")["trump"] == "h"
    assert raw.game_state.forced and raw.game_state.phase is Phase.PLAY  # everyone plays the first hand
    play(env, "0:Ah 1:Qh 2:As 3:9h 0:Kh 1:8c 2:Ks 3:7d 0:7c 1:9s 2:Qs 3:8d")
    assert raw.game_state.tricks_won == [3, 0, 0, 0]
    # a counter per trick; the trickless pay 3 the first time, doubling the pool
    assert chips(raw) == [3, -3, -3, -6] and raw.game_state.ledger.pot == 9


def test_1821_with_a_bete_anyone_may_pass_and_tricks_still_earn_a_counter():
    env, raw = table(hands=H4, turned=None, ruleset="drei_karten_1821", pot=6)
    assert raw.game_state.phase is Phase.BID
    play(env, "0:tap 1:tap 2:pass 3:pass 0:Ah 1:Qh 0:7c 1:8c 1:9c 0:Kh")
    assert raw.game_state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, 0, -3] and raw.game_state.ledger.pot == 6


@pytest.mark.parametrize(("hands", "moves", "tricks"), [
    # "In this game you can lose with 2 trumps" (player_1: 7h 8h) ...
    (["Ah Kh 7c", "7h 8h 8c", "9c 10c Jc", "Ac Ks Qh"], "0:Ah 1:7h 2:9c 3:Qh 0:Kh 1:8h 2:10c 3:Ks 0:7c 1:8c 2:Jc 3:Ac",
     [2, 0, 0, 1]),
    # ... "and make 2 tricks without a single trump" (player_0: Ac As Ad)
    (["Ac As Ad", "7c 7s 7d", "8c 8s 8d", "9c 9s 10h"], "0:Ac 1:7c 2:8c 3:9c 0:As 1:7s 2:8s 3:9s 0:Ad 1:7d 2:8d 3:10h",
     [2, 0, 0, 1]),
])
def test_1821_lose_with_two_trumps_make_two_tricks_without_one(hands, moves, tricks):
    env, raw = table(hands=hands, turned=None, ruleset="drei_karten_1821")
    play(env, moves)
    assert raw.game_state.tricks_won == tricks
    assert chips(raw) == [2, -3, -3, 1 - 3] and raw.game_state.ledger.pot == 6  # a counter a trick; bêtes of 3


def test_1821_with_a_bete_the_trickless_player_doubles_the_pool():
    env, raw = table(hands=H4, turned=None, ruleset="drei_karten_1821", pot=6)
    play(env, "0:tap 1:tap 2:tap 3:pass 0:Ah 1:Qh 2:As 0:Kh 1:8c 2:Ks 0:7c 1:9c 2:Qs")
    assert raw.game_state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, -9, -3] and raw.game_state.ledger.pot == 9 - 3 + 9


def test_1821_table_sizes_and_everyone_plays_the_first_hand():
    rams_env.make("tippen", 6, ruleset="drei_karten_1821")
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("tippen", 7, ruleset="drei_karten_1821")
    env, raw = table(hands=H4, turned=None, ruleset="drei_karten_1821")
    assert raw.game_state.bids == [raw.game_state.bids[0]] * 4 and raw.game_state.forced
    assert raw.game_state.hands[3][-1] == raw.game.pack().parse("9h")[0]  # the trump card stays with the dealer


# ================================================================ Loup
def test_loup_six_cards_each_six_counters():
    env = rams_env.make("tippen", 5, ruleset="loup")
    env.reset(seed=0, options={"dealer": 4, "pot": 0})
    raw = env.unwrapped
    assert all(len(h) == 6 for h in raw.game_state.hands) and raw.game_state.ledger.pot == 6
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("tippen", 6, ruleset="loup")


def test_loup_six_tricks_one_counter_each_trickless_pays_the_pot():
    hands = ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 9h", "As Ks Qs Js 10s 9d"]
    env, raw = table(hands=hands, turned=None, dealer=2, ruleset="loup")
    assert raw.view("player_0")["trump"] == "d" and raw.game_state.ledger.pot == 6  # the dealer antes 6
    play(env, "0:Ac 1:Ah 2:As 0:Kc 1:Kh 2:Ks 0:Qc 1:Qh 2:Qs 0:Jc 1:Jh 2:Js 0:10c 1:10h 2:10s 0:9c 1:9h 2:9d")
    assert raw.game_state.tricks_won == [5, 0, 1]
    assert chips(raw) == [5, -6, -5] and raw.game_state.ledger.pot == 6


L4 = ["Ac Kc Qc 7h 8s 9d", "Jc 10c Ah 7s 8d 9s", "9c 8c Kh Qh As Jh", "7c Ks Qs Js 10d 7d"]  # trumps: the 7d
LOUP_LEGAL = [
    ("", "Ac Kc Qc 7h 8s 9d"),  # the first lead is free
    ("0:Ac", "Jc 10c"),  # follow
    ("0:Ac 1:Jc 2:9c", "7c"),
    ("0:7h", "Ah"),
    ("0:7h 1:Ah", "Kh Qh Jh"),  # follow; no duty to head
    ("0:7h 1:Ah 2:Kh", "7c Ks Qs Js 10d 7d"),  # void: trump or discard at will
    ("0:8s 1:9s", "As"),
    ("0:9d 1:8d", "9c 8c Kh Qh As Jh"),  # void in trumps: any card
]


@pytest.mark.parametrize(("moves", "expected"), LOUP_LEGAL)
def test_loup_legal_plays(moves, expected):
    env, raw = table(hands=L4, turned=None, ruleset="loup")
    assert raw.view("player_0")["trump_card"] == "7d" and raw.game_state.phase is Phase.PLAY  # forced: 6 in the pot
    if moves:
        play(env, moves)
    assert legal(raw) == sorted(expected.split())


def test_loup_with_a_bete_a_trickless_player_pays_the_pot():
    hands = ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 9h", "As Ks Qs Js 10s 9d"]
    env, raw = table(hands=hands, turned=None, dealer=2, ruleset="loup", pot=6)
    play(env, "0:tap 1:tap 2:pass " + " ".join(f"0:{c} 1:{h}" for c, h in zip(hands[0].split(), hands[1].split(),
                                                                                 strict=True)))
    assert raw.game_state.tricks_won == [6, 0, 0]
    assert chips(raw) == [6, -12, -6] and raw.game_state.ledger.pot == 12 - 6 + 12  # a counter a trick; the pot


def test_loup_follow_suit_and_free_trumping():
    hands = ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 8c", "As Ks Qs Js 10s 9d"]
    env, raw = table(hands=hands, turned=None, dealer=2, ruleset="loup")
    play(env, "0:Ac")
    assert legal(raw) == ["8c"]
    play(env, "1:8c")
    assert legal(raw) == sorted("As Ks Qs Js 10s 9d".split())  # void: trump or discard at will


# ======================================================= both rule sets
@pytest.mark.parametrize("ruleset", ["drei_karten_1821", "loup"])
def test_old_rule_sets_lone_player_and_all_pass_with_a_bete(ruleset):
    hands = H4 if ruleset == "drei_karten_1821" else ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 9h",
                                                      "As Ks Qs Js 10s 9s", "Ad Kd Qd Jd 10d 9d"]
    stake = 3 if ruleset == "drei_karten_1821" else 6
    env, raw = table(hands=hands, turned=None, ruleset=ruleset, pot=6)
    play(env, "0:pass 1:tap 2:pass 3:pass")
    assert raw.game_state.breakdown["reason"] == "lone_player" and chips(raw) == [0, 6 + stake, 0, -stake]
    env, raw = table(hands=hands, turned=None, ruleset=ruleset, pot=6)
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.ledger.pot == 6 + stake and raw.game_state.dealer == 0


@pytest.mark.parametrize("ruleset", ["drei_karten_1821", "loup"])
@tiers.parametrize(("shoving", "hop", "max_bete"), list(itertools.product([False, True], [False, True], [0, 30])),
                   lambda shoving, hop, max_bete: tiers.all_or_none(shoving, hop, max_bete > 0))
def test_old_rule_sets_with_their_valid_variations_play_and_conserve(ruleset, shoving, hop, max_bete):
    rng = np.random.default_rng(6)
    for n in (3, 5):
        env = rams_env.make("tippen", n, ruleset=ruleset, shoving=shoving, hop_and_jump=hop, max_bete=max_bete,
                            random_carry=True)
        for seed in range(4):
            random_playout(env, seed, rng, check_hidden_every=2)
