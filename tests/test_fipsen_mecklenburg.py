"""Fipsen, Mecklenburg: Anseggerfips (auction Fips) and Duttfips (widow Fips) with the lone Rutenas.

Source: ../shared/seeds/001_f2515c7741548cc2.txt, section "Mecklenburg Fips" (25 cards: the diamonds
removed but the ace, Ruten bids, Fips overcalled only by Rutenfips, Duttfips' one forced round and the Dutt).
"""

from __future__ import annotations

import rams_env
from rams_env.core.cards import cards
from rams_env.games.fipsen import Phase
from tests.fipsen_helpers import lead_out, legal, play, table

MECK = ["Ad Ac Kc Qc Jc", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "10c 9c 9h 9s 8c"]


def test_anseggerfips_ruten_bids_need_the_rutenas_and_outbid_the_number():
    env, raw = table("anseggerfips", MECK)
    assert "bid 2 ruten" in legal(raw)  # player_0 holds the Rutenas
    play(env, "0:bid_2")
    assert "bid 2 ruten" not in legal(raw) and "bid 3" in legal(raw)  # player_1 has no Rutenas
    play(env, "1:pass 2:pass 3:pass 0:trump_c")
    assert raw.game_state.phase is Phase.PLAY


def test_anseggerfips_ladder_fips_only_overcalled_by_rutenfips():
    ladder = [c.label for c in rams_env.make_game("fipsen", variant="anseggerfips").ladder]
    assert ladder[-2:] == ["bid fips", "bid rutenfips"] and ladder[:2] == ["bid 1", "bid 1 ruten"]


def test_anseggerfips_ruten_bid_makes_the_rutenas_trump_and_scores():
    env, raw = table("anseggerfips", MECK)
    assert len(raw.game_state.aside) == 5  # the Dutt lies unused in Anseggerfips
    play(env, "0:bid_2_ruten 1:pass 2:pass 3:pass")
    assert raw.game_state.phase is Phase.PLAY and raw.game_state.trump == 3  # no choice: diamonds, the Rutenas alone
    lead_out(env, "Ad Ac Kc Qc Jc")
    assert raw.game_state.breakdown["points"] == 4


def test_anseggerfips_all_pass_redeal():
    env, raw = table("anseggerfips", MECK)
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.phase is Phase.AUCTION and raw.game_state.redeals == 1


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
    assert raw.game_state.declarer == 0 and raw.game_state.trump == 3 and raw.game_state.phase is Phase.PLAY


def test_anseggerfips_failed_bid_loses_its_value():
    env, raw = table("anseggerfips", MECK)
    play(env, "0:pass 1:pass 2:pass")
    assert "bid 1 ruten" not in legal(raw)  # no Rutenas
    play(env, "3:bid_1 3:trump_c 0:Ac 1:10h 2:10s 3:8c 0:Kc 1:Jh 2:Js 3:9c 0:Qc 1:Qh 2:Qs 3:10c")
    play(env, "0:Jc 1:Kh 2:Ks 3:9h 0:Ad 1:Ah 2:As 3:9s")
    assert raw.game_state.tricks_won == [5, 0, 0, 0] and raw.game_state.breakdown["points"] == -1


# ============================================================ Duttfips
def test_duttfips_forehand_must_bid_one_round_and_the_dutt():
    env, raw = table("duttfips", MECK)
    assert "pass" not in legal(raw)
    play(env, "0:bid_dutt 1:bid_fips 2:pass 3:pass")
    assert raw.game_state.declarer == 1 and len(raw.game_state.hands[1]) == 10 and raw.game_state.to_discard == 5


def test_duttfips_one_round_ruten_oewer_and_a_made_dutt():
    env, raw = table("duttfips", MECK)
    play(env, "0:bid_dutt 1:bid_ruten_oewer 2:pass 3:pass")
    assert raw.game_state.declarer == 1 and raw.game_state.phase is Phase.DISCARD  # one round: no second chance for 0
    for _ in range(5):
        env.step(raw.legal_actions()[0])
    assert raw.game_state.trump == 3 and raw.game_state.phase is Phase.PLAY  # the Rutenas is the only trump
    env, raw = table("duttfips", MECK, first="7c 8h 7h 8s 7s")
    play(env, "0:bid_dutt 1:pass 2:pass 3:pass")
    play(env, "0:discard_7c 0:discard_8h 0:discard_7h 0:discard_8s 0:discard_7s")
    assert legal(raw) == ["trump c", "trump h", "trump s"]  # diamonds is a bid of its own
    play(env, "0:trump_c")
    lead_out(env, "Ac Kc Qc Jc Ad")
    assert raw.game_state.tricks_won[0] == 5 and raw.game_state.breakdown["points"] == 1  # the majority: Dutt scores 1


def test_duttfips_rutenfips_tops_fips_and_takes_the_dutt():
    env, raw = table("duttfips", MECK)
    play(env, "0:bid_dutt 1:bid_fips")
    assert legal(raw) == ["bid rutenfips", "pass"]
    play(env, "2:bid_rutenfips")
    assert legal(raw) == ["pass"]
    play(env, "3:pass")
    assert raw.game_state.declarer == 2 and len(raw.game_state.hands[2]) == 10 and raw.game_state.to_discard == 5


def test_duttfips_dutt_without_the_majority_loses():
    hands = ["10c 9c 9h 9s 8c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "Ad Ac Kc Qc Jc"]
    env, raw = table("duttfips", hands)
    play(env, "0:bid_dutt 1:pass 2:pass 3:pass")
    assert sorted(raw.game_state.hands[0]) == sorted(cards("10c 9c 9h 9s 8c 7c 7s 8s 7h 8h"))
    play(env, " ".join(f"0:discard_{c}" for c in "7s 8s 7h 8h 9s".split()) + " 0:trump_c")
    play(env, "0:9h 1:Ah 2:As 3:Ad 1:Kh 2:Ks 3:Jc 0:7c 3:Ac 0:8c 1:Qh 2:Qs 3:Kc 0:9c 1:Jh 2:Js")
    play(env, "3:Qc 0:10c 1:10h 2:10s")
    assert raw.game_state.tricks_won == [0, 1, 0, 4] and raw.game_state.breakdown["points"] == -1


def test_duttfips_ruten_oewer_the_rutenas_trumps_wherever_it_lies():
    env, raw = table("duttfips", MECK, dealer=0)  # forehand: player_1
    play(env, "1:bid_dutt 2:bid_ruten_oewer 3:pass 0:pass")
    play(env, " ".join(f"2:discard_{c}" for c in "7c 7h 8h 7s 8s".split()))
    assert raw.game_state.trump == 3 and raw.game_state.phase is Phase.PLAY and raw.game_state.to_act == 1
    play(env, "1:Ah")
    assert legal(raw) == sorted("As Ks Qs Js 10s".split())
    play(env, "2:10s")
    assert legal(raw) == ["9h"]
    play(env, "3:9h")
    assert legal(raw) == sorted("Ad Ac Kc Qc Jc".split())
    play(env, "0:Ad")
    assert raw.game_state.tricks_won == [1, 0, 0, 0]  # the opponent's Rutenas beats the ace of hearts
