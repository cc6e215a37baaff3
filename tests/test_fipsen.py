"""Fipsen scenarios from the source (001_f2515c7741548cc2.txt), per variant: exact points and legal moves."""

from __future__ import annotations

import numpy as np
import pytest

import rams_env
from rams_env.cards import cards
from rams_env.games.fipsen import Phase
from tests.conformance import random_playout

SUITED = ["Ac Kc Qc Jc 10c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d"]


def rest(variant: str, hands, first: str = "") -> list[str]:
    """A stock: ``first`` cards on top, then every other card of the variant's pack."""
    pack = rams_env.make_game("fipsen", preset=variant).pack().codes
    used = set(" ".join(hands).split()) | set(first.split())
    return first.split() + [c for c in pack if c not in used]


def table(variant: str, hands, first: str = "", dealer: int | None = None, **carry):
    n = len(hands)
    env = rams_env.make("fipsen", n, variant=variant)
    deal = {"hands": [h.split() for h in hands], "stock": rest(variant, hands, first)}
    env.reset(seed=0, options={"deal": deal, "dealer": n - 1 if dealer is None else dealer, **carry})
    return env, env.unwrapped


def play(env, moves: str) -> None:
    raw = env.unwrapped
    for move in moves.split():
        seat, label = move.split(":")
        assert raw.state.to_act == int(seat), f"player_{raw.state.to_act} to act, script says {seat}"
        if label.startswith(("bid_", "discard_", "trump_")):
            label = label.replace("_", " ")
        env.step(raw.action_id(label))


def legal(raw) -> list[str]:
    return sorted(raw.legal_labels())


# ======================================================= Thedinghausen
THED = ["Ac Kc Qc Jc 10c", "9c Ah Kh Qh Jh", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d", "7c 8c 7h 8h 9h"]


def test_thedinghausen_call_then_follow_overtake_trump_overtrump():
    env, raw = table("thedinghausen", THED, first="10h")  # the turned 10h: hearts are trumps
    assert raw.view("player_0")["trump"] == "h" and raw.state.phase is Phase.CALL and raw.state.to_act == 0
    assert legal(raw) == ["fipsen", "pass"]
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:Jc")
    assert legal(raw) == ["9c"]  # follow suit
    play(env, "1:9c")
    assert legal(raw) == sorted("As Ks Qs Js 10s".split())  # void, no trump: any card
    play(env, "2:As 3:Ad")
    assert legal(raw) == ["7c", "8c"]  # follow; neither can overtake the jack: either club
    play(env, "4:8c")
    assert raw.state.tricks_won == [1, 0, 0, 0, 0]  # the jack beats the nine


def test_thedinghausen_must_trump_and_overtrump():
    env, raw = table("thedinghausen", THED, first="10h")
    play(env, "0:pass 1:pass 2:pass 3:pass 4:pass 0:Ac 1:9c 2:As 3:Ad 4:7c 0:Kc")
    assert legal(raw) == sorted(["Ah", "Kh", "Qh", "Jh"])  # void in clubs: must trump
    play(env, "1:Jh 2:Ks 3:Kd")
    assert legal(raw) == ["8c"]  # can follow: must


def test_thedinghausen_fipsen_made_counts_double_and_wins_the_race():
    hands = ["Ah Kh Qh Jh 10h", "Ac Kc Qc Jc 10c", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d", "7c 8c 9c 7s 8s"]
    env, raw = table("thedinghausen", hands, first="9h")
    assert raw.state.ledger.pot == 5  # everyone antes a hedewig for the race
    play(env, "0:fipsen")
    assert raw.state.phase is Phase.PLAY
    for lead in ("Ah", "Kh", "Qh", "Jh", "10h"):
        play(env, f"0:{lead}")
        for _ in range(1, 5):
            env.step(raw.legal_actions()[0])
    assert raw.state.race[0] >= 10 and raw.state.breakdown["race_winner"] == 0
    assert raw.state.ledger.bankrolls[0] == 50 - 1 + 5  # the prize: the five antes


def test_thedinghausen_failed_fipsen_pays_five_and_race_to_ten():
    env, raw = table("thedinghausen", THED, first="10h", race=[0, 9, 0, 0, 0], pot=5)
    play(env, "0:fipsen 0:Jc 1:9c 2:As 3:Ad 4:8c")
    play(env, "0:Ac 1:Ah 2:Ks 3:Kd 4:7c")  # void in clubs: player_1 must trump
    assert raw.state.race[1] == 10 and raw.state.breakdown["race_winner"] == 1  # the tenth trick wins
    while not raw.state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["fipsen"] == {"player": 0, "made": False}
    assert raw.state.ledger.bankrolls[0] == 50 - 5 and raw.state.ledger.pot == 5


# ========================================================= Grossenaspe
def test_grossenaspe_ladder_and_masks():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    ladder = [c.label for c in raw.game.ladder]
    assert ladder.index("bid 3 good") == ladder.index("bid 3") + 1 < ladder.index("bid 4")
    assert ladder.index("bid 4 good") < ladder.index("bid kieker") < ladder.index("bid 5") < ladder.index("bid fips")
    assert raw.state.to_act == 0 and "bid kieker" not in legal(raw)  # the kieker needs a hand without courts
    assert "pass" in legal(raw) and "bid fips" in legal(raw)


def test_grossenaspe_declarer_takes_skat_names_trumps_stops_after_making_the_bid():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass")
    assert raw.state.declarer == 0 and raw.state.phase is Phase.DISCARD and len(raw.state.hands[0]) == 7
    play(env, "0:discard_8c 0:discard_9c")
    assert legal(raw) == ["trump c", "trump d", "trump h", "trump s"]
    play(env, "0:trump_c 0:Ac 1:Ah 2:As 3:Ad 0:Kc 1:Kh 2:Ks 3:Kd")
    assert raw.state.phase is Phase.PLAY_ON and legal(raw) == ["play_on", "stop"]
    play(env, "0:stop")
    assert raw.state.breakdown["points"] == 4  # two tricks, doubled: clubs are trumps


def test_grossenaspe_play_on_for_a_durch_and_good_means_clubs():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_2_good 1:pass 2:pass 3:pass 0:discard_8c 0:discard_9c")
    assert raw.state.trump == 0 and raw.state.phase is Phase.PLAY  # Good: clubs, no choice
    play(env, "0:Ac 1:Ah 2:As 3:Ad 0:Kc 1:Kh 2:Ks 3:Kd 0:play_on")
    for lead in ("Qc", "Jc", "10c"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 8  # Good Two (4), played on to a Durch: doubled


def test_grossenaspe_failed_bid_ends_play_and_loses_its_value():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:pass 1:pass 2:pass 3:bid_5 3:discard_9c 3:discard_8c 3:trump_h 0:Ac 1:Ah 2:As 3:Ad")
    assert raw.state.terminal and raw.state.breakdown["reason"] == "failed"  # one trick lost: Five is lost
    assert raw.state.breakdown["points"] == -5 and raw.state.tricks_played == 1


def test_grossenaspe_kieker_keeps_five_of_twelve_and_may_concede():
    hands = ["10c 9c 8c 7c 10s", "Ah Kh Qh Jh 10h", "As Ks Qs Js 9s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="Ac Kc")
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    assert len(raw.state.hands[0]) == 12 and raw.state.to_discard == 7  # skat + talon
    for _ in range(7):
        env.step(raw.legal_actions()[0])
    assert raw.state.phase is Phase.KIEKER and legal(raw) == ["concede", "play_kieker"]
    play(env, "0:concede")
    assert raw.state.breakdown["points"] == -5


def test_grossenaspe_all_pass_redeals():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.state.phase is Phase.AUCTION and raw.state.dealer == 3 and raw.state.redeals == 1


# ============================================================ Prisdorf
PRIS = ["Ac Kc Qc Jc 10c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "9c 9h 9s 8c 8h"]


def test_prisdorf_holding_auction():
    """Forehand opens; the earlier of the pair holds or overcalls; a pass lets the next player in."""
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    assert raw.state.to_act == 0 and legal(raw)[:3] == ["bid 2", "bid 2 hand", "bid 3"]  # bids start at two
    assert "hold" not in legal(raw) and "pass" in legal(raw) and "bid kieker" not in legal(raw)  # courts
    play(env, "0:bid_2")
    assert raw.state.to_act == 1 and "hold" not in legal(raw) and "bid 2" not in legal(raw)
    assert "bid 2 hand" in legal(raw)  # "a 2 Hand is higher than a 2"
    play(env, "1:bid_2_hand")
    assert raw.state.to_act == 0 and "hold" in legal(raw) and "bid 3" in legal(raw)  # hold, pass or overcall
    play(env, "0:hold")
    assert raw.state.highest_bidder == 0 and raw.state.to_act == 1
    assert "bid 2 hand" not in legal(raw) and "bid 3" in legal(raw) and "hold" not in legal(raw)
    play(env, "1:bid_3 0:pass")  # "a 3 is higher than a 2 Hand"
    assert raw.state.to_act == 2 and raw.state.highest_bidder == 1  # the next player challenges the survivor
    assert "bid 3" not in legal(raw) and "bid 3 hand" in legal(raw)
    play(env, "2:pass 3:pass")
    assert raw.state.declarer == 1 and raw.state.phase is Phase.DISCARD and len(raw.state.hands[1]) == 7


def test_prisdorf_hand_doubles_and_durch_doubles_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:bid_2_hand 2:pass 3:pass 1:trump_h")
    play(env, "0:Ac 1:10h 2:As 3:9c 1:Ah 2:Ks 3:8h 0:Kc 1:Kh 2:Qs 3:9h 0:Qc")
    play(env, "1:Qh 2:Js 3:9s 0:Jc 1:Jh 2:10s 3:8c 0:10c")
    assert raw.state.tricks_won[1] == 5 and raw.state.breakdown["points"] == 2 * 2 * 2  # two, hand, Durch


def test_prisdorf_failure_loses_double():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass 3:bid_5 3:discard_9c 3:discard_9s 3:trump_d")
    while not raw.state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == -2 * 5 * 2  # five with Ruten (doubled), failed: double loss


def test_prisdorf_siebener_fips_wins_thirty_without_play():
    hands = ["7c 7h 7s 7d Ac", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "9c 9h 9s 8c 8h"]
    env, raw = table("prisdorf", hands, first="Kc Qc Jc 10c 8s")
    assert "bid siebener" in legal(raw)  # four sevens and an ace
    play(env, "0:bid_2")
    assert "bid siebener" not in legal(raw)  # player_1 has no Siebener Fips
    play(env, "1:bid_5_hand")
    assert "bid siebener" in legal(raw)  # it tops every bid
    play(env, "0:bid_siebener")
    assert raw.state.terminal and raw.state.breakdown["points"] == 30 and raw.state.tricks_played == 0


# ============================================================ Mecklenburg
MECK = ["Ad Ac Kc Qc Jc", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "10c 9c 9h 9s 8c"]


def test_anseggerfips_ruten_bids_need_the_rutenas_and_outbid_the_number():
    env, raw = table("anseggerfips", MECK)
    assert "bid 2 ruten" in legal(raw)  # player_0 holds the Rutenas
    play(env, "0:bid_2")
    assert "bid 2 ruten" not in legal(raw) and "bid 3" in legal(raw)  # player_1 has no Rutenas
    play(env, "1:pass 2:pass 3:pass 0:trump_c")
    assert raw.state.phase is Phase.PLAY


def test_duttfips_forehand_must_bid_one_round_and_the_dutt():
    env, raw = table("duttfips", MECK)
    assert "pass" not in legal(raw)
    play(env, "0:bid_dutt 1:bid_fips 2:pass 3:pass")
    assert raw.state.declarer == 1 and len(raw.state.hands[1]) == 10 and raw.state.to_discard == 5


# ============================================== more scenarios, per variant
THED2 = ["Ac Kc Qc Jc 7s", "9h 8s 9s 10s Js", "Ah 8h Qs Ks As", "Ad Kd Qd Jd 10d", "7c 8c 9c 10c 7h"]


def test_thedinghausen_one_call_forehand_leads_six_cards_unused():
    env, raw = table("thedinghausen", THED, first="10h")
    assert len(raw.state.aside) == 6 and "aside" not in raw.view("player_0")
    play(env, "0:pass 1:fipsen")
    assert raw.state.phase is Phase.PLAY and raw.state.to_act == 0 and raw.view("player_3")["fipsen"] == 3


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


def test_grossenaspe_fips_without_skat_scores_twenty():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_fips 1:pass 2:pass 3:pass")
    assert raw.state.phase is Phase.TRUMP and len(raw.state.hands[0]) == 5  # the only hand contract
    play(env, "0:trump_c")
    for lead in ("Ac", "Kc", "Qc", "Jc", "10c"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 20  # a fixed value: clubs do not double it


def test_grossenaspe_kieker_played_and_made_scores_ten():
    hands = ["7s 8s 9s 10s 7h", "Ah Kh Qh Jh 10h", "As Ks Qs Js 8h", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="Ac Kc")
    assert "bid kieker" in legal(raw)
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    assert sorted(raw.view("player_0")["own_discards"]) == sorted(hands[0].split())  # the dealt hand is out
    play(env, "0:discard_7c 0:discard_8c 0:discard_9c 0:discard_9h 0:discard_7d 0:discard_8d 0:discard_9d")
    play(env, "0:play_kieker 0:trump_c")
    for lead in ("Ac", "Kc", "Qc", "Jc", "10c"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 10


def test_grossenaspe_a_pass_is_final_and_good_overcalls_the_number():
    env, raw = table("grossenaspe", SUITED, first="9c 8c")
    play(env, "0:bid_2 1:pass")
    assert "bid 2 good" in legal(raw) and "bid 2" not in legal(raw)
    play(env, "2:bid_2_good 3:pass 0:bid_3")
    assert raw.state.to_act == 2  # player_1 passed: never asked again
    play(env, "2:pass")
    assert raw.state.declarer == 0 and raw.state.phase is Phase.DISCARD


def test_prisdorf_the_dealer_may_still_open_and_ruten_doubles():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass")
    assert raw.state.to_act == 3 and "pass" in legal(raw) and "bid 2" in legal(raw) and "hold" not in legal(raw)
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_7c 0:discard_7h 0:trump_d")
    for lead in ("Ac", "Kc", "Qc", "Jc", "10c"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 2 * 2 * 2  # two, Ruten, Durch


def test_prisdorf_all_pass_same_dealer_deals_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.state.phase is Phase.AUCTION and raw.state.redeals == 1 and raw.state.dealer == 3


def test_prisdorf_kieker_takes_skat_and_the_three_aside():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:pass 2:pass 3:bid_kieker")
    assert raw.state.declarer == 3 and len(raw.state.hands[3]) == 10 and raw.state.to_discard == 5


def test_prisdorf_ladder_order():
    ladder = [c.label for c in rams_env.make_game("fipsen", variant="prisdorf").ladder]
    assert ladder[:3] == ["bid 2", "bid 2 hand", "bid 3"]
    assert ladder.index("bid 4 hand") < ladder.index("bid kieker") < ladder.index("bid 5")


def test_anseggerfips_ladder_fips_only_overcalled_by_rutenfips():
    ladder = [c.label for c in rams_env.make_game("fipsen", variant="anseggerfips").ladder]
    assert ladder[-2:] == ["bid fips", "bid rutenfips"] and ladder[:2] == ["bid 1", "bid 1 ruten"]


def test_anseggerfips_ruten_bid_makes_the_rutenas_trump_and_scores():
    env, raw = table("anseggerfips", MECK)
    assert len(raw.state.aside) == 5  # the Dutt lies unused in Anseggerfips
    play(env, "0:bid_2_ruten 1:pass 2:pass 3:pass")
    assert raw.state.phase is Phase.PLAY and raw.state.trump == 3  # no choice: diamonds, the Rutenas alone
    for lead in ("Ad", "Ac", "Kc", "Qc", "Jc"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 4


def test_anseggerfips_all_pass_redeal():
    env, raw = table("anseggerfips", MECK)
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.state.phase is Phase.AUCTION and raw.state.redeals == 1


def test_duttfips_one_round_ruten_oewer_and_a_made_dutt():
    env, raw = table("duttfips", MECK)
    play(env, "0:bid_dutt 1:bid_ruten_oewer 2:pass 3:pass")
    assert raw.state.declarer == 1 and raw.state.phase is Phase.DISCARD  # one round: no second chance for 0
    for _ in range(5):
        env.step(raw.legal_actions()[0])
    assert raw.state.trump == 3 and raw.state.phase is Phase.PLAY  # the Rutenas is the only trump
    env, raw = table("duttfips", MECK, first="7c 8h 7h 8s 7s")
    play(env, "0:bid_dutt 1:pass 2:pass 3:pass")
    play(env, "0:discard_7c 0:discard_8h 0:discard_7h 0:discard_8s 0:discard_7s")
    assert legal(raw) == ["trump c", "trump h", "trump s"]  # diamonds is a bid of its own
    play(env, "0:trump_c")
    for lead in ("Ac", "Kc", "Qc", "Jc", "Ad"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.tricks_won[0] == 5 and raw.state.breakdown["points"] == 1  # the majority: Dutt scores 1


# ================================ Thedinghausen: overtaking, table, the race over deals
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
    assert raw.state.tricks_won == [0, 0, 0, 0, 1]


def test_thedinghausen_is_for_five_players():
    with pytest.raises(ValueError, match="num_players"):
        rams_env.make("fipsen", 4, variant="thedinghausen")


def test_thedinghausen_failed_fipsen_tricks_still_count_toward_the_race():
    env, raw = table("thedinghausen", THED, first="10h")
    play(env, "0:fipsen")
    while not raw.state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["fipsen"] == {"player": 0, "made": False}
    assert raw.state.race == raw.state.tricks_won and sum(raw.state.race) == 5
    assert raw.state.ledger.bankrolls[0] == 50 - 1 - 5 and raw.state.ledger.pot == 5 + 5  # antes + the five


def test_thedinghausen_race_runs_over_several_deals_with_one_ante():
    env = rams_env.make("fipsen", 5, variant="thedinghausen", episode="session", session_deals=50)
    env.reset(seed=4, options={"deal": {"hands": [h.split() for h in THED], "stock": rest("thedinghausen", THED,
                                                                                          "10h")}, "dealer": 4})
    raw = env.unwrapped
    assert raw.state.ledger.pot == 5 and raw.state.ledger.bankrolls == [49] * 5
    while raw.state.deals_played == 0:
        env.step(raw.legal_actions()[0])  # pass the call, lowest legal card
    assert sum(raw.state.race) == 5 and max(raw.state.race) < 10  # tricks carry over
    assert raw.state.ledger.pot == 5 and raw.state.ledger.bankrolls == [49] * 5  # no new ante mid-race
    while not raw.state.terminal:
        env.step(raw.legal_actions()[0])
    winner = raw.state.breakdown["race_winner"]
    assert raw.state.race[winner] == 10 and raw.state.ledger.pot == 0
    assert raw.state.ledger.bankrolls == [54 if s == winner else 49 for s in range(5)]  # five hedewigs


# ================================= Grossenaspe: play rules, precedence, lost contracts
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
    assert raw.state.tricks_won == [0, 0, 1, 0]


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
    assert raw.state.declarer == 3 and raw.state.phase is Phase.TRUMP and len(raw.state.hands[3]) == 5


def test_grossenaspe_kieker_lost_at_the_first_lost_trick():
    hands = ["10c 9c 8c 7c 10s", "Ah Kh Qh Jh 10h", "As Ks Qs Js 9s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="Ac Kc")
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    play(env, " ".join(f"0:discard_{c}" for c in "8s 9h 8h 7h 9d 8d 7d".split()))
    assert sorted(raw.state.hands[0]) == sorted(cards("Ac Kc Qc Jc 7s"))
    play(env, "0:play_kieker 0:trump_c 0:7s 1:10h 2:As 3:10d")
    assert raw.state.terminal and raw.state.breakdown["reason"] == "failed"
    assert raw.state.breakdown["points"] == -10 and raw.state.tricks_played == 1


def test_grossenaspe_failed_durch_after_playing_on_loses_the_bid():
    hands = ["Ac Kc Qc Jc 7h", "Ah Kh Qh Jh 10h", SUITED[2], SUITED[3]]
    env, raw = table("grossenaspe", hands, first="9c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_9c 0:discard_8c 0:trump_c")
    play(env, "0:Ac 1:10h 2:10s 3:10d 0:Kc 1:Jh 2:Js 3:Jd 0:play_on 0:7h 1:Ah 2:Qs 3:Qd")
    assert raw.state.terminal and raw.state.breakdown["reason"] == "failed"
    assert raw.state.breakdown["points"] == -4  # the Two with clubs trumps (4) is lost, not doubled


# ===================================== Prisdorf: play rules, Hand with Ruten, Kieker made
def test_prisdorf_forehand_leads_follow_suit_else_any_card():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:pass 1:bid_2_hand 2:pass 3:pass 1:trump_h")
    assert raw.state.to_act == 0  # forehand leads, not the declarer
    play(env, "0:Kc")
    assert legal(raw) == sorted("Ah Kh Qh Jh 10h".split())
    play(env, "1:10h 2:10s")
    assert legal(raw) == ["8c", "9c"]  # follow; no duty to beat


def test_prisdorf_hand_and_ruten_double_twice_and_durch_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "0:bid_2_hand 1:pass 2:pass 3:pass 0:trump_d")
    for lead in ("Ac", "Kc", "Qc", "Jc", "10c"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 2 * 2 * 2 * 2  # two, Hand, Ruten, Durch


def test_prisdorf_kieker_between_four_and_five_made_is_a_durch():
    hands = ["Ah 10h 9h 8h 7h", "Ac Kc Qc Jc 9c", "As Ks Qs Js 10s", "8c 7c 9s 8s 7s"]
    env, raw = table("prisdorf", hands, first="Kh Qh Jh 7d 10c")
    assert "bid kieker" in legal(raw)  # no courts
    play(env, "0:bid_kieker")
    assert legal(raw) == ["bid 5", "bid 5 hand", "pass"]
    play(env, "1:pass 2:pass 3:pass")
    play(env, " ".join(f"0:discard_{c}" for c in "9h 8h 7h 7d 10c".split()) + " 0:trump_h")
    for lead in ("Ah", "Kh", "Qh", "Jh", "10h"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 10 * 2  # Kieker 10, all five tricks: a Durch doubles


# ============================================== Mecklenburg: Anseggerfips and Duttfips
def test_mecklenburg_pack_keeps_only_the_rutenas_of_diamonds():
    for variant in ("anseggerfips", "duttfips"):
        codes_ = rams_env.make_game("fipsen", variant=variant).pack().codes
        assert len(codes_) == 25 and [c for c in codes_ if c.endswith("d")] == ["Ad"]


def test_anseggerfips_fips_is_overcalled_only_by_rutenfips_round_and_round():
    env, raw = table("anseggerfips", MECK)
    play(env, "0:bid_1 1:bid_fips")
    assert legal(raw) == ["pass"]  # player_2 has no Rutenas
    play(env, "2:pass 3:pass")
    assert legal(raw) == ["bid rutenfips", "pass"]  # player_0 again, holding the Rutenas
    play(env, "0:bid_rutenfips")
    assert legal(raw) == ["pass"]
    play(env, "1:pass")
    assert raw.state.declarer == 0 and raw.state.trump == 3 and raw.state.phase is Phase.PLAY


def test_anseggerfips_failed_bid_loses_its_value():
    env, raw = table("anseggerfips", MECK)
    play(env, "0:pass 1:pass 2:pass")
    assert "bid 1 ruten" not in legal(raw)  # no Rutenas
    play(env, "3:bid_1 3:trump_c 0:Ac 1:10h 2:10s 3:8c 0:Kc 1:Jh 2:Js 3:9c 0:Qc 1:Qh 2:Qs 3:10c")
    play(env, "0:Jc 1:Kh 2:Ks 3:9h 0:Ad 1:Ah 2:As 3:9s")
    assert raw.state.tricks_won == [5, 0, 0, 0] and raw.state.breakdown["points"] == -1


def test_duttfips_rutenfips_tops_fips_and_takes_the_dutt():
    env, raw = table("duttfips", MECK)
    play(env, "0:bid_dutt 1:bid_fips")
    assert legal(raw) == ["bid rutenfips", "pass"]
    play(env, "2:bid_rutenfips")
    assert legal(raw) == ["pass"]
    play(env, "3:pass")
    assert raw.state.declarer == 2 and len(raw.state.hands[2]) == 10 and raw.state.to_discard == 5


def test_duttfips_dutt_without_the_majority_loses():
    hands = ["10c 9c 9h 9s 8c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "Ad Ac Kc Qc Jc"]
    env, raw = table("duttfips", hands)
    play(env, "0:bid_dutt 1:pass 2:pass 3:pass")
    assert sorted(raw.state.hands[0]) == sorted(cards("10c 9c 9h 9s 8c 7c 7s 8s 7h 8h"))
    play(env, " ".join(f"0:discard_{c}" for c in "7s 8s 7h 8h 9s".split()) + " 0:trump_c")
    play(env, "0:9h 1:Ah 2:As 3:Ad 1:Kh 2:Ks 3:Jc 0:7c 3:Ac 0:8c 1:Qh 2:Qs 3:Kc 0:9c 1:Jh 2:Js")
    play(env, "3:Qc 0:10c 1:10h 2:10s")
    assert raw.state.tricks_won == [0, 1, 0, 4] and raw.state.breakdown["points"] == -1


def test_duttfips_ruten_oewer_the_rutenas_trumps_wherever_it_lies():
    env, raw = table("duttfips", MECK, dealer=0)  # forehand: player_1
    play(env, "1:bid_dutt 2:bid_ruten_oewer 3:pass 0:pass")
    play(env, " ".join(f"2:discard_{c}" for c in "7c 7h 8h 7s 8s".split()))
    assert raw.state.trump == 3 and raw.state.phase is Phase.PLAY and raw.state.to_act == 1
    play(env, "1:Ah")
    assert legal(raw) == sorted("As Ks Qs Js 10s".split())
    play(env, "2:10s")
    assert legal(raw) == ["9h"]
    play(env, "3:9h")
    assert legal(raw) == sorted("Ad Ac Kc Qc Jc".split())
    play(env, "0:Ad")
    assert raw.state.tricks_won == [1, 0, 0, 0]  # the opponent's Rutenas beats the ace of hearts


# ============================================================ invariants
@pytest.mark.parametrize("variant", ["thedinghausen", "grossenaspe", "prisdorf", "anseggerfips", "duttfips"])
def test_sessions_and_hidden_information(variant):
    rng = np.random.default_rng(3)
    for seed in range(10):
        random_playout(rams_env.make("fipsen", variant=variant, episode="session"), seed, rng,
                       check_hidden_every=3)
