"""Fipsen, Thedinghausen: five players, a turned trump, the race to ten tricks over deals, the fipsen call.

Source: ../shared/seeds/001_f2515c7741548cc2.txt, section "Thedinghausen Fipsen" (follow suit and
overtake, else trump and overtrump; the hedewig antes; a made fipsen counts double, a failed one pays five).
"""

from __future__ import annotations

import pytest

import rams_env
from rams_env.games.fipsen import Phase
from tests.fipsen_helpers import lead_out, legal, play, rest, table

THED = ["Ac Kc Qc Jc 10c", "9c Ah Kh Qh Jh", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d", "7c 8c 7h 8h 9h"]
THED2 = ["Ac Kc Qc Jc 7s", "9h 8s 9s 10s Js", "Ah 8h Qs Ks As", "Ad Kd Qd Jd 10d", "7c 8c 9c 10c 7h"]


def test_thedinghausen_call_then_follow_overtake_trump_overtrump():
    env, raw = table("thedinghausen", THED, first="10h")  # the turned 10h: hearts are trumps
    assert raw.view("player_0")["trump"] == "h" and raw.game_state.phase is Phase.CALL and raw.game_state.to_act == 0
    assert legal(raw) == ["fipsen", "pass"]
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:Jc")
    assert legal(raw) == ["9c"]  # follow suit
    play(env, "1:9c")
    assert legal(raw) == sorted("As Ks Qs Js 10s".split())  # void, no trump: any card
    play(env, "2:As 3:Ad")
    assert legal(raw) == ["7c", "8c"]  # follow; neither can overtake the jack: either club
    play(env, "4:8c")
    assert raw.game_state.tricks_won == [1, 0, 0, 0, 0]  # the jack beats the nine


def test_thedinghausen_must_trump_and_overtrump():
    env, raw = table("thedinghausen", THED, first="10h")
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:Ac 1:9c 2:As 3:Ad 4:7c 0:Kc")
    assert legal(raw) == sorted(["Ah", "Kh", "Qh", "Jh"])  # void in clubs: must trump
    play(env, "1:Jh 2:Ks 3:Kd")
    assert legal(raw) == ["8c"]  # can follow: must


def test_thedinghausen_fipsen_made_counts_double_and_wins_the_race():
    hands = ["Ah Kh Qh Jh 10h", "Ac Kc Qc Jc 10c", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d", "7c 8c 9c 7s 8s"]
    env, raw = table("thedinghausen", hands, first="9h")
    assert raw.game_state.ledger.pot == 5  # everyone antes a hedewig for the race
    play(env, "0:fipsen")
    assert raw.game_state.phase is Phase.PLAY
    lead_out(env, "Ah Kh Qh Jh 10h")
    assert raw.game_state.race[0] >= 10 and raw.game_state.breakdown["race_winner"] == 0
    assert raw.game_state.ledger.bankrolls[0] == 50 - 1 + 5  # the prize: the five antes


def test_thedinghausen_failed_fipsen_pays_five_and_race_to_ten():
    env, raw = table("thedinghausen", THED, first="10h", race=[0, 9, 0, 0, 0], pot=5)
    play(env, "0:fipsen 0:Jc 1:9c 2:As 3:Ad 4:8c")
    play(env, "0:Ac 1:Ah 2:Ks 3:Kd 4:7c")  # void in clubs: player_1 must trump
    assert raw.game_state.race[1] == 10 and raw.game_state.breakdown["race_winner"] == 1  # the tenth trick wins
    while not raw.game_state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.game_state.breakdown["fipsen"] == {"player": 0, "made": False}
    assert raw.game_state.ledger.bankrolls[0] == 50 - 5 and raw.game_state.ledger.pot == 5


def test_thedinghausen_one_call_forehand_leads_six_cards_unused():
    env, raw = table("thedinghausen", THED, first="10h")
    assert len(raw.game_state.aside) == 6 and "aside" not in raw.view("player_0")
    play(env, "0:pass 1:fipsen")
    assert raw.game_state.phase is Phase.PLAY and raw.game_state.to_act == 0 and raw.view("player_3")["fipsen"] == 3


def test_thedinghausen_overtrump_when_able_else_trump_anyway():
    env, raw = table("thedinghausen", THED2, first="10h")
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:Ac")
    assert legal(raw) == ["9h"]  # void in clubs: must trump
    play(env, "1:9h")
    assert legal(raw) == ["Ah"]  # must overtrump: the 8 would not beat the 9
    play(env, "2:Ah")
    assert legal(raw) == sorted("Ad Kd Qd Jd 10d".split())  # void, no trump: any card
    play(env, "3:Ad")
    assert legal(raw) == sorted("7c 8c 9c 10c".split())  # follow; a trump wins: no overtaking possible
    hands = ["Ac Kc Qc Jc 7s", "Ah 8s 9s 10s Js", "9h 8h Qs Ks As", "Ad Kd Qd Jd 10d", "7c 8c 9c 10c 7h"]
    env, raw = table("thedinghausen", hands, first="10h")
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:Ac 1:Ah")
    assert legal(raw) == ["8h", "9h"]  # cannot overtrump the ace: must still trump


# ================================ overtaking, table size, the race over deals
def test_thedinghausen_overtake_when_following_else_trump():
    hands = ["8c Ad Kd Qd Jd", "7c 9c Kc As Ks", "10c Jc Qs Js 10s", "Ac Qc 10d 9d 8d", "7h 8h 9h 7s 8s"]
    env, raw = table("thedinghausen", hands, first="10h")
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:8c")
    assert legal(raw) == ["9c", "Kc"]  # "follow suit and overtake if possible": not the 7
    play(env, "1:9c")
    assert legal(raw) == ["10c", "Jc"]
    play(env, "2:10c")
    assert legal(raw) == ["Ac", "Qc"]
    play(env, "3:Qc")
    assert legal(raw) == ["7h", "8h", "9h"]  # void: must trump
    play(env, "4:7h")
    assert raw.game_state.tricks_won == [0, 0, 0, 0, 1]


def test_thedinghausen_is_for_five_players():
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("fipsen", 4, variant="thedinghausen")


def test_thedinghausen_failed_fipsen_tricks_still_count_toward_the_race():
    env, raw = table("thedinghausen", THED, first="10h")
    play(env, "0:fipsen")
    while not raw.game_state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.game_state.breakdown["fipsen"] == {"player": 0, "made": False}
    assert raw.game_state.race == raw.game_state.tricks_won and sum(raw.game_state.race) == 5
    assert raw.game_state.ledger.bankrolls[0] == 50 - 1 - 5 and raw.game_state.ledger.pot == 5 + 5  # antes + the five


def test_thedinghausen_race_runs_over_several_deals_with_one_ante():
    env = rams_env.make("fipsen", 5, variant="thedinghausen", episode="session", session_deals=50)
    env.reset(seed=4, options={"deal": {"hands": [h.split() for h in THED], "stock": rest("thedinghausen", THED,
                                                                                          "10h")}, "dealer": 4})
    raw = env.unwrapped
    assert raw.game_state.ledger.pot == 5 and raw.game_state.ledger.bankrolls == [49] * 5
    while raw.game_state.deals_played == 0:
        env.step(raw.legal_actions()[0])  # pass the call, lowest legal card
    assert sum(raw.game_state.race) == 5 and max(raw.game_state.race) < 10  # tricks carry over
    assert raw.game_state.ledger.pot == 5 and raw.game_state.ledger.bankrolls == [49] * 5  # no new ante mid-race
    while not raw.game_state.terminal:
        env.step(raw.legal_actions()[0])
    winner = raw.game_state.breakdown["race_winner"]
    assert raw.game_state.race[winner] == 10 and raw.game_state.ledger.pot == 0
    assert raw.game_state.ledger.bankrolls == [54 if s == winner else 49 for s in range(5)]  # five hedewigs
