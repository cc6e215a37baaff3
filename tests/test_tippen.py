"""Tippen scenarios from the source (000_87480ce3960bd8a6.txt), per rule set: exact chips and legal moves."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rams_env
from rams_env.games.tippen import Phase
from tests.conformance import random_playout

MODERN = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9d"]  # trump: the turned 10h


def table(hands=MODERN, turned="10h", dealer=3, pot=0, stock=None, **rules):
    env = rams_env.make("tippen", len(hands), **rules)
    deal = {"hands": [h.split() for h in hands]}
    if turned:
        deal["turned"] = turned
    if stock:
        deal["stock"] = stock.split()
    env.reset(seed=0, options={"deal": deal, "dealer": dealer, "pot": pot, "bankrolls": [0] * len(hands)})
    return env, env.unwrapped


def play(env, moves: str) -> None:
    raw = env.unwrapped
    for move in moves.split():
        seat, label = move.split(":")
        assert raw.state.to_act == int(seat), f"player_{raw.state.to_act} to act, script says {seat}"
        env.step(raw.action_id(label.replace("_", " ")))


def legal(raw) -> list[str]:
    return sorted(raw.legal_labels())


def chips(raw) -> list[int]:
    return list(raw.state.ledger.bankrolls)


# ============================================ modern (Grupp 1975 / Katira 1983)
def test_modern_bidding_from_forehand_and_exchange_then_forehand_leads():
    env, raw = table()
    assert raw.state.ledger.pot == 3 and chips(raw) == [0, 0, 0, -3]  # the dealer pays 3
    assert raw.state.phase is Phase.BID and raw.state.to_act == 0 and legal(raw) == ["pass", "tap"]
    play(env, "0:pass 1:tap 2:tap 3:pass")
    assert raw.state.phase is Phase.EXCHANGE and raw.state.to_act == 1  # active players, forehand first
    play(env, "1:done 2:done")
    assert raw.state.phase is Phase.PLAY and raw.state.to_act == 1  # the first active player after the dealer


def test_modern_follow_head_trump_and_third_per_trick():
    env, raw = table()
    play(env, "0:tap 1:tap 2:pass 3:pass 0:done 1:done 0:Ah")
    assert legal(raw) == ["Qh"]
    play(env, "1:Qh 0:7c")
    assert legal(raw) == ["8c"]  # follow and head
    play(env, "1:8c 1:9s")
    assert legal(raw) == ["Kh"]  # void: must trump
    play(env, "0:Kh")
    assert raw.state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, 0, -3] and raw.state.ledger.pot == 0  # a third of 3 per trick


@pytest.mark.parametrize(("preset", "bete"), [("modern", 12), ("modern_grupp", 3)])
def test_modern_bete_katira_pot_or_grupp_stake(preset, bete):
    env, raw = table(pot=9, preset=preset)
    play(env, "0:tap 1:tap 2:tap 3:pass 0:done 1:done 2:done 0:Ah 1:Qh")
    assert legal(raw) == sorted(["As", "Ks", "Qs"])  # void and no trump: any card
    play(env, "2:Qs 0:7c 1:8c 2:Ks 1:9s")
    assert legal(raw) == ["As"]  # must head the 9
    play(env, "2:As 0:Kh")
    assert chips(raw) == [8, 4, -bete, -3] and raw.state.ledger.pot == 12 - 12 + bete


def test_modern_only_one_plays_and_wins_the_pot():
    env, raw = table(pot=9)
    play(env, "0:tap 1:pass 2:pass 3:pass")
    assert raw.state.breakdown["reason"] == "lone_player" and chips(raw) == [12, 0, 0, -3]


def test_modern_all_pass_the_next_dealer_stakes_and_redeals():
    env = rams_env.make("tippen", 4, episode="session", session_deals=2)
    env.reset(seed=3, options={"dealer": 3, "pot": 0, "bankrolls": [0, 0, 0, 0]})
    raw = env.unwrapped
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.state.dealer == 0 and raw.state.ledger.pot == 6 and chips(raw) == [-3, 0, 0, -3]


def test_modern_exchange_up_to_three_cards():
    env, raw = table()
    play(env, "0:tap 1:tap 2:pass 3:pass 0:discard_7c 0:discard_Kh")
    assert "done" in legal(raw) and len(legal(raw)) == 2  # one more card, or done
    play(env, "0:discard_Ah")  # three: the exchange ends itself
    assert raw.state.exchanged[0] == 3 and raw.state.to_act == 1 and len(raw.state.hands[0]) == 3


def test_modern_tipp_zwang_forces_play_with_the_basic_stake():
    env, raw = table(preset="tipp_zwang")
    assert raw.state.forced and raw.state.phase is Phase.EXCHANGE
    env, raw = table(preset="tipp_zwang", pot=3)
    assert not raw.state.forced and raw.state.phase is Phase.BID


def test_modern_knocking_dealer_blind_double_stake_without_a_trick():
    env, raw = table(preset="modern_knocking")
    assert raw.state.phase is Phase.DEALER and raw.state.to_act == 3 and legal(raw) == ["decline", "knock"]
    assert raw.view("player_3")["hand"] == [] and raw.view("player_0")["trump"] is None  # unfaced trump
    play(env, "3:knock")
    assert raw.view("player_0")["trump"] == "h" and raw.view("player_0")["trump_card"] is None  # suit only
    play(env, "3:discard_7d 0:tap 1:tap 2:pass 0:done 1:done 3:done 0:Ah 1:Qh")
    assert legal(raw) == ["10h"]
    play(env, "3:10h 0:Kh 1:9s 3:8d 0:7c 1:8c 3:9d")
    assert raw.state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, 0, -9] and raw.state.ledger.pot == 6  # knocker: double stake (6)


@pytest.mark.parametrize(("p1", "last", "tricks", "expected"), [
    ("Qh 9c 9d", "1:9d", [1, 1, 0, 1], [1, 1, 0, -3 + 1 - 3]),  # one trick: the knocker pays a single stake
    ("Qh 9c 9s", "1:9s", [1, 0, 0, 2], [1, -3, 0, -3 + 2]),  # two tricks: nothing; the trickless joiner's bête
])
def test_modern_knocking_single_stake_with_one_trick_none_with_two(p1, last, tricks, expected):
    env, raw = table(hands=["Ah 7c 8c", p1, "As Ks Qs", "Kh 7d 8d"], preset="modern_knocking")
    play(env, "3:knock 3:discard_7d 0:tap 1:tap 2:pass 0:done 1:done 3:done 0:Ah 1:Qh")
    assert legal(raw) == ["10h", "Kh"]  # follow; neither heads the ace
    play(env, "3:10h 0:7c 1:9c")
    assert legal(raw) == ["Kh"]  # void: trump and head
    play(env, "3:Kh 3:8d 0:8c " + last)
    assert raw.state.tricks_won == tricks
    assert chips(raw) == expected and raw.state.ledger.pot == 3


@pytest.mark.parametrize(("p0", "p3", "moves", "tricks", "bete"), [
    ("Kh Qh 7c", "Ah 8d 9d", "0:Kh 3:Ah 3:9d 0:Qh 0:7c 3:10h", 2, 0),  # two tricks: the sniffer pays nothing
    ("Ah Qh Ad", "Kh 8d 9d", "0:Ah 3:10h 0:Qh 3:Kh 3:9d 0:Ad", 1, 3),  # one trick: a single bête
    ("Ah Kh 7c", "9h 8d 9d", "0:Ah 3:9h 0:Kh 3:10h 0:7c 3:9d", 0, 6),  # no trick: a double bête
])
def test_modern_sniffing_grupp_must_take_two_tricks(p0, p3, moves, tricks, bete):
    hands = [p0, "Qc 8c 9s", "As Ks Qs", p3]
    env, raw = table(hands=hands, preset="modern_sniffing")
    play(env, "3:sniff 3:discard_8d 0:tap 1:pass 2:pass 0:done 3:done " + moves)
    assert raw.state.tricks_won[3] == tricks
    assert raw.state.breakdown["betes"][3] == bete  # Grupp's bête is the stake (3)


def test_modern_shoving():
    env, raw = table(preset="modern_shoving")
    assert raw.state.phase is Phase.SHOVE and legal(raw) == ["deal", "shove"]
    play(env, "3:shove 0:shove 1:shove")
    assert legal(raw) == ["deal"] and raw.state.ledger.pot == 12 and chips(raw) == [-3, -3, -3, -3]


# ======================================================== Meyers 1905
HANDS_1905 = ["7c Ah Kh", "8c 9c Qh", "As Ks Qs", "7d 8d 9d"]


def test_1905_basic_stake_everyone_plays_follow_or_trump_third_and_pot_betes():
    env, raw = table(hands=HANDS_1905, preset="meyers_1905")
    assert raw.state.forced and raw.state.phase is Phase.PLAY  # no bidding, no exchange
    play(env, "0:7c")
    assert legal(raw) == ["8c", "9c"]  # follow; no duty to head
    play(env, "1:8c")
    assert legal(raw) == sorted(["As", "Ks", "Qs"])
    play(env, "2:Qs 3:7d 1:9c 2:Ks 3:8d")
    assert legal(raw) == ["Ah", "Kh"]  # void: must trump (either)
    play(env, "0:Kh 0:Ah 1:Qh 2:As 3:9d")
    assert chips(raw) == [2, 1, -3, -6] and raw.state.ledger.pot == 6


def test_1905_with_a_bete_players_may_pass():
    env, raw = table(hands=HANDS_1905, preset="meyers_1905", pot=6)
    assert not raw.state.forced and raw.state.phase is Phase.BID


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


# =================================================== von Alvensleben 1859
def test_1859_first_lead_trump_ace_to_second_trick_counters_and_betes():
    env, raw = table(hands=HANDS_1905, ruleset="alvensleben_1859")
    assert legal(raw) == ["Ah", "Kh"]  # three or more active: the first lead is a trump
    play(env, "0:Kh 1:Qh 2:Qs 3:7d")
    assert legal(raw) == ["Ah"]  # won the first trick holding the trump ace: lead it
    play(env, "0:Ah")
    assert legal(raw) == ["8c", "9c"]  # void in trumps: free
    play(env, "1:8c 2:Ks 3:8d 0:7c 1:9c 2:As 3:9d")
    assert raw.state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, -3, -6] and raw.state.ledger.pot == 6  # one counter per trick; bête = stake


def test_1859_free_trumping_and_a_third_of_the_pot_with_a_bete():
    hands = ["Ah 7c 8c", "Kh 9c As", "Qh 10c Ks", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_1859", pot=6)
    play(env, "0:tap 1:tap 2:pass 3:pass")
    assert legal(raw) == ["7c", "8c", "Ah"]  # two active: the lead is free
    play(env, "0:7c 1:9c 1:As")
    assert legal(raw) == sorted(["8c", "Ah"])  # void in spades: may trump or discard
    play(env, "0:8c 1:Kh 0:Ah")
    assert raw.state.tricks_won == [1, 2, 0, 0]
    assert chips(raw) == [3, 6, 0, -3] and raw.state.ledger.pot == 0  # a third of 9 per trick


def test_1859_robbing_the_upcard_with_the_trump_seven():
    hands = ["Ah Kh 7c", "7h 8c 9s", "As Ks Qs", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_robbing")
    assert raw.state.phase is Phase.ROB and raw.state.to_act == 1
    play(env, "1:rob 1:discard_8c")
    assert sorted(raw.view("player_1")["hand"]) == sorted(["7h", "9s", "10h"])
    assert raw.view("player_0")["upcard_holder"] == 1 and raw.state.phase is Phase.PLAY


def test_1859_sniffing_drop_out_pays_a_simple_bete():
    env, raw = table(ruleset="alvensleben_sniffing", pot=6)
    assert raw.state.phase is Phase.DEALER and raw.view("player_3")["trump"] is None
    play(env, "3:sniff")
    assert raw.view("player_0")["trump_card"] == "10h"  # the upcard is taken openly
    play(env, "3:discard_7d")
    assert legal(raw) == ["drop", "tap"]
    play(env, "3:drop")
    assert chips(raw) == [0, 0, 0, -6] and raw.state.ledger.pot == 12 and raw.state.phase is Phase.BID


def test_1859_sniffer_without_a_trick_pays_a_double_bete():
    hands = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_sniffing", pot=6)
    play(env, "3:sniff 3:discard_7d 3:tap 0:tap 1:pass 2:pass 0:Ah 3:10h 0:Kh 3:8d 0:7c 3:9d")
    assert raw.state.tricks_won == [3, 0, 0, 0]
    assert raw.state.breakdown["betes"][3] == 18 and chips(raw)[3] == -3 - 18


def test_1859_maximum_bete_sets_the_excess_aside():
    env, raw = table(hands=HANDS_1905, ruleset="alvensleben_max_bete", pot=30)
    assert raw.state.ledger.pot == 24 and raw.state.ledger.set_aside == 9  # 30 + the dealer's 3, capped at 24
    play(env, "0:tap 1:pass 2:pass 3:pass")  # a lone player takes the 24 in play
    assert chips(raw) == [24, 0, 0, -3] and raw.state.ledger.pot == 0 and raw.state.ledger.set_aside == 9


class ScriptedCut:
    """A generator whose cuts show the given cards; everything else (the shuffle) is a seeded generator."""

    def __init__(self, pack, cuts: str):
        self._cuts = [pack.index[c] for c in pack.parse(cuts)]
        self._rng = np.random.default_rng(0)

    def integers(self, high):
        return self._cuts.pop(0)

    def __getattr__(self, name):
        return getattr(self._rng, name)


def test_1859_hop_and_jump_an_ace_then_a_seven_pass_the_deal_twice():
    game = rams_env.make_game("tippen", 4, ruleset="alvensleben_hop_and_jump")
    state = game.new_session(np.random.default_rng(0), 3, {"pot": 0, "bankrolls": [0] * 4})
    state.rng = ScriptedCut(game.pack(), "Ah 7c Kd")
    game.start_deal(state, None)
    assert state.hops == 2 and state.dealer == 1  # player_3's cut showed an ace, player_0's a seven
    assert state.ledger.bankrolls == [-3, -3, 0, -3] and state.ledger.pot == 9  # every new dealer antes too
    assert not state.forced and state.phase is Phase.BID and state.to_act == 2  # play is not forced


def test_1859_hop_and_jump_never_forces_play():
    for seed in range(10):
        env = rams_env.make("tippen", 4, ruleset="alvensleben_hop_and_jump")
        env.reset(seed=seed, options={"pot": 0, "bankrolls": [0] * 4})
        raw = env.unwrapped
        assert raw.state.phase is Phase.BID and not raw.state.forced
        assert raw.state.ledger.pot == 3 * (raw.state.hops + 1)


# ================================================ Drei Karten 1821 and Loup
def test_1821_dealer_last_card_shows_trumps_and_one_counter_per_trick():
    hands = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9h"]
    env, raw = table(hands=hands, turned=None, ruleset="drei_karten_1821")
    assert raw.view("player_0")["trump_card"] == "9h" and raw.view("player_0")["trump"] == "h"
    assert raw.state.forced and raw.state.phase is Phase.PLAY  # everyone plays the first hand
    play(env, "0:Ah 1:Qh 2:As 3:9h 0:Kh 1:8c 2:Ks 3:7d 0:7c 1:9s 2:Qs 3:8d")
    assert raw.state.tricks_won == [3, 0, 0, 0]
    # a counter per trick; the trickless pay 3 the first time, doubling the pool
    assert chips(raw) == [3, -3, -3, -6] and raw.state.ledger.pot == 9


def test_loup_six_cards_each_six_counters():
    env = rams_env.make("tippen", 5, ruleset="loup")
    env.reset(seed=0, options={"dealer": 4, "pot": 0})
    raw = env.unwrapped
    assert all(len(h) == 6 for h in raw.state.hands) and raw.state.ledger.pot == 6
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("tippen", 6, ruleset="loup")


# ============================================================ combinations
@pytest.mark.parametrize("ruleset", ["modern", "alvensleben_1859", "meyers_1905"])
@pytest.mark.parametrize(("dealer_option", "robbing", "shoving", "hop"),
                         list(itertools.product(["none", "knock", "sniff_grupp", "sniff_alvensleben"],
                                                [False, True], [False, True], [False, True])))
def test_variation_combinations_play_and_conserve(ruleset, dealer_option, robbing, shoving, hop):
    env = rams_env.make("tippen", 4, ruleset=ruleset, dealer_option=dealer_option, robbing=robbing,
                        shoving=shoving, hop_and_jump=hop, random_carry=True)
    rng = np.random.default_rng(5)
    for seed in range(6):
        random_playout(env, seed, rng, check_hidden_every=2)


@pytest.mark.parametrize("ruleset", ["drei_karten_1821", "loup"])
@pytest.mark.parametrize(("shoving", "hop", "max_bete"), list(itertools.product([False, True], [False, True], [0, 30])))
def test_old_rule_sets_with_their_valid_variations_play_and_conserve(ruleset, shoving, hop, max_bete):
    rng = np.random.default_rng(6)
    for n in (3, 5):
        env = rams_env.make("tippen", n, ruleset=ruleset, shoving=shoving, hop_and_jump=hop, max_bete=max_bete,
                            random_carry=True)
        for seed in range(4):
            random_playout(env, seed, rng, check_hidden_every=2)


@pytest.mark.parametrize(("options", "named"), [
    ({"hand_size": 4}, "hand_size"), ({"bete": "all"}, "bete"), ({"ruleset": "1700"}, "1700"),
    ({"trump_from": "dealer_last", "dealer_option": "knock"}, "dealer"),
])
def test_invalid_rules_are_named(options, named):
    with pytest.raises(ValueError, match=named):
        rams_env.make("tippen", 4, **options)


# ======================================= legal plays per rule set, table-driven
H1 = ["7c Ah Kh", "8c 9c Qh", "As Ks Qs", "7d 8d 9d"]
H2 = ["7c 8c 9c", "Ah Kh Qh", "As Ks Qs", "7d 8d 9d"]
H3 = ["7c 8c 9c", "Ah Ks Qs", "Kh As Js", "7d 8d 9d"]
H4 = ["7c Ah Kh", "8c 9c Qh", "As Ks Qs", "7d 8d 9h"]  # 1821: the dealer's last card (9h) shows trumps

LEGAL_CASES = [
    # (rule set, hands, turned, moves, legal for the player to act)
    ("meyers_1905", H1, "10h", "0:7c", "8c 9c"),  # follow; no duty to head
    ("meyers_1905", H1, "10h", "0:Ah", "Qh"),  # follow trumps
    ("meyers_1905", H1, "10h", "0:7c 1:8c 2:Qs", "7d 8d 9d"),  # void, no trump: any card
    ("meyers_1905", H2, "10h", "0:7c", "Ah Kh Qh"),  # void: must trump, any trump
    ("meyers_1905", H2, "10h", "0:7c 1:Qh", "As Ks Qs"),  # void, no trump, trick trumped: any card
    ("alvensleben_1859", H3, "10h", "", "7c 8c 9c"),  # no trump to lead: any card
    ("alvensleben_1859", H3, "10h", "0:7c", "Ah Ks Qs"),  # void: trump or discard at will
    ("alvensleben_1859", H3, "10h", "0:7c 1:Ah", "As Js Kh"),  # trumped trick: overtrump, discard, or under
    ("alvensleben_1859", H1, "10h", "", "Ah Kh"),  # three or more active: lead a trump
    ("drei_karten_1821", H4, None, "", "7c Ah Kh"),  # no duty to lead a trump
    ("drei_karten_1821", H4, None, "0:7c", "8c 9c"),
    ("drei_karten_1821", H4, None, "0:Ah", "Qh"),
    ("drei_karten_1821", H4, None, "0:Ah 1:Qh 2:As", "9h"),  # the dealer follows with the trump card shown
    ("drei_karten_1821", H4, None, "0:7c 1:8c 2:As", "7d 8d 9h"),  # void: may trump or discard
    ("modern", H2, "10h", "0:tap 1:tap 2:pass 3:pass 0:done 1:done 0:7c", "Ah Kh Qh"),
    ("modern", H3, "10h", "0:tap 1:tap 2:tap 3:pass 0:done 1:done 2:done 0:7c 1:Ah", "Kh"),  # void: trump
]


@pytest.mark.parametrize(("ruleset", "hands", "turned", "moves", "expected"), LEGAL_CASES)
def test_legal_plays_per_rule_set(ruleset, hands, turned, moves, expected):
    env, raw = table(hands=hands, turned=turned, ruleset=ruleset)
    if moves:
        play(env, moves)
    assert legal(raw) == sorted(expected.split())


def test_1821_with_a_bete_anyone_may_pass_and_tricks_still_earn_a_counter():
    env, raw = table(hands=H4, turned=None, ruleset="drei_karten_1821", pot=6)
    assert raw.state.phase is Phase.BID
    play(env, "0:tap 1:tap 2:pass 3:pass 0:Ah 1:Qh 0:7c 1:8c 1:9c 0:Kh")
    assert raw.state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, 0, -3] and raw.state.ledger.pot == 6


def test_loup_six_tricks_one_counter_each_trickless_pays_the_pot():
    hands = ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 9h", "As Ks Qs Js 10s 9d"]
    env, raw = table(hands=hands, turned=None, dealer=2, ruleset="loup")
    assert raw.view("player_0")["trump"] == "d" and raw.state.ledger.pot == 6  # the dealer antes 6
    play(env, "0:Ac 1:Ah 2:As 0:Kc 1:Kh 2:Ks 0:Qc 1:Qh 2:Qs 0:Jc 1:Jh 2:Js 0:10c 1:10h 2:10s 0:9c 1:9h 2:9d")
    assert raw.state.tricks_won == [5, 0, 1]
    assert chips(raw) == [5, -6, -5] and raw.state.ledger.pot == 6


def test_1905_lone_player_and_all_pass_with_a_bete():
    env, raw = table(hands=HANDS_1905, ruleset="meyers_1905", pot=9)
    play(env, "0:pass 1:pass 2:tap 3:pass")
    assert raw.state.breakdown["reason"] == "lone_player" and chips(raw) == [0, 0, 12, -3]
    env, raw = table(hands=HANDS_1905, ruleset="meyers_1905", pot=9)
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.state.breakdown["reason"] == "all_passed" and raw.state.ledger.pot == 12


def test_1905_trickless_player_pays_the_whole_pot():
    env, raw = table(hands=HANDS_1905, ruleset="meyers_1905", pot=9)
    play(env, "0:tap 1:tap 2:tap 3:pass 0:7c 1:8c 2:Qs 1:9c 2:Ks 0:Kh 0:Ah 1:Qh 2:As")
    assert raw.state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [8, 4, -12, -3] and raw.state.ledger.pot == 12  # a third of 12 per trick


# ============================================== more Drei Karten (1821) and Loup
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
    assert raw.state.tricks_won == tricks
    assert chips(raw) == [2, -3, -3, 1 - 3] and raw.state.ledger.pot == 6  # a counter a trick; bêtes of 3


def test_1821_with_a_bete_the_trickless_player_doubles_the_pool():
    env, raw = table(hands=H4, turned=None, ruleset="drei_karten_1821", pot=6)
    play(env, "0:tap 1:tap 2:tap 3:pass 0:Ah 1:Qh 2:As 0:Kh 1:8c 2:Ks 0:7c 1:9c 2:Qs")
    assert raw.state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, -9, -3] and raw.state.ledger.pot == 9 - 3 + 9


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
    assert raw.view("player_0")["trump_card"] == "7d" and raw.state.phase is Phase.PLAY  # forced: 6 in the pot
    if moves:
        play(env, moves)
    assert legal(raw) == sorted(expected.split())


def test_loup_with_a_bete_a_trickless_player_pays_the_pot():
    hands = ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 9h", "As Ks Qs Js 10s 9d"]
    env, raw = table(hands=hands, turned=None, dealer=2, ruleset="loup", pot=6)
    play(env, "0:tap 1:tap 2:pass " + " ".join(f"0:{c} 1:{h}" for c, h in zip(hands[0].split(), hands[1].split(),
                                                                                 strict=True)))
    assert raw.state.tricks_won == [6, 0, 0]
    assert chips(raw) == [6, -12, -6] and raw.state.ledger.pot == 12 - 6 + 12  # a counter a trick; the pot
def test_1821_table_sizes_and_everyone_plays_the_first_hand():
    rams_env.make("tippen", 6, ruleset="drei_karten_1821")
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("tippen", 7, ruleset="drei_karten_1821")
    env, raw = table(hands=H4, turned=None, ruleset="drei_karten_1821")
    assert raw.state.bids == [raw.state.bids[0]] * 4 and raw.state.forced
    assert raw.state.hands[3][-1] == raw.game.pack().parse("9h")[0]  # the trump card stays with the dealer


@pytest.mark.parametrize("ruleset", ["drei_karten_1821", "loup"])
def test_old_rule_sets_lone_player_and_all_pass_with_a_bete(ruleset):
    hands = H4 if ruleset == "drei_karten_1821" else ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 9h",
                                                      "As Ks Qs Js 10s 9s", "Ad Kd Qd Jd 10d 9d"]
    stake = 3 if ruleset == "drei_karten_1821" else 6
    env, raw = table(hands=hands, turned=None, ruleset=ruleset, pot=6)
    play(env, "0:pass 1:tap 2:pass 3:pass")
    assert raw.state.breakdown["reason"] == "lone_player" and chips(raw) == [0, 6 + stake, 0, -stake]
    env, raw = table(hands=hands, turned=None, ruleset=ruleset, pot=6)
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.state.ledger.pot == 6 + stake and raw.state.dealer == 0


def test_loup_follow_suit_and_free_trumping():
    hands = ["Ac Kc Qc Jc 10c 9c", "Ah Kh Qh Jh 10h 8c", "As Ks Qs Js 10s 9d"]
    env, raw = table(hands=hands, turned=None, dealer=2, ruleset="loup")
    play(env, "0:Ac")
    assert legal(raw) == ["8c"]
    play(env, "1:8c")
    assert legal(raw) == sorted("As Ks Qs Js 10s 9d".split())  # void: trump or discard at will
