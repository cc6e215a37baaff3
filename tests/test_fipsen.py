"""Fipsen scenarios from the source (001_f2515c7741548cc2.txt), per variant: exact points and legal moves."""

from __future__ import annotations

import numpy as np
import pytest

import rams_env
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
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    assert raw.state.to_act == 1 and "bid 1" not in legal(raw) and "bid 2" in legal(raw)  # bids start at two
    play(env, "1:bid_2")
    assert raw.state.to_act == 0 and "hold" in legal(raw)  # forehand holds or passes
    play(env, "0:hold 1:bid_2_hand 0:pass")
    assert raw.state.to_act == 2 and raw.state.highest_bidder == 1  # the next player challenges the survivor
    play(env, "2:pass 3:pass")
    assert raw.state.declarer == 1 and raw.state.phase is Phase.TRUMP  # hand: no skat


def test_prisdorf_hand_doubles_and_durch_doubles_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "1:bid_2_hand 0:pass 2:pass 3:pass 1:trump_h")
    play(env, "0:Ac 1:10h 2:As 3:9c 1:Ah 2:Ks 3:8h 0:Kc 1:Kh 2:Qs 3:9h 0:Qc")
    play(env, "1:Qh 2:Js 3:9s 0:Jc 1:Jh 2:10s 3:8c 0:10c")
    assert raw.state.tricks_won[1] == 5 and raw.state.breakdown["points"] == 2 * 2 * 2  # two, hand, Durch


def test_prisdorf_failure_loses_double():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "1:pass 2:pass 3:bid_5 0:pass 3:discard_9c 3:discard_9s 3:trump_d")
    while not raw.state.terminal:
        env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == -2 * 5 * 2  # five with Ruten (doubled), failed: double loss


def test_prisdorf_siebener_fips_wins_thirty_without_play():
    hands = ["7c 7h 7s 7d Ac", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "9c 9h 9s 8c 8h"]
    env, raw = table("prisdorf", hands, first="Kc Qc Jc 10c 8s")
    play(env, "1:pass 2:pass 3:pass")
    assert "bid siebener" in legal(raw)
    play(env, "0:bid_siebener")
    assert raw.state.terminal and raw.state.breakdown["points"] == 30


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


def test_prisdorf_last_player_may_still_bid_and_ruten_doubles():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "1:pass 2:pass 3:pass")
    assert raw.state.to_act == 0 and "pass" in legal(raw) and "bid 2" in legal(raw)
    play(env, "0:bid_2 0:discard_7c 0:discard_7h 0:trump_d")
    for lead in ("Ac", "Kc", "Qc", "Jc", "10c"):
        play(env, f"0:{lead}")
        for _ in range(3):
            env.step(raw.legal_actions()[0])
    assert raw.state.breakdown["points"] == 2 * 2 * 2  # two, Ruten, Durch


def test_prisdorf_all_pass_same_dealer_deals_again():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "1:pass 2:pass 3:pass 0:pass")
    assert raw.state.phase is Phase.AUCTION and raw.state.redeals == 1 and raw.state.dealer == 3


def test_prisdorf_kieker_takes_skat_and_the_three_aside():
    env, raw = table("prisdorf", PRIS, first="7c 7h 7s 8s 7d")
    play(env, "1:pass 2:pass 3:bid_kieker 0:pass")
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


# ============================================================ invariants
@pytest.mark.parametrize("variant", ["thedinghausen", "grossenaspe", "prisdorf", "anseggerfips", "duttfips"])
def test_sessions_and_hidden_information(variant):
    rng = np.random.default_rng(3)
    for seed in range(10):
        random_playout(rams_env.make("fipsen", variant=variant, episode="session"), seed, rng,
                       check_hidden_every=3)
