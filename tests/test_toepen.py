"""Toepen rule scenarios from the source (004_1647bc5d8766b13d.txt), exact lives and legal moves.

Positions are set up with reset options (fixed hands, dealer, lives) and driven by
action labels, so each test reads like the rule it checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rams_env
from rams_env.core.cards import card, cards, codes
from rams_env.games.toepen import Phase, Signal
from tests.scripting import dealt

NO_EXTRAS = {"dirty_hands": False, "announcements": False}


def table(hands: list[str], dealer: int, lives_lost=None, **rules):
    """An env dealt ``hands`` (seat order) with ``dealer``; returns (env, raw env)."""
    return dealt("toepen", hands, dealer, options=None if lives_lost is None else {"lives_lost": lives_lost}, **rules)


def legal(raw) -> list[str]:
    return sorted(raw.legal_labels())


def play(env, moves: str) -> None:
    """Moves like ``"0:7h 1:knock 2:fold"``; knock windows not scripted are passed."""
    raw = env.unwrapped
    for move in moves.split():
        seat, label = move.split(":")
        seat = int(seat)
        while (raw.game_state.phase is Phase.WINDOW
               and not (raw.game_state.to_act == seat and label in ("knock", "pass"))):
            env.step(raw.action_id("pass"))
        assert raw.game_state.to_act == seat, f"expected player_{raw.game_state.to_act} to act, script says {seat}"
        env.step(raw.action_id(label))


def lost(raw) -> list[int]:
    return raw.game_state.breakdown["lives_lost"]


# --------------------------------------------------------------- "Play of the cards"
def test_follow_suit_else_any_card_and_ten_is_highest():
    env, raw = table(["7h Jh 10s As", "9h Kc Qc 8d", "Ac Kd Qd Jd", "10c 9c 8c 7c"], dealer=3, **NO_EXTRAS)
    assert raw.game_state.to_act == 0  # the player on dealer's left leads
    assert legal(raw) == sorted(["7h", "Jh", "10s", "As", "knock"])
    play(env, "0:7h")
    assert legal(raw) == ["9h", "knock"]  # must follow hearts
    play(env, "1:9h")
    assert legal(raw) == sorted(["Ac", "Kd", "Qd", "Jd", "knock"])  # void: any card
    play(env, "2:Ac 3:10c")
    assert raw.game_state.tricks_won == [0, 1, 0, 0]  # 9h beats 7h; off-suit 10c cannot win
    assert raw.game_state.to_act == 1  # the winner leads


def test_no_knock_everyone_but_last_trick_winner_loses_one():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3, **NO_EXTRAS)
    play(env, "0:10h 1:Ac 2:As 3:Ad 0:9h 1:Kc 2:Ks 3:Kd 0:8h 1:Qc 2:Qs 3:Qd 0:7h 1:Jc 2:Js 3:Jd")
    assert raw.game_state.terminal
    assert lost(raw) == [0, 1, 1, 1]
    assert env.rewards == {"player_0": 0, "player_1": -1, "player_2": -1, "player_3": -1}
    assert raw.game_state.dealer == 0  # the winner of the last trick deals next


# ----------------------------------------------------------------------- "Knocking"
def test_fold_costs_the_stake_before_the_knock():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3, **NO_EXTRAS)
    play(env, "0:knock")
    assert raw.game_state.phase is Phase.RESPOND and raw.game_state.to_act == 1  # from the knocker's left
    play(env, "1:fold 2:stay 3:stay")
    assert raw.game_state.deal_lost == [0, 1, 0, 0]
    assert raw.game_state.to_act == 0 and "knock" not in legal(raw)  # she knocked last
    play(env, "0:10h 2:As 3:knock")  # a second knock (player_1 folded and is skipped)
    play(env, "0:stay 2:fold")
    assert raw.game_state.deal_lost == [0, 1, 2, 0]
    assert raw.game_state.stake == 3


def test_knock_and_everyone_folds_knocker_wins_and_deals():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3, **NO_EXTRAS)
    play(env, "0:10h 1:knock 2:fold 3:fold 0:fold")
    assert raw.game_state.terminal
    assert lost(raw) == [1, 0, 1, 1]
    assert raw.game_state.breakdown["reason"] == "all_folded"
    assert raw.game_state.dealer == 1


def test_staying_in_after_one_knock_costs_two():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3, **NO_EXTRAS)
    play(env, "0:knock 1:stay 2:stay 3:stay")
    play(env, "0:10h 1:Ac 2:As 3:Ad 0:9h 1:Kc 2:Ks 3:Kd 0:8h 1:Qc 2:Qs 3:Qd 0:7h 1:Jc 2:Js 3:Jd")
    assert lost(raw) == [0, 2, 2, 2]


def test_last_knocker_may_knock_again_after_someone_else():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3, **NO_EXTRAS)
    play(env, "0:knock 1:stay 2:stay 3:stay 0:10h 1:knock 2:stay 3:stay 0:stay 1:Ac 2:As 3:Ad")
    assert "knock" in legal(raw)  # player_1 knocked since player_0 did
    assert raw.game_state.stake == 3


@pytest.mark.parametrize(("lost_before", "knock_allowed"), [
    ([9, 0, 0, 0], False),  # "a player who has already lost nine lives is not allowed to knock"
    ([8, 0, 0, 0], True),  # eight lives lost: the first knock is allowed ...
])
def test_lives_limit_who_may_knock(lost_before, knock_allowed):
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3,
                     lives_lost=lost_before, **NO_EXTRAS)
    assert ("knock" in legal(raw)) is knock_allowed


def test_eight_lives_lost_forbids_the_second_knock():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3,
                     lives_lost=[0, 8, 0, 0], **NO_EXTRAS)
    play(env, "0:knock 1:stay 2:stay 3:stay 0:10h")
    assert "knock" not in legal(raw)  # player_1 would make the second knock
    play(env, "1:Ac 2:knock")  # player_2 (no lives lost) may
    assert raw.game_state.stake == 3


# ----------------------------------------------- the worked example of the source
LAST_TRICK = ["10c 10s 9h 7d", "7c 7s 8h 9c", "8c 8s 7h 10h"]
FIRST_THREE = "0:10c 1:7c 2:8c 0:10s 1:7s 2:8s 0:9h 1:8h 2:7h"


def test_worked_example_folded_winner_of_last_trick_any_time():
    """A leads the 7; C knocks and A folds; B plays the 9, C the 10: A loses 1, B and C lose 2."""
    env, raw = table(LAST_TRICK, dealer=2, knock_timing="any_time", **NO_EXTRAS)
    play(env, FIRST_THREE + " 0:7d 2:knock 0:fold 1:stay 1:9c 2:10h")
    assert raw.game_state.breakdown["winner"] == 0
    assert lost(raw) == [1, 2, 2]


def test_worked_example_with_knocks_before_play_only():
    env, raw = table(LAST_TRICK, dealer=2, **NO_EXTRAS)
    play(env, FIRST_THREE + " 0:7d 1:9c 2:knock 0:fold 1:stay 2:10h")
    assert lost(raw) == [1, 2, 2]


@pytest.mark.parametrize(("preset", "winner", "expected"), [
    ("laaier", 2, [1, 2, 0]),  # folded A cannot win: hearts rank highest, C's 10h wins
    ("waalwijk", 2, [1, 2, 0]),
])
def test_folded_player_cannot_win_variation(preset, winner, expected):
    env, raw = table(LAST_TRICK, dealer=2, preset=preset, knock_timing="any_time", **NO_EXTRAS)
    play(env, FIRST_THREE + " 0:7d 2:knock 0:fold 1:stay 1:9c 2:10h")
    assert raw.game_state.breakdown["winner"] == winner
    assert lost(raw) == expected


@pytest.mark.parametrize(("preset", "winner"), [("laaier", 1), ("waalwijk", 2)])
def test_suit_precedence_orders_differ(preset, winner):
    """Nobody still in followed clubs: de Laaier ranks spades over diamonds, Waalwijk the reverse."""
    hands = ["10h 10s 10d 7c", "9h 9s 8d 8s", "8h 7s 7d 9d"]
    env, raw = table(hands, dealer=2, preset=preset, knock_timing="any_time", **NO_EXTRAS)
    play(env, "0:10h 1:9h 2:8h 0:10s 1:9s 2:7s 0:10d 1:8d 2:7d 0:7c 2:knock 0:fold 1:stay 1:8s 2:9d")
    assert raw.game_state.breakdown["winner"] == winner


def test_trick_winner_who_folds_passes_the_lead_left():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3,
                     knock_timing="any_time", **NO_EXTRAS)
    play(env, "0:10h 1:Ac 2:As 3:Ad")  # player_0 wins the trick and would lead
    play(env, "1:knock 2:stay 3:stay 0:fold")
    assert raw.game_state.phase is Phase.WINDOW or raw.game_state.to_act == 1
    play(env, "1:Kc")  # the lead passed to player_1, next on the left still in
    assert raw.game_state.trick[0] == (1, card("Kc"))


# ---------------------------------------------------------------- dirty hands ("Deal")
def dirty_table(claim_hand: str):
    stock = "10h 9h 8h 7h 10s 9s 8s 7s 10d 9d 8d 7d Qs Js Jc Jh"
    hands = [claim_hand, "Ac Kc Qc 10c", "As Ks 9c 8c", "Ad Kd Qd Jd"]
    pool = set((" ".join(hands) + " " + stock).split())
    assert len(pool) == 32
    env = rams_env.make("toepen", 4, announcements=False)
    env.reset(seed=0, options={"deal": {"hands": [h.split() for h in hands], "stock": stock.split()}, "dealer": 3})
    return env, env.unwrapped


def test_false_dirty_hand_challenged_discarder_loses_and_keeps_new_hand():
    env, raw = dirty_table("Ah Kh Qh 7c")  # holds a 7: a false claim
    assert raw.game_state.phase is Phase.DIRTY and legal(raw) == ["dirty", "keep"]
    play(env, "0:dirty")
    assert raw.game_state.hands[0] == cards("10h 9h 8h 7h")  # four new cards from the stock
    assert legal(raw) == ["accept", "challenge"] and raw.game_state.to_act == 1
    play(env, "1:accept 2:challenge")
    assert raw.game_state.deal_lost == [1, 0, 0, 0]
    assert raw.game_state.phase is Phase.DIRTY and raw.game_state.to_act == 0  # she may claim again


def test_honest_dirty_hand_challenger_loses_a_life():
    stock = "10h 9h 8h 7h 10s 9s 8s 7s 10d 9d 8d 7d 10c 9c 8c 7c"
    hands = ["Ah Kh Qh Jh", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"]
    env = rams_env.make("toepen", 4, announcements=False)
    env.reset(seed=0, options={"deal": {"hands": [h.split() for h in hands], "stock": stock.split()}, "dealer": 3})
    raw = env.unwrapped
    play(env, "0:dirty 1:challenge")
    assert raw.game_state.deal_lost == [0, 1, 0, 0]
    assert sorted(raw.view("player_2")["revealed"]) == sorted("Ah Kh Qh Jh".split())
    play(env, "0:keep 1:dirty 2:accept 3:accept 0:accept")
    assert raw.game_state.redraws == [1, 1, 0, 0]
    assert "Ac" not in raw.view("player_2")["revealed"]  # unchallenged claims stay face down


def test_no_new_hands_once_the_pack_is_used_up():
    env = rams_env.make("toepen", 8)
    env.reset(seed=0)
    assert env.unwrapped.game_state.phase is not Phase.DIRTY  # 8 x 4 = 32: nothing left to deal
    env = rams_env.make("toepen", 7, announcements=False)
    env.reset(seed=0, options={"dealer": 6})
    raw = env.unwrapped
    play(env, "0:dirty" + "".join(f" {s}:accept" for s in range(1, 7)))
    assert len(raw.game_state.stock) == 0
    assert raw.game_state.phase is Phase.PLAY  # nobody else may claim


# ----------------------------------------------------- "Announcing tens and jacks"
def test_tens_must_and_jacks_may_be_announced():
    env, raw = table(["10h 10s 10d 7c", "Jh Js Jd 7h", "10c 9c 8c 7s", "Ac Kc Qc Jc"], dealer=3, dirty_hands=False)
    assert raw.game_state.signals[0] is Signal.WHISTLE  # three tens: must whistle (automatic)
    assert raw.game_state.phase is Phase.ANNOUNCE and raw.game_state.to_act == 0  # everyone is asked, from forehand
    assert legal(raw) == ["silent"]  # no jacks to announce: the one answer
    play(env, "0:silent")
    assert raw.game_state.to_act == 1 and legal(raw) == ["announce", "silent"]
    play(env, "1:announce")
    assert raw.game_state.signals[1] is Signal.WHISTLE
    play(env, "2:silent 3:silent")
    assert raw.game_state.phase is Phase.PLAY
    assert raw.view("player_3")["signals"] == ["none", "whistle", "whistle", "none"]  # public, seat-relative


def test_four_tens_stand_up_and_siwweschroom_has_no_announcements():
    env, raw = table(["10h 10s 10d 10c", "Jh Js Jd Jc", "9c 8c 7c 9s", "Ac Kc Qc 7s"], dealer=3, dirty_hands=False)
    assert raw.game_state.signals[0] is Signal.STAND
    play(env, "0:silent 1:silent 2:silent 3:silent")
    assert raw.game_state.signals[1] is Signal.NONE and raw.game_state.phase is Phase.PLAY
    env, raw = table(["10h 10s 10d 10c", "Jh Js Jd Jc", "9c 8c 7c 9s", "Ac Kc Qc 7s"], dealer=3,
                     preset="siwweschroom", dirty_hands=False)
    assert raw.game_state.signals == [Signal.NONE] * 4 and raw.game_state.phase is Phase.PLAY


# ---------------------------------------------------------- poverty ("Variations")
def test_poverty_raises_the_stake_before_the_first_lead():
    env, raw = table(["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"], dealer=3,
                     lives_lost=[0, 9, 0, 0], preset="armoede", **NO_EXTRAS)
    assert raw.game_state.stake == 2 and raw.game_state.phase is Phase.RESPOND
    assert raw.game_state.to_act == 0  # the others decide, from forehand; the poor player does not
    play(env, "0:stay 2:fold 3:stay")
    assert raw.game_state.deal_lost == [0, 0, 1, 0]
    assert "knock" in legal(raw)  # a knock needs 3 lives left to cover a stake of 3: player_0 has 10
    play(env, "0:10h")
    assert "knock" not in legal(raw)  # "the poor players are not allowed to knock"
    play(env, "1:Ac 3:Ad 0:9h 1:Kc 3:Kd 0:8h 1:Qc 3:Qd 0:7h 1:Jc 3:Jd")
    assert lost(raw) == [0, 2, 1, 2]


# --------------------------------------------------------------------- sessions
def test_session_ends_when_a_player_has_lost_all_lives():
    env = rams_env.make("toepen", 3, episode="session")
    env.reset(seed=0, options={"lives_lost": [9, 9, 9]})
    raw = env.unwrapped
    while not raw.game_state.terminal:
        env.step(raw.legal_actions()[-1] if raw.game_state.phase is not Phase.PLAY else raw.legal_actions()[0])
    assert max(raw.game_state.lives_lost) >= 10


def test_play_on_until_one_survivor():
    env = rams_env.make("toepen", 4, preset="siwweschroom", episode="session")
    env.reset(seed=1, options={"lives_lost": [6, 6, 6, 0]})
    raw = env.unwrapped
    while not raw.game_state.terminal:
        env.step(raw.legal_actions()[0])
    survivors = [s for s in range(4) if raw.game_state.lives_lost[s] < 7]
    assert len(survivors) == 1


def test_bad_lives_option_is_named():
    env = rams_env.make("toepen", 4)
    with pytest.raises(ValueError, match="lives_lost"):
        env.reset(seed=0, options={"lives_lost": [10, 0, 0, 0]})
    with pytest.raises(ValueError, match="lives_lost"):
        env.reset(seed=0, options={"lives_lost": [0, 0]})


@pytest.mark.parametrize(("options", "named"), [
    ({"lives": 1}, "lives"),
    ({"knock_timing": "sometimes"}, "knock_timing"),
    ({"suit_precedence": ("h", "h", "d", "c")}, "suit_precedence"),
    ({"poverty": "yes"}, "poverty"),
    ({"lifes": 10}, "lifes"),
])
def test_invalid_rules_are_rejected_with_the_option_named(options, named):
    with pytest.raises(ValueError, match=named):
        rams_env.make("toepen", 4, **options)


def test_rewards_are_minus_lives_lost_and_sum_over_a_session():
    env = rams_env.make("toepen", 3, episode="session", lives=3)
    env.reset(seed=4)
    raw = env.unwrapped
    totals = dict.fromkeys(raw.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else raw.legal_actions()[0])
    assert [totals[a] for a in raw.possible_agents] == [-x for x in raw.game_state.lives_lost]
    assert raw.game_state.deals_played == len(raw.game_state.deal_results) >= 1


def replay_lives(raw, moves) -> list[int]:
    """Lives each seat should lose, recomputed from the decisions alone (independent bookkeeping)."""
    n = raw.game.num_players
    loss, stake, folded = [0] * n, 1, [False] * n
    for seat, action, snapshot in moves:
        label = raw.action_label(action)
        if label == "knock":
            stake += 1
        elif label == "fold":
            loss[seat] += stake - 1
            folded[seat] = True
        elif label == "challenge":
            claimant, honest = snapshot
            loss[seat if honest else claimant] += 1
    winner = raw.game_state.breakdown["winner"]
    for s in range(n):
        if not folded[s] and (s != winner or folded[winner]):
            loss[s] += stake
    return loss


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(3, 8),
       preset=st.sampled_from(["standard", "any_time", "laaier", "waalwijk", "siwweschroom"]))
def test_lives_lost_match_knocks_folds_and_challenges(seed, n, preset):
    env = rams_env.make("toepen", n, preset=preset)
    env.reset(seed=seed)
    raw, rng = env.unwrapped, np.random.default_rng(seed)
    moves = []
    while not raw.game_state.terminal:
        legal_ids = raw.legal_actions()
        action = int(legal_ids[rng.integers(len(legal_ids))])
        snapshot = None
        if raw.action_label(action) == "challenge":
            claim = codes(raw.game_state.claim).split()
            snapshot = (raw.game_state.claimant, all(c[:-1] in ("A", "K", "Q", "J") for c in claim))
        moves.append((raw.game_state.to_act, action, snapshot))
        env.step(action)
    assert raw.game_state.deal_lost == replay_lives(raw, moves)
    assert raw.game_state.breakdown["lives_lost"] == raw.game_state.deal_lost


def test_render_ansi_all_hands_or_one_seat():
    hands = ["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"]
    env = rams_env.make("toepen", 4, render_mode="ansi", **NO_EXTRAS)
    env.reset(seed=0, options={"deal": {"hands": [h.split() for h in hands]}, "dealer": 3})
    text = env.render()
    assert all(h in text for h in hands)
    env = rams_env.make("toepen", 4, render_mode="ansi", render_seat=1, **NO_EXTRAS)
    env.reset(seed=0, options={"deal": {"hands": [h.split() for h in hands]}, "dealer": 3})
    text = env.render()
    assert hands[1] in text and hands[0] not in text and "## ## ## ##" in text
