"""Tippen, von Alvensleben 1859 (Dreiblatt): trump leads, counters and bêtes, and its variations.

Source: ../shared/seeds/000_87480ce3960bd8a6.txt, section "Dreiblatt or Tippen (1859)": Preliminaries,
Bidding, Play, Variations (robbing, sniffing, maximum bête, hop and jump).
"""

from __future__ import annotations

import numpy as np

import rams_env
from rams_env.games.tippen import Phase
from tests.tippen_helpers import HANDS_1905, chips, legal, play, table


def test_1859_first_lead_trump_ace_to_second_trick_counters_and_betes():
    env, raw = table(hands=HANDS_1905, ruleset="alvensleben_1859")
    assert legal(raw) == ["Ah", "Kh"]  # three or more active: the first lead is a trump
    play(env, "0:Kh 1:Qh 2:Qs 3:7d")
    assert legal(raw) == ["Ah"]  # won the first trick holding the trump ace: lead it
    play(env, "0:Ah")
    assert legal(raw) == ["8c", "9c"]  # void in trumps: free
    play(env, "1:8c 2:Ks 3:8d 0:7c 1:9c 2:As 3:9d")
    assert raw.game_state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, -3, -6] and raw.game_state.ledger.pot == 6  # one counter per trick; bête = stake


def test_1859_free_trumping_and_a_third_of_the_pot_with_a_bete():
    hands = ["Ah 7c 8c", "Kh 9c As", "Qh 10c Ks", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_1859", pot=6)
    play(env, "0:tap 1:tap 2:pass 3:pass")
    assert legal(raw) == ["7c", "8c", "Ah"]  # two active: the lead is free
    play(env, "0:7c 1:9c 1:As")
    assert legal(raw) == sorted(["8c", "Ah"])  # void in spades: may trump or discard
    play(env, "0:8c 1:Kh 0:Ah")
    assert raw.game_state.tricks_won == [1, 2, 0, 0]
    assert chips(raw) == [3, 6, 0, -3] and raw.game_state.ledger.pot == 0  # a third of 9 per trick


# ============================================================ variations
def test_1859_robbing_the_upcard_with_the_trump_seven():
    hands = ["Ah Kh 7c", "7h 8c 9s", "As Ks Qs", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_robbing")
    assert raw.game_state.phase is Phase.ROB and raw.game_state.to_act == 0  # everyone is asked in turn, from forehand
    assert legal(raw) == ["decline"]  # only the holder of the trump seven may rob
    play(env, "0:decline")
    assert legal(raw) == ["decline", "rob"]
    play(env, "1:rob 1:discard_8c")
    assert sorted(raw.view("player_1")["hand"]) == sorted(["7h", "9s", "10h"])
    assert raw.view("player_0")["upcard_holder"] == 1 and raw.game_state.phase is Phase.PLAY  # the others are not asked


def test_1859_robbing_declined_by_all_then_the_bidding():
    hands = ["Ah Kh 7c", "7h 8c 9s", "As Ks Qs", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_robbing", pot=6)
    play(env, "0:decline 1:decline 2:decline 3:decline")
    assert raw.game_state.phase is Phase.BID and raw.game_state.to_act == 0 and raw.game_state.upcard_taken_by is None


def test_1859_sniffing_drop_out_pays_a_simple_bete():
    env, raw = table(ruleset="alvensleben_sniffing", pot=6)
    assert raw.game_state.phase is Phase.DEALER and raw.view("player_3")["trump"] is None
    play(env, "3:sniff")
    assert raw.view("player_0")["trump_card"] == "10h"  # the upcard is taken openly
    play(env, "3:discard_7d")
    assert legal(raw) == ["drop", "tap"]
    play(env, "3:drop")
    assert chips(raw) == [0, 0, 0, -6] and raw.game_state.ledger.pot == 12 and raw.game_state.phase is Phase.BID


def test_1859_sniffer_without_a_trick_pays_a_double_bete():
    hands = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9d"]
    env, raw = table(hands=hands, ruleset="alvensleben_sniffing", pot=6)
    play(env, "3:sniff 3:discard_7d 3:tap 0:tap 1:pass 2:pass 0:Ah 3:10h 0:Kh 3:8d 0:7c 3:9d")
    assert raw.game_state.tricks_won == [3, 0, 0, 0]
    assert raw.game_state.breakdown["betes"][3] == 18 and chips(raw)[3] == -3 - 18


def test_1859_maximum_bete_sets_the_excess_aside():
    env, raw = table(hands=HANDS_1905, ruleset="alvensleben_max_bete", pot=30)
    assert raw.game_state.ledger.pot == 24 and raw.game_state.ledger.set_aside == 9  # 30 + the dealer's 3, capped at 24
    play(env, "0:tap 1:pass 2:pass 3:pass")  # a lone player takes the 24 in play
    assert chips(raw) == [24, 0, 0, -3] and raw.game_state.ledger.pot == 0 and raw.game_state.ledger.set_aside == 9


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
        assert raw.game_state.phase is Phase.BID and not raw.game_state.forced
        assert raw.game_state.ledger.pot == 3 * (raw.game_state.hops + 1)
