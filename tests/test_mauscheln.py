"""Mauscheln scenarios from the source (003_c37dfd1970c91b7f.txt): exact chips and legal moves."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rams_env
from rams_env.core.cards import cards
from rams_env.games.mauscheln import Phase
from tests import tiers
from tests.conformance import random_playout
from tests.scripting import chips, legal, play, pot_table

HANDS = ["Ah Kh Qh 7c", "Jh 10h 8c 9c", "As Ks 7s 8s", "Ad Kd Qd Jd"]


def table(hands=HANDS, turned="9h", dealer=3, pot=0, stock=None, n=None, **rules):
    return pot_table("mauscheln", hands, dealer, pot, turned, stock, n, **rules)


# ------------------------------------------------------------------- "Bidding"
def test_bidding_order_and_masks():
    env, raw = table()
    assert raw.game_state.ledger.pot == 4 and chips(raw) == [0, 0, 0, -4]  # the dealer's Pinke
    assert raw.game_state.phase is Phase.SNEAK and raw.game_state.to_act == 0  # forehand opens
    assert legal(raw) == ["pass", "sneak"]
    play(env, "0:pass 1:sneak")
    assert raw.game_state.phase is Phase.JOIN and raw.game_state.to_act == 2  # the others, from the sneaker's left
    assert legal(raw) == ["join", "pass"]
    play(env, "2:pass 3:pass 0:join")  # a player who passed on sneaking may still join
    assert raw.game_state.phase is Phase.EXCHANGE and raw.game_state.to_act == 0  # active players from forehand


def test_sneak_and_all_pass_sneaker_takes_the_pot():
    env, raw = table(pot=8)
    play(env, "0:sneak 1:pass 2:pass 3:pass")
    assert raw.game_state.terminal and raw.game_state.breakdown["reason"] == "all_passed"
    assert chips(raw) == [12, 0, 0, -4] and raw.game_state.ledger.pot == 0


def test_nobody_sneaks_cards_thrown_in_next_player_pays_and_deals():
    env = rams_env.make("mauscheln", 4, episode="session", session_deals=2)
    env.reset(seed=1, options={"dealer": 3, "pot": 0, "bankrolls": [0, 0, 0, 0]})
    raw = env.unwrapped
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.deals_played == 1 and raw.game_state.dealer == 0
    assert raw.game_state.ledger.pot == 8 and chips(raw) == [-4, 0, 0, -4]  # the pot grows


# ------------------------------------------------------------ "Playing", "Scoring"
def test_follow_head_and_shares_per_trick():
    env, raw = table()
    play(env, "0:sneak 1:join 2:join 3:pass 0:done 1:done 2:done")
    assert raw.game_state.to_act == 0  # the sneaker leads
    play(env, "0:Ah")
    assert legal(raw) == ["10h", "Jh"]  # must follow; cannot head the ace
    play(env, "1:Jh")
    assert legal(raw) == sorted("As Ks 7s 8s".split())  # void, no trump: any card
    play(env, "2:7s 0:Kh 1:10h 2:8s 0:Qh 1:8c 2:Ks 0:7c")
    assert legal(raw) == ["9c"]  # follow and head: the 9 beats the 7, the 8 does not
    play(env, "1:9c 2:As")
    assert raw.game_state.tricks_won == [3, 1, 0, 0]
    # pot 4: a trick earns 1; the trickless joiner pays a bête of the pot (4)
    assert chips(raw) == [3, 1, -4, -4] and raw.game_state.ledger.pot == 4


@pytest.mark.parametrize(("hands", "moves", "expected_chips", "expected_pot"), [
    # sneaker with one trick pays a bête (the pot of 12): +3 - 12
    (["Ah 7c 8c 7s", "Kh Qh Ac Kc", "Js 10s 9s 8s", "Ad Kd Qd Jd"],
     "0:Ah 1:Qh 0:7c 1:Ac 1:Kc 0:8c 1:Kh 0:7s", [-9, 9, 0, -4], 12),
    # sneaker without a trick pays a double bête (24)
    (["7c 8c 7s 8s", "Ah Kh Ac Kc", "Js 10s 9s Qs", "Ad Kd Qd Jd"],
     "0:7c 1:Ac 1:Ah 0:8c 1:Kh 0:7s 1:Kc 0:8s", [-24, 12, 0, -4], 24),
    # sneaker with two tricks pays nothing; a quarter of the pot (12) per trick
    (["Ah Kh 7c 8c", "Qh Jh Ac Kc", "Js 10s 9s 8s", "Ad Kd Qd Jd"],
     "0:Ah 1:Qh 0:Kh 1:Jh 0:7c 1:Ac 1:Kc 0:8c", [6, 6, 0, -4], 0),
])
def test_sneaker_betes(hands, moves, expected_chips, expected_pot):
    env, raw = table(hands=hands, pot=8)
    play(env, "0:sneak 1:join 2:pass 3:pass 0:done 1:done " + moves)
    assert raw.game_state.terminal
    assert chips(raw) == expected_chips and raw.game_state.ledger.pot == expected_pot


def test_trick_share_of_the_pinke_option():
    env, raw = table(pot=8, trick_share="pinke")
    play(env, "0:sneak 1:join 2:pass 3:pass 0:done 1:done 0:Ah 1:Jh 0:Kh 1:10h 0:Qh 1:8c 0:7c 1:9c")
    assert chips(raw) == [3, 1, 0, -4]  # a quarter of the Pinke (4) per trick, not of the pot (12)


# ---------------------------------------------------------------- "Belli", "Weli"
def test_belli_is_the_second_trump():
    hands = ["Ah Qh 9c 10c", "7d Kc Qc Jc", "Kh As Ks Qs", "Ad Kd Qd Jd"]
    env, raw = table(hands=hands, turned="9h", belli=True)
    play(env, "0:sneak 1:join 2:join 3:pass 0:done 1:done 2:done 0:Qh")
    assert legal(raw) == ["7d"]  # hearts led: the Belli is a trump and must follow
    play(env, "1:7d")
    assert legal(raw) == ["Kh"]
    play(env, "2:Kh")
    assert raw.game_state.tricks_won == [0, 1, 0, 0]  # Belli beats the king of trumps
    play(env, "1:Kc 2:As 0:10c")
    play(env, "1:Qc 2:Ks 0:9c 1:Jc 2:Qs 0:Ah")


def test_weli_is_the_33rd_card_and_second_trump():
    env = rams_env.make("mauscheln", 4, weli=True)
    assert len(env.unwrapped.game.pack()) == 33
    hands = ["Ah Qh 9c 10c", "6d Kc Qc Jc", "Kh As Ks Qs", "Ad Kd Qd Jd"]
    env, raw = table(hands=hands, turned="9h", weli=True)
    play(env, "0:sneak 1:join 2:join 3:pass 0:done 1:done 2:done 0:Ah")
    assert legal(raw) == ["6d"]
    play(env, "1:6d 2:Kh")
    assert raw.game_state.tricks_won == [1, 0, 0, 0]  # the Weli ranks below the trump ace


def test_belli_penalty_when_it_falls_to_the_ace():
    hands = ["Ah Qh 9c 10c", "7d Kc Qc Jc", "Kh As Ks Qs", "Ad Kd Qd Jd"]
    env, raw = table(hands=hands, turned="9h", belli=True, belli_penalty=2)
    play(env, "0:sneak 1:join 2:join 3:pass 0:done 1:done 2:done 0:Ah 1:7d 2:Kh")
    play(env, "0:Qh 1:Kc 2:As 0:9c 1:Qc 2:Ks 1:Jc 2:Qs 0:10c")
    assert raw.game_state.breakdown["belli_penalties"] == [1]


# ----------------------------------------------------------- exchange, quartets
def test_exchange_up_to_four_as_far_as_the_talon_lasts():
    env, raw = table(n=5, hands=HANDS + ["10d 9d 8d 7d"], dealer=4,
                     stock="7h 8h 10s 9s Js Qc Kc Ac 10c Jc Qs")
    play(env, "0:sneak 1:join 2:join 3:join 4:join")
    play(env, "0:discard_7c 0:done")
    assert raw.game_state.hands[0] == cards("Ah Kh Qh 7h")  # the talon's top card
    play(env, "1:discard_8c 1:discard_9c 1:discard_Jh 1:discard_10h")  # four: the exchange ends itself
    assert raw.game_state.to_act == 2 and len(raw.game_state.talon) == 6
    play(env, "2:discard_As 2:discard_Ks 2:discard_7s 2:done")
    assert raw.game_state.to_act == 3 and len(raw.game_state.talon) == 3
    play(env, "3:discard_Ad 3:discard_Kd 3:discard_Qd")  # the talon is used up: the exchange ends itself
    assert raw.game_state.talon == [] and raw.game_state.hands[3] == cards("Jd 10c Jc Qs")
    assert raw.game_state.exchanged == [1, 4, 3, 3, 0] and raw.game_state.phase is Phase.PLAY  # player_4 had no talon


def test_quartet_is_discarded_paid_for_and_replaced():
    hands = ["Ac As Ah Ad", "Jh 10h 8c 9c", "Ks 7s 8s Qs", "Kd Qd Jd 10d"]
    env, raw = table(hands=hands, turned="9h", stock="7c Kh 7h 8h 10s 9s Js Qc Kc 10c Jc Qh 7d 8d 9d", quartets=True)
    assert raw.game_state.hands[0] == cards("7c Kh 7h 8h")
    assert raw.game_state.quartets == [1, 0, 0, 0] and raw.game_state.ledger.pot == 8 and chips(raw)[0] == -4
    assert sorted(raw.view("player_0")["own_discards"]) == sorted(["Ac", "As", "Ah", "Ad"])
    assert raw.view("player_1")["quartets"][3] == 1  # public: player_0 is three seats on player_1's left
    play(env, "0:sneak 1:join 2:pass 3:pass")
    assert raw.game_state.to_act == 0 and "discard 7c" in legal(raw)  # the new hand may be exchanged


# ------------------------------------------------------------------- "Knocking"
def test_dealer_knocks_blind_and_takes_the_turn_up():
    env, raw = table(turned="Ac", stock="7h 8h 10s 9s Js Qc Kc 10c Jc Qs 8d 9d 10d 7d 9h", dealer_knock=True)
    assert raw.game_state.phase is Phase.KNOCK and raw.game_state.to_act == 3
    obs = raw.observe("player_3")["observation"]
    assert not obs[raw.game.observation["hand"]].any()  # the dealer has not looked at the hand
    assert raw.view("player_3")["hand"] == []
    play(env, "3:knock 0:join 1:pass 2:pass")
    assert raw.game_state.to_act == 3 and "done" not in legal(raw)  # must exchange for the turn-up
    play(env, "3:discard_Jd 3:discard_Qd 3:done")
    assert sorted(raw.game_state.hands[3]) == sorted(cards("Ad Kd Ac 7h"))
    play(env, "0:done")
    assert raw.game_state.phase is Phase.PLAY and raw.game_state.to_act == 3  # the knocker leads


KNOCK_HANDS = ["Ah Kh Qh 7c", "Jh 10h 8c 9c", "As Ks 7s 8s", "Ad Kd Qd Jd"]


@pytest.mark.parametrize(("discards", "stock", "moves", "tricks", "expected"), [
    # the knocker, now the sneaker, takes all four: the trickless joiner pays a bête (the pot, 4)
    ("Jd Qd", "Kc 7h 8h 9h 10s 9s Js Qs 10d 9d 8d 7d Qc Jc 10c", "3:Ac 1:8c 3:Kc 1:9c 3:Ad 1:Jh 3:Kd 1:10h",
     [0, 0, 0, 4], [0, -4, 0, 0]),
    # the knocker takes one trick: a bête
    ("Ad Kd Qd", "7d 8d Kc 7h 8h 9h 10s 9s Js Qs 10d 9d Qc Jc 10c", "3:Ac 1:8c 3:Jd 1:9c 1:Jh 3:7d 1:10h 3:8d",
     [0, 3, 0, 1], [0, 3, 0, -4 + 1 - 4]),
])
def test_knocking_dealer_is_the_sneaker_and_leads(discards, stock, moves, tricks, expected):
    env, raw = table(hands=KNOCK_HANDS, turned="Ac", stock=stock, dealer_knock=True)
    play(env, "3:knock 0:pass 1:join 2:pass " + " ".join(f"3:discard_{c}" for c in discards.split()))
    play(env, "3:done 1:done")
    assert raw.game_state.phase is Phase.PLAY and raw.game_state.to_act == 3 and raw.game_state.sneaker == 3
    play(env, moves)
    assert raw.game_state.tricks_won == tricks and chips(raw) == expected and raw.game_state.ledger.pot == 4


def test_knocking_dealer_takes_the_pot_when_all_fold():
    env, raw = table(hands=KNOCK_HANDS, turned="Ac", pot=8, dealer_knock=True)
    play(env, "3:knock 0:pass 1:pass 2:pass")
    assert raw.game_state.breakdown["reason"] == "all_passed" and chips(raw) == [0, 0, 0, 8]


@pytest.mark.parametrize(("special", "card"), [("belli", "7d"), ("weli", "6d")])
@pytest.mark.parametrize(("p1", "expected"), [
    ("{card} 8d Kc Qc", ["8d"]),  # the permanent trump is no diamond: follow with the 8
    ("{card} Kc Qc Jc", ["{card}"]),  # void in diamonds: must trump, with the Belli/Weli
])
def test_belli_and_weli_are_trumps_not_diamonds(special, card, p1, expected):
    hands = ["Ad Qh 9c 10c", p1.format(card=card), "Kh As Ks Qs", "Kd Qd Jd 10d"]
    env, raw = table(hands=hands, turned="9h", **{special: True})
    play(env, "0:sneak 1:join 2:join 3:pass 0:done 1:done 2:done 0:Ad")
    assert legal(raw) == [e.format(card=card) for e in expected]
    play(env, f"1:{legal(raw)[0]}")
    assert legal(raw) == ["Kh"]  # void: trump, and head the trick if able


def test_knock_only_on_a_high_turn_up():
    env, raw = table(turned="9h", dealer_knock=True)
    assert raw.game_state.phase is Phase.SNEAK


# ------------------------------------------------------------------ options
@pytest.mark.parametrize(("options", "named"), [
    ({"pinke": 6}, "pinke"), ({"belli": True, "weli": True}, "weli"), ({"max_exchange": 5}, "max_exchange"),
    ({"trick_share": "half"}, "trick_share"), ({"belli_penalty": 1}, "belli_penalty"),
])
def test_invalid_rules_are_named(options, named):
    with pytest.raises(ValueError, match=named):
        rams_env.make("mauscheln", 4, **options)


def test_large_table_with_the_52_card_pack():
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("mauscheln", 6)
    env = rams_env.make("mauscheln", 10, large_pack=True)
    env.reset(seed=0)
    raw = env.unwrapped
    assert len(raw.game.pack()) == 52 and len(raw.game_state.talon) == 52 - 41
    rng = np.random.default_rng(0)
    while not raw.game_state.terminal:
        env.step(int(rng.choice(raw.legal_actions())))


COMBINATIONS = [
    dict(zip(("dealer_knock", "quartets", "special", "trick_share", "large_pack"), combo, strict=True))
    for combo in itertools.product([False, True], [False, True], ["none", "belli", "weli"], ["pot", "pinke"],
                                   [False, True])
]


def fast_sample(combo: dict) -> bool:
    """The fast tier's sample: every option off (shares from the pot) or on (from the Pinke), each special."""
    flags = [v for k, v in combo.items() if k != "special"]
    return tiers.all_or_none(*(v is True or v == "pinke" for v in flags))


@tiers.parametrize("combo", COMBINATIONS, fast_sample, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_every_option_combination_plays_and_conserves(combo):
    options = {k: v for k, v in combo.items() if k != "special"}
    options["belli"], options["weli"] = combo["special"] == "belli", combo["special"] == "weli"
    if options["weli"] and options["large_pack"]:
        with pytest.raises(ValueError, match="weli"):
            rams_env.make("mauscheln", 4, **options)
        return
    rng = np.random.default_rng(1)
    for n in (3, 7 if options["large_pack"] else 5):
        env = rams_env.make("mauscheln", n, knock_ranks=("A", "K", "Q"), **options)
        for seed in range(15):
            random_playout(env, seed, rng, check_hidden_every=3)
