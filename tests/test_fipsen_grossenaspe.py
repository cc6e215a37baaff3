"""Fipsen, Grossenaspe (Holstein): the 32-card auction with Good (clubs), Kieker and Fips, skat and play-on.

Source: ../shared/seeds/001_f2515c7741548cc2.txt, sections "Holstein Fipsen" and "Grossenaspe variant"
(the bidding ladder, the declarer takes the skat and names trumps, stopping after the bid is made or
playing on for a Durch, lost contracts).
"""

from __future__ import annotations

from rams_env.core.cards import cards
from rams_env.games.fipsen import Phase
from tests.fipsen_helpers import lead_out, legal, play, table

SUITED = ["Ac Kc Qc Jc 10c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d"]


def test_grossenaspe_ladder_and_masks():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    ladder = [c.label for c in raw.game.ladder]
    assert ladder.index("bid 3 good") == ladder.index("bid 3") + 1 < ladder.index("bid 4")
    assert ladder.index("bid 4 good") < ladder.index("bid kieker") < ladder.index("bid 5") < ladder.index("bid fips")
    assert raw.game_state.to_act == 0 and "bid kieker" not in legal(raw)  # the kieker needs a hand without courts
    assert "pass" in legal(raw) and "bid fips" in legal(raw)


def test_grossenaspe_declarer_takes_skat_names_trumps_stops_after_making_the_bid():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass")
    assert raw.game_state.declarer == 0 and raw.game_state.phase is Phase.DISCARD and len(raw.game_state.hands[0]) == 7
    play(env, "0:discard_8c 0:discard_9c")
    assert legal(raw) == ["trump c", "trump d", "trump h", "trump s"]
    play(env, "0:trump_c 0:Ac 1:Ah 2:As 3:Ad 0:Kc 1:Kh 2:Ks 3:Kd")
    assert raw.game_state.phase is Phase.PLAY_ON and legal(raw) == ["play_on", "stop"]
    play(env, "0:stop")
    assert raw.game_state.breakdown["points"] == 4  # two tricks, doubled: clubs are trumps


def test_grossenaspe_play_on_for_a_durch_and_good_means_clubs():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_2_good 1:pass 2:pass 3:pass 0:discard_8c 0:discard_9c")
    assert raw.game_state.trump == 0 and raw.game_state.phase is Phase.PLAY  # Good: clubs, no choice
    play(env, "0:Ac 1:Ah 2:As 3:Ad 0:Kc 1:Kh 2:Ks 3:Kd 0:play_on")
    lead_out(env, "Qc Jc 10c")
    assert raw.game_state.breakdown["points"] == 8  # Good Two (4), played on to a Durch: doubled


def test_grossenaspe_failed_bid_ends_play_and_loses_its_value():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:pass 1:pass 2:pass 3:bid_5 3:discard_9c 3:discard_8c 3:trump_h 0:Ac 1:Ah 2:As 3:Ad")
    assert raw.game_state.terminal and raw.game_state.breakdown["reason"] == "failed"  # one trick lost: Five is lost
    assert raw.game_state.breakdown["points"] == -5 and raw.game_state.tricks_played == 1


def test_grossenaspe_kieker_keeps_five_of_twelve_and_may_concede():
    hands = ["10c 9c 8c 7c 10s", "Ah Kh Qh Jh 10h", "As Ks Qs Js 9s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="Ac Kc")
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    assert len(raw.game_state.hands[0]) == 12 and raw.game_state.to_discard == 7  # skat + talon
    for _ in range(7):
        env.step(raw.legal_actions()[0])
    assert raw.game_state.phase is Phase.KIEKER and legal(raw) == ["concede", "play_kieker"]
    play(env, "0:concede")
    assert raw.game_state.breakdown["points"] == -5


def test_grossenaspe_all_pass_redeals():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.phase is Phase.AUCTION and raw.game_state.dealer == 3 and raw.game_state.redeals == 1


def test_grossenaspe_fips_without_skat_scores_twenty():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_fips 1:pass 2:pass 3:pass")
    assert raw.game_state.phase is Phase.TRUMP and len(raw.game_state.hands[0]) == 5  # the only hand contract
    play(env, "0:trump_c")
    lead_out(env, "Ac Kc Qc Jc 10c")
    assert raw.game_state.breakdown["points"] == 20  # a fixed value: clubs do not double it


def test_grossenaspe_kieker_played_and_made_scores_ten():
    hands = ["7s 8s 9s 10s 7h", "Ah Kh Qh Jh 10h", "As Ks Qs Js 8h", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="Ac Kc")
    assert "bid kieker" in legal(raw)
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    assert sorted(raw.view("player_0")["own_discards"]) == sorted(hands[0].split())  # the dealt hand is out
    play(env, "0:discard_7c 0:discard_8c 0:discard_9c 0:discard_9h 0:discard_7d 0:discard_8d 0:discard_9d")
    play(env, "0:play_kieker 0:trump_c")
    lead_out(env, "Ac Kc Qc Jc 10c")
    assert raw.game_state.breakdown["points"] == 10


def test_grossenaspe_a_pass_is_final_and_good_overcalls_the_number():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_2 1:pass")
    assert "bid 2 good" in legal(raw) and "bid 2" not in legal(raw)
    play(env, "2:bid_2_good 3:pass 0:bid_3")
    assert raw.game_state.to_act == 2  # player_1 passed: never asked again
    play(env, "2:pass")
    assert raw.game_state.declarer == 0 and raw.game_state.phase is Phase.DISCARD


# ================================= play rules, precedence, lost contracts
def test_grossenaspe_follow_suit_else_any_card_no_duty_to_head_or_trump():
    hands = ["Ac Kc Qc 10h As", "7c 8c Kh 7h Ks", "Jh 9h 8h Qs Js", "Ad Kd Qd Jd 9c"]
    env, raw = table("grossenaspe", hands, first="10c Ah")
    play(env, "0:bid_3 1:pass 2:pass 3:pass 0:discard_As 0:discard_10c 0:trump_c 0:10h")
    assert legal(raw) == ["7h", "Kh"]
    play(env, "1:7h")
    assert legal(raw) == ["8h", "9h", "Jh"]
    play(env, "2:Jh")
    assert legal(raw) == sorted("Ad Kd Qd Jd 9c".split())  # void: trump or discard at will
    play(env, "3:Ad")
    assert raw.game_state.tricks_won == [0, 0, 1, 0]


def test_grossenaspe_good_precedence_and_fips_tops_the_auction():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_3")
    assert "bid 3" not in legal(raw) and "bid 3 good" in legal(raw)  # "Three Good beats a Three"
    play(env, "1:bid_3_good")
    assert "bid 3 good" not in legal(raw) and "bid 4" in legal(raw)  # "... but is beaten by a Four"
    play(env, "2:bid_4_good")
    assert "bid kieker" not in legal(raw) and "bid 5" in legal(raw)  # courts in hand: no Kieker
    play(env, "3:bid_fips")
    assert legal(raw) == ["pass"]  # nothing is higher than a Fips
    play(env, "0:pass 1:pass 2:pass")
    assert raw.game_state.declarer == 3 and raw.game_state.phase is Phase.TRUMP and len(raw.game_state.hands[3]) == 5


def test_grossenaspe_kieker_lost_at_the_first_lost_trick():
    hands = ["10c 9c 8c 7c 10s", "Ah Kh Qh Jh 10h", "As Ks Qs Js 9s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="Ac Kc")
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    play(env, " ".join(f"0:discard_{c}" for c in "8s 9h 8h 7h 9d 8d 7d".split()))
    assert sorted(raw.game_state.hands[0]) == sorted(cards("Ac Kc Qc Jc 7s"))
    play(env, "0:play_kieker 0:trump_c 0:7s 1:10h 2:As 3:10d")
    assert raw.game_state.terminal and raw.game_state.breakdown["reason"] == "failed"
    assert raw.game_state.breakdown["points"] == -10 and raw.game_state.tricks_played == 1


def test_grossenaspe_failed_durch_after_playing_on_loses_the_bid():
    hands = ["Ac Kc Qc Jc 7h", "Ah Kh Qh Jh 10h", SUITED[2], SUITED[3]]
    env, raw = table("grossenaspe", hands, first="9c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_9c 0:discard_8c 0:trump_c")
    play(env, "0:Ac 1:10h 2:10s 3:10d 0:Kc 1:Jh 2:Js 3:Jd 0:play_on 0:7h 1:Ah 2:Qs 3:Qd")
    assert raw.game_state.terminal and raw.game_state.breakdown["reason"] == "failed"
    assert raw.game_state.breakdown["points"] == -4  # the Two with clubs trumps (4) is lost, not doubled
