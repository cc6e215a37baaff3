"""Tippen, the modern rules (Grupp 1975 / Katira 1983) and their dealer variations: exact chips and legal moves.

Source: ../shared/seeds/000_87480ce3960bd8a6.txt, section "Tippen (late 20th century)": Preliminaries,
Bidding and exchanging, Play, Variations (Tipp-Zwang, knocking, sniffing, shoving).
"""

from __future__ import annotations

import pytest

import rams_env
from rams_env.games.tippen import Phase
from tests.tippen_helpers import chips, legal, play, table


def test_modern_bidding_from_forehand_and_exchange_then_forehand_leads():
    env, raw = table()
    assert raw.game_state.ledger.pot == 3 and chips(raw) == [0, 0, 0, -3]  # the dealer pays 3
    assert raw.game_state.phase is Phase.BID and raw.game_state.to_act == 0 and legal(raw) == ["pass", "tap"]
    play(env, "0:pass 1:tap 2:tap 3:pass")
    assert raw.game_state.phase is Phase.EXCHANGE and raw.game_state.to_act == 1  # active players, forehand first
    play(env, "1:done 2:done")
    assert raw.game_state.phase is Phase.PLAY and raw.game_state.to_act == 1  # the first active player after the dealer


def test_modern_follow_head_trump_and_third_per_trick():
    env, raw = table()
    play(env, "0:tap 1:tap 2:pass 3:pass 0:done 1:done 0:Ah")
    assert legal(raw) == ["Qh"]
    play(env, "1:Qh 0:7c")
    assert legal(raw) == ["8c"]  # follow and head
    play(env, "1:8c 1:9s")
    assert legal(raw) == ["Kh"]  # void: must trump
    play(env, "0:Kh")
    assert raw.game_state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, 0, -3] and raw.game_state.ledger.pot == 0  # a third of 3 per trick


@pytest.mark.parametrize(("preset", "bete"), [("modern", 12), ("modern_grupp", 3)])
def test_modern_bete_katira_pot_or_grupp_stake(preset, bete):
    env, raw = table(pot=9, preset=preset)
    play(env, "0:tap 1:tap 2:tap 3:pass 0:done 1:done 2:done 0:Ah 1:Qh")
    assert legal(raw) == sorted(["As", "Ks", "Qs"])  # void and no trump: any card
    play(env, "2:Qs 0:7c 1:8c 2:Ks 1:9s")
    assert legal(raw) == ["As"]  # must head the 9
    play(env, "2:As 0:Kh")
    assert chips(raw) == [8, 4, -bete, -3] and raw.game_state.ledger.pot == 12 - 12 + bete


def test_modern_only_one_plays_and_wins_the_pot():
    env, raw = table(pot=9)
    play(env, "0:tap 1:pass 2:pass 3:pass")
    assert raw.game_state.breakdown["reason"] == "lone_player" and chips(raw) == [12, 0, 0, -3]


def test_modern_all_pass_the_next_dealer_stakes_and_redeals():
    env = rams_env.make("tippen", 4, episode="session", session_deals=2)
    env.reset(seed=3, options={"dealer": 3, "pot": 0, "bankrolls": [0, 0, 0, 0]})
    raw = env.unwrapped
    play(env, "0:pass 1:pass 2:pass 3:pass")
    assert raw.game_state.dealer == 0 and raw.game_state.ledger.pot == 6 and chips(raw) == [-3, 0, 0, -3]


def test_modern_exchange_up_to_three_cards():
    env, raw = table()
    play(env, "0:tap 1:tap 2:pass 3:pass 0:discard_7c 0:discard_Kh")
    assert "done" in legal(raw) and len(legal(raw)) == 2  # one more card, or done
    play(env, "0:discard_Ah")  # three: the exchange ends itself
    assert raw.game_state.exchanged[0] == 3 and raw.game_state.to_act == 1 and len(raw.game_state.hands[0]) == 3


# ============================================================ variations
def test_modern_tipp_zwang_forces_play_with_the_basic_stake():
    env, raw = table(preset="tipp_zwang")
    assert raw.game_state.forced and raw.game_state.phase is Phase.EXCHANGE
    env, raw = table(preset="tipp_zwang", pot=3)
    assert not raw.game_state.forced and raw.game_state.phase is Phase.BID


def test_modern_knocking_dealer_blind_double_stake_without_a_trick():
    env, raw = table(preset="modern_knocking")
    assert raw.game_state.phase is Phase.DEALER and raw.game_state.to_act == 3 and legal(raw) == ["decline", "knock"]
    assert raw.view("player_3")["hand"] == [] and raw.view("player_0")["trump"] is None  # unfaced trump
    play(env, "3:knock")
    assert raw.view("player_0")["trump"] == "h" and raw.view("player_0")["trump_card"] is None  # suit only
    play(env, "3:discard_7d 0:tap 1:tap 2:pass 0:done 1:done 3:done 0:Ah 1:Qh")
    assert legal(raw) == ["10h"]
    play(env, "3:10h 0:Kh 1:9s 3:8d 0:7c 1:8c 3:9d")
    assert raw.game_state.tricks_won == [2, 1, 0, 0]
    assert chips(raw) == [2, 1, 0, -9] and raw.game_state.ledger.pot == 6  # knocker: double stake (6)


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
    assert raw.game_state.tricks_won == tricks
    assert chips(raw) == expected and raw.game_state.ledger.pot == 3


@pytest.mark.parametrize(("p0", "p3", "moves", "tricks", "bete"), [
    ("Kh Qh 7c", "Ah 8d 9d", "0:Kh 3:Ah 3:9d 0:Qh 0:7c 3:10h", 2, 0),  # two tricks: the sniffer pays nothing
    ("Ah Qh Ad", "Kh 8d 9d", "0:Ah 3:10h 0:Qh 3:Kh 3:9d 0:Ad", 1, 3),  # one trick: a single bête
    ("Ah Kh 7c", "9h 8d 9d", "0:Ah 3:9h 0:Kh 3:10h 0:7c 3:9d", 0, 6),  # no trick: a double bête
])
def test_modern_sniffing_grupp_must_take_two_tricks(p0, p3, moves, tricks, bete):
    hands = [p0, "Qc 8c 9s", "As Ks Qs", p3]
    env, raw = table(hands=hands, preset="modern_sniffing")
    play(env, "3:sniff 3:discard_8d 0:tap 1:pass 2:pass 0:done 3:done " + moves)
    assert raw.game_state.tricks_won[3] == tricks
    assert raw.game_state.breakdown["betes"][3] == bete  # Grupp's bête is the stake (3)


def test_modern_shoving():
    env, raw = table(preset="modern_shoving")
    assert raw.game_state.phase is Phase.SHOVE and legal(raw) == ["deal", "shove"]
    play(env, "3:shove 0:shove 1:shove")
    assert legal(raw) == ["deal"] and raw.game_state.ledger.pot == 12 and chips(raw) == [-3, -3, -3, -3]
