"""Lupfen scenarios from the source (002_2dae4dad0cbb3ec9.txt): exact chips and legal moves."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rams_env
from rams_env.games.lupfen import Phase, Round
from tests import tiers
from tests.conformance import random_playout
from tests.scripting import chips, legal, play, pot_table


def table(hands, stock, dealer, pot=0, **rules):
    return pot_table("lupfen", hands, dealer, pot, stock=stock, **rules)


def rest(hands, top: str) -> str:
    """The stock: ``top`` first, then every other card of the 20-card pack."""
    used = set(" ".join(hands).split()) | {top}
    others = [c for c in rams_env.make_game("lupfen").pack().codes if c not in used]
    return " ".join([top, *others])


EXAMPLE_1 = ["Ad Js Jc", "Kd As Ac", "Qs Qc Kc"]
EXAMPLE_2 = ["Ac Kc Qc", "Ah 10h Kh", "As Ks Qs"]


# ----------------------------------------------------------------- "Lupfen"
def test_worked_example_1_shares_and_a_bete_keep_the_pot():
    """A lifts, B and C play; A one trick, B two, C none: A 1/3, B 2/3, C pays the pot."""
    env, raw = table(EXAMPLE_1, rest(EXAMPLE_1, "Qd"), dealer=2, pot=9)
    assert raw.game_state.round is Round.LUPFEN and raw.game_state.phase is Phase.LIFT and raw.game_state.to_act == 0
    assert raw.view("player_0")["trump"] is None  # nothing turned before the lift
    play(env, "0:lift")
    assert raw.view("player_1")["turned"] == "Qd" and raw.game_state.phase is Phase.JOIN
    play(env, "1:mit 2:mit 0:keep 1:keep 2:keep 0:Ad")  # everyone asked about scrap; nobody holds it
    assert legal(raw) == ["Kd"]  # must follow trumps
    play(env, "1:Kd")
    assert legal(raw) == sorted(["Qs", "Qc", "Kc"])  # void and no trump: any card
    play(env, "2:Kc 0:Js 1:As 2:Qs 1:Ac 2:Qc 0:Jc")
    assert raw.game_state.tricks_won == [1, 2, 0]
    assert chips(raw) == [3, 6, -9] and raw.game_state.ledger.pot == 9  # "the total in the pot stays the same"


def test_worked_example_2_lifter_takes_all_others_each_pay_the_pot():
    env, raw = table(EXAMPLE_2, rest(EXAMPLE_2, "Qh"), dealer=0, pot=12)
    play(env, "1:lift 2:mit 0:mit 1:keep 2:keep 0:keep 1:Ah 2:As 0:Ac 1:10h 2:Ks 0:Kc 1:Kh 2:Qs 0:Qc")
    assert chips(raw) == [-12, 12, -12] and raw.game_state.ledger.pot == 24  # the pot doubled


def test_players_who_passed_before_the_lift_are_out():
    env, raw = table(EXAMPLE_2, rest(EXAMPLE_2, "Qh"), dealer=2, pot=12)
    play(env, "0:pass 1:lift")
    assert raw.game_state.to_act == 2  # only the players after the lifter decide
    play(env, "2:pass")
    assert raw.game_state.terminal and raw.game_state.breakdown["reason"] == "lifter_alone"
    assert chips(raw) == [0, 12, 0]  # a lifter whom nobody joins wins the pot


def test_nobody_lifts_the_pot_stays_and_the_deal_passes():
    env, raw = table(EXAMPLE_2, rest(EXAMPLE_2, "Qh"), dealer=2, pot=12)
    play(env, "0:pass 1:pass 2:pass")
    assert raw.game_state.breakdown["reason"] == "nobody_lifted" and raw.game_state.ledger.pot == 12
    assert raw.game_state.dealer == 0


# ------------------------------------------------------------------ "Force"
def test_force_round_everyone_antes_and_must_trump():
    hands = ["Ac Kd Js", "Kc Ks Qs", "10c Jc Ah"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=0)
    assert raw.game_state.round is Round.FORCE and raw.game_state.phase is Phase.SCRAP  # everyone is asked before play
    assert raw.game_state.ledger.pot == 9 and chips(raw) == [-3, -3, -3]
    assert raw.view("player_1")["trump"] == "d"  # the top card is turned at once
    play(env, "0:keep 1:keep 2:keep")
    assert raw.game_state.phase is Phase.PLAY
    play(env, "0:Js 1:Ks")
    assert legal(raw) == ["10c", "Ah", "Jc"]  # void in spades and no trump: any card
    play(env, "2:Ah 1:Kc")
    assert legal(raw) == ["10c", "Jc"]  # follow clubs
    play(env, "2:10c 0:Ac")
    assert raw.game_state.tricks_won == [1, 1, 0]
    assert legal(raw) == ["Kd"]
    play(env, "0:Kd 1:Qs 2:Jc")
    assert raw.game_state.tricks_won == [2, 1, 0]
    # a third of 9 per trick; the trickless player pays the pot (9)
    assert chips(raw) == [3, 0, -12] and raw.game_state.ledger.pot == 9


def test_force_is_repeated_while_everyone_takes_a_trick():
    hands = ["Ac Kd Js", "Ks Kc 10h", "Ad Qc Qs"]
    env = rams_env.make("lupfen", 3, episode="session", session_end="deals", session_deals=2)
    env.reset(seed=0, options={"deal": {"hands": [h.split() for h in hands], "stock": rest(hands, "Qd").split()},
                               "dealer": 2, "pot": 0, "bankrolls": [0, 0, 0]})
    raw = env.unwrapped
    play(env, "0:keep 1:keep 2:keep 0:Js 1:Ks 2:Qs 1:Kc 2:Qc 0:Ac 0:Kd 1:10h 2:Ad")
    assert raw.game_state.deals_played == 1 and raw.game_state.deal_results[0] == [0, 0, 0]
    # pot shared out: a new force, new antes
    assert raw.game_state.round is Round.FORCE and raw.game_state.ledger.pot == 9


# ------------------------------------------------------- special combinations
def test_three_unters_in_a_force_round():
    hands = ["Ac Kd Qs", "Jc Js Jh", "10c Kc Ah", "As Ks Qc"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=3, pot=0)
    assert raw.game_state.phase is Phase.DECLARE and raw.game_state.to_act == 1 and legal(raw) == ["declare"]
    play(env, "1:declare")
    assert chips(raw) == [-15, 9, -15, -15] and raw.game_state.ledger.pot == 36


def test_three_unters_in_a_lupfen_round_are_declared_after_the_others_decide():
    hands = ["Ad As Ac", "Kd Ks Kc", "Jh Jd Jc"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=9)
    play(env, "0:lift 1:mit 2:mit")
    assert raw.game_state.phase is Phase.DECLARE and raw.game_state.to_act == 2
    play(env, "2:declare")
    assert chips(raw) == [-9, -9, 9] and raw.game_state.ledger.pot == 18


def test_scrap_in_a_force_round_redeals_without_payment():
    hands = ["Kc Ks Qs", "Jc Js Qh", "10c 10s Ah"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=0)
    state = raw.game_state
    assert state.phase is Phase.SCRAP and state.to_act == 0 and legal(raw) == ["keep"]  # asked, no scrap
    play(env, "0:keep")
    assert raw.game_state.to_act == 1 and legal(raw) == ["keep", "scrap"]
    play(env, "1:scrap")
    assert raw.game_state.ledger.pot == 9 and chips(raw) == [-3, -3, -3]  # antes once, nobody pays the pot
    assert raw.game_state.round is Round.FORCE and raw.game_state.breakdown["scrapped_by"] == [1]
    assert sum(len(h) for h in raw.game_state.hands) == 9  # dealt again


def test_scrap_held_back_until_someone_joins_a_lift():
    hands = ["Jc Js Qh", "Kc Ks Qs", "10c 10s Ah"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=9)
    play(env, "0:lift 1:mit 2:pass")
    state = raw.game_state
    assert state.phase is Phase.SCRAP and state.to_act == 0 and state.queue == [0, 1]  # those playing
    play(env, "0:scrap")
    assert raw.game_state.phase is Phase.LIFT and raw.game_state.ledger.pot == 9 and chips(raw) == [0, 0, 0]


def test_scrap_kept_hidden_a_lifter_nobody_joins_wins_the_pot():
    hands = ["Jc Js Qh", "Kc Ks Qs", "10c 10s Ah"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=9)
    play(env, "0:lift 1:pass 2:pass")
    assert raw.game_state.breakdown["reason"] == "lifter_alone" and chips(raw) == [9, 0, 0]


def test_three_unters_a_lone_lifter_wins_and_a_holder_who_passed_has_no_claim():
    hands = ["Ad As Ac", "Kd Ks Kc", "Jh Jd Jc"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=1, pot=9)
    play(env, "2:lift 0:pass 1:pass")
    assert raw.game_state.breakdown["reason"] == "lifter_alone" and chips(raw) == [0, 0, 9]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=9)
    play(env, "0:lift 1:mit 2:pass")
    assert raw.game_state.phase is Phase.SCRAP and legal(raw) == ["keep"]
    play(env, "0:keep 1:keep")
    assert raw.game_state.phase is Phase.PLAY and raw.game_state.to_act == 0


def test_staender_is_announced_publicly():
    hands = ["Ac Kc Qc", "Kd Ks Qs", "10c 10s Ah"]
    env, raw = table(hands, rest(hands, "Qd"), dealer=2, pot=9)
    assert raw.view("player_1")["staender"] == [False, False, True]  # player_0 sits two seats on


# ----------------------------------------------------------------- variations
def test_compulsory_hearts_and_compulsory_lift():
    hands = ["Ac As Qc", "Kd Ks Qs", "10c 10s Ah"]
    env, raw = table(hands, rest(hands, "Qh"), dealer=2, pot=9, compulsory_hearts=True, compulsory_lift=True)
    assert legal(raw) == ["lift"]  # two Sows must lift
    play(env, "0:lift")
    assert legal(raw) == ["mit"]  # hearts are trumps: everybody plays


def test_blind_lift_losers_pay_double():
    hands = EXAMPLE_2
    env, raw = table(hands, rest(hands, "Qh"), dealer=0, pot=12, blind_lift=True)
    assert legal(raw) == ["blind", "look"]
    assert not raw.observe("player_1")["observation"][raw.game.observation["hand"]].any()
    play(env, "1:blind 2:mit 0:mit 1:keep 2:keep 0:keep 1:Ah 2:As 0:Ac 1:10h 2:Ks 0:Kc 1:Kh 2:Qs 0:Qc")
    assert chips(raw) == [-24, 12, -24] and raw.game_state.ledger.pot == 48


def test_dealer_fee_and_shoving():
    hands = EXAMPLE_2
    env, raw = table(hands, rest(hands, "Qh"), dealer=0, pot=12, dealer_fee=3, shoving=True)
    assert raw.game_state.phase is Phase.SHOVE and raw.game_state.to_act == 0 and chips(raw) == [-3, 0, 0]
    play(env, "0:shove 1:shove")
    assert legal(raw) == ["deal"]  # everyone else has shoved once: the last must deal
    play(env, "2:deal")
    assert chips(raw) == [-3, -3, -3] and raw.game_state.ledger.pot == 21 and raw.game_state.dealer == 2
    assert raw.game_state.phase is Phase.LIFT and raw.game_state.to_act == 0


@pytest.mark.parametrize(("options", "named"), [
    ({"dealer_fee": 4}, "dealer_fee"), ({"shoving": True}, "shoving"), ({"ante": 0}, "ante"),
    ({"session_end": "never"}, "session_end"),
])
def test_invalid_rules_are_named(options, named):
    with pytest.raises(ValueError, match=named):
        rams_env.make("lupfen", 4, **options)


FLAGS = ("shoving", "compulsory_hearts", "compulsory_lift", "blind_lift", "three_unters", "scrap")


@tiers.parametrize("flags", list(itertools.product([False, True], repeat=len(FLAGS))),
                   lambda flags: tiers.at_most_one_or_all(*flags), ids=lambda f: "".join("1" if x else "0" for x in f))
def test_every_option_combination_plays_and_conserves(flags):
    options = dict(zip(FLAGS, flags, strict=True))
    options["dealer_fee"] = 3 if options["shoving"] else 0
    rng = np.random.default_rng(2)
    for n in (3, 6):
        env = rams_env.make("lupfen", n, random_carry=True, **options)
        for seed in range(8):
            random_playout(env, seed, rng, check_hidden_every=2)
