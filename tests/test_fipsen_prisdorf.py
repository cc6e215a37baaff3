"""Fipsen, Prisdorf (Holstein): the 25-card pack, the holding auction, Hand and Ruten doubling, Siebener Fips.

Source: ../shared/seeds/001_f2515c7741548cc2.txt, sections "Holstein Fipsen" and "Prisdorf variant"
(bids from two, hold or overcall, Hand / Ruten / Durch each double, a failure loses double, the Kieker
between four and five).
"""

from __future__ import annotations

import rams_env
from rams_env.games.fipsen import Phase
from tests.fipsen_helpers import lead_out, legal, play, table

PRIS = ["Ac Kc Qc Jc 10c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "9c 9h 9s 8c 8h"]


def test_prisdorf_holding_auction():
    """Forehand opens; the earlier of the pair holds or overcalls; a pass lets the next player in."""
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    assert raw.game_state.to_act == 0 and legal(raw)[:3] == ["bid 2", "bid 2 hand", "bid 3"]  # bids start at two
    assert "hold" not in legal(raw) and "pass" in legal(raw) and "bid kieker" not in legal(raw)  # courts
    play(env, "0:bid_2")
    assert raw.game_state.to_act == 1 and "hold" not in legal(raw) and "bid 2" not in legal(raw)
    assert "bid 2 hand" in legal(raw)  # "a 2 Hand is higher than a 2"
    play(env, "1:bid_2_hand")
    assert raw.game_state.to_act == 0 and "hold" in legal(raw) and "bid 3" in legal(raw)  # hold, pass or overcall
    play(env, "0:hold")
    assert raw.game_state.highest_bidder == 0 and raw.game_state.to_act == 1
    assert "bid 2 hand" not in legal(raw) and "bid 3" in legal(raw) and "hold" not in legal(raw)
    play(env, "1:bid_3 0:pass")  # "a 3 is higher than a 2 Hand"
    assert raw.game_state.to_act == 2 and raw.game_state.highest_bidder == 1  # the next player challenges the survivor
    assert "bid 3" not in legal(raw) and "bid 3 hand" in legal(raw)
    play(env, "2:pass 3:pass")
    assert raw.game_state.declarer == 1 and raw.game_state.phase is Phase.DISCARD and len(raw.game_state.hands[1]) == 7


def test_prisdorf_hand_doubles_and_durch_doubles_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:bid_2_hand 2:pass 3:pass 1:trump_h")
    play(env, "0:Ac 1:10h 2:As 3:9c 1:Ah 2:Ks 3:8h 0:Kc 1:Kh 2:Qs 3:9h 0:Qc")
    play(env, "1:Qh 2:Js 3:9s 0:Jc 1:Jh 2:10s 3:8c 0:10c")
    assert raw.game_state.tricks_won[1] == 5 and raw.game_state.breakdown["points"] == 2 * 2 * 2  # two, hand, Durch


def test_prisdorf_failure_loses_double():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass 3:bid_5 3:discard_9c 3:discard_9s 3:trump_d")
    while not raw.game_state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.game_state.breakdown["points"] == -2 * 5 * 2  # five with Ruten (doubled), failed: double loss


def test_prisdorf_siebener_fips_wins_thirty_without_play():
    hands = ["7c 7h 7s 7d Ac", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "9c 9h 9s 8c 8h"]
    env, raw = table("prisdorf", hands, first="Kc Qc Jc 10c 8s")
    assert "bid siebener" in legal(raw)  # four sevens and an ace
    play(env, "0:bid_2")
    assert "bid siebener" not in legal(raw)  # player_1 has no Siebener Fips
    play(env, "1:bid_5_hand")
    assert "bid siebener" in legal(raw)  # it tops every bid
    play(env, "0:bid_siebener")
    assert raw.game_state.terminal and raw.game_state.breakdown["points"] == 30 and raw.game_state.tricks_played == 0


def test_prisdorf_the_dealer_may_still_open_and_ruten_doubles():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass")
    assert raw.game_state.to_act == 3 and "pass" in legal(raw) and "bid 2" in legal(raw) and "hold" not in legal(raw)
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_7c 0:discard_7h 0:trump_d")
    lead_out(env, "Ac Kc Qc Jc 10c")
    assert raw.game_state.breakdown["points"] == 2 * 2 * 2  # two, Ruten, Durch


def test_prisdorf_all_pass_same_dealer_deals_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.phase is Phase.AUCTION and raw.game_state.redeals == 1 and raw.game_state.dealer == 3


def test_prisdorf_kieker_takes_skat_and_the_three_aside():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass 3:bid_kieker")
    assert raw.game_state.declarer == 3 and len(raw.game_state.hands[3]) == 10 and raw.game_state.to_discard == 5


def test_prisdorf_ladder_order():
    ladder = [c.label for c in rams_env.make_game("fipsen", variant="prisdorf").ladder]
    assert ladder[:3] == ["bid 2", "bid 2 hand", "bid 3"]
    assert ladder.index("bid 4 hand") < ladder.index("bid kieker") < ladder.index("bid 5")


# ===================================== play rules, Hand with Ruten, Kieker made
def test_prisdorf_forehand_leads_follow_suit_else_any_card():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:bid_2_hand 2:pass 3:pass 1:trump_h")
    assert raw.game_state.to_act == 0  # forehand leads, not the declarer
    play(env, "0:Kc")
    assert legal(raw) == sorted("Ah Kh Qh Jh 10h".split())
    play(env, "1:10h 2:10s")
    assert legal(raw) == ["8c", "9c"]  # follow; no duty to beat


def test_prisdorf_hand_and_ruten_double_twice_and_durch_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:bid_2_hand 1:pass 2:pass 3:pass 0:trump_d")
    lead_out(env, "Ac Kc Qc Jc 10c")
    assert raw.game_state.breakdown["points"] == 2 * 2 * 2 * 2  # two, Hand, Ruten, Durch


def test_prisdorf_kieker_between_four_and_five_made_is_a_durch():
    hands = ["Ah 10h 9h 8h 7h", "Ac Kc Qc Jc 9c", "As Ks Qs Js 10s", "8c 7c 9s 8s 7s"]
    env, raw = table("prisdorf", hands, first="Kh Qh Jh 7d 10c")
    assert "bid kieker" in legal(raw)  # no courts
    play(env, "0:bid_kieker")
    assert legal(raw) == ["bid 5", "bid 5 hand", "pass"]
    play(env, "1:pass 2:pass 3:pass")
    play(env, " ".join(f"0:discard_{c}" for c in "9h 8h 7h 7d 10c".split()) + " 0:trump_h")
    lead_out(env, "Ah Kh Qh Jh 10h")
    assert raw.game_state.breakdown["points"] == 10 * 2  # Kieker 10, all five tricks: a Durch doubles
