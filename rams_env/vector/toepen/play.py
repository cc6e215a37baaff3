"""Toepen's tricks, knocks, stays and folds and the settlement for one deal, compiled.

Each function mirrors the one of the same name in ``rams_env/games/toepen/play.py`` and
returns a continuation of :mod:`rams_env.vector.toepen.flow` instead of calling the next phase.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import MAIN, RESPONDERS, bit, q_empty, q_front, q_pop
from rams_env.vector.toepen.flow import (
    BEGIN_TRICK_PLAY,
    CONTINUE_WINDOW,
    DEAL_OVER,
    DECIDE,
    FINISH_TRICK,
    NO_SEAT,
    OPEN_WINDOW,
    RESUME_PLAY,
    SETTLE,
    ask_next,
    can_knock,
    in_play,
    lose,
    next_in_play,
    players_in,
    queue_in_play,
)
from rams_env.vector.toepen.state import REASON_ALL_FOLDED, REASON_LAST_TRICK


# ---------------------------------------------------------- knocking ("Knocking")
@njit(cache=True)
def knock(r, k, seat):
    r.stake += 1
    r.knocked_by[seat] += 1
    r.last_knocker = seat
    r.resume = r.phase
    if r.phase == k.ph_window:
        q_pop(r, MAIN)
    queue_in_play(r, k, RESPONDERS, seat + 1, k.n - 1)
    r.phase, r.to_act = k.ph_respond, q_front(r, RESPONDERS)
    return DECIDE


@njit(cache=True)
def respond(r, k, seat, fold):
    """Folding costs the stake as it was before the knock ("Knocking")."""
    if fold:
        r.folded[seat] = 1
        lose(r, seat, r.stake - 1)
        r.face_down[seat] |= r.hands[seat]
        r.hands[seat] = 0
    q_pop(r, RESPONDERS)
    if not q_empty(r, RESPONDERS):
        r.to_act = q_front(r, RESPONDERS)
        return DECIDE
    if players_in(r, k) == 1:
        r.winner, r.reason = next_in_play(r, k, 0), REASON_ALL_FOLDED
        return SETTLE
    if r.resume == NO_SEAT:
        return BEGIN_TRICK_PLAY
    if r.resume == k.ph_window:
        r.phase = k.ph_window
        return CONTINUE_WINDOW
    return RESUME_PLAY


@njit(cache=True)
def open_window(r, k):
    """Any-time knocking: each player still in, from the one to play on, may knock once."""
    r.phase = k.ph_window
    queue_in_play(r, k, MAIN, next_to_play(r, k), k.n)
    return CONTINUE_WINDOW


@njit(cache=True)
def continue_window(r, k):
    while not q_empty(r, MAIN) and not can_knock(r, k, q_front(r, MAIN)):
        q_pop(r, MAIN)
    return ask_next(r, MAIN, RESUME_PLAY)


@njit(cache=True)
def pass_window(r):
    q_pop(r, MAIN)
    return CONTINUE_WINDOW


# ------------------------------------------------------ tricks ("Play of the cards")
@njit(cache=True)
def begin_trick_play(k):
    return OPEN_WINDOW if k.any_time else RESUME_PLAY


@njit(cache=True)
def resume_play(r, k):
    """Back to card play; a trick whose last player to act has folded is complete."""
    r.phase = k.ph_play
    seat = next_to_play(r, k)
    if seat == NO_SEAT:
        return FINISH_TRICK
    r.to_act = seat
    return DECIDE


@njit(cache=True)
def next_to_play(r, k):
    """Leader (or the next player still in, if the leader folded), then clockwise."""
    if r.trick_len == 0:
        return next_in_play(r, k, r.leader + k.n - 1)
    last = r.trick_seat[r.trick_len - 1]
    for step in range(1, k.n + 1):
        s = (last + step) % k.n
        if in_play(r, s) and not in_trick(r, s):
            return s
    return NO_SEAT


@njit(cache=True)
def in_trick(r, s):
    for i in range(r.trick_len):  # noqa: SIM110 (a plain loop compiles to a plain loop in numba)
        if r.trick_seat[i] == s:
            return True
    return False


@njit(cache=True)
def play_card(r, k, seat, card):
    r.hands[seat] &= ~bit(card)
    r.played[seat] |= bit(card)
    r.trick_seat[r.trick_len] = seat
    r.trick_card[r.trick_len] = card
    r.trick_len += 1
    seat = next_to_play(r, k)
    if seat == NO_SEAT:
        return FINISH_TRICK
    if k.any_time:
        return OPEN_WINDOW
    r.to_act = seat
    return DECIDE


@njit(cache=True)
def trick_winner(r, k):
    """The best card of the led suit (TrickOrder without trumps); ``cannot_win``: among players still in."""
    led = k.suit[r.trick_card[0]]
    if not k.cannot_win:
        best = 0
        for i in range(1, r.trick_len):
            card, holder = r.trick_card[i], r.trick_card[best]
            if k.suit[card] == k.suit[holder] and k.power[card] > k.power[holder]:
                best = i
        return r.trick_seat[best]
    for p in range(-1, len(k.precedence)):  # winner_with_precedence: the led suit, then by precedence
        suit = led if p < 0 else k.precedence[p]
        best, best_power = NO_SEAT, -1
        for i in range(r.trick_len):
            seat, card = r.trick_seat[i], r.trick_card[i]
            if in_play(r, seat) and k.suit[card] == suit and k.power[card] > best_power:
                best, best_power = seat, k.power[card]
        if best != NO_SEAT:
            return best
    return NO_SEAT


@njit(cache=True)
def finish_trick(r, k):
    winner = trick_winner(r, k)
    r.tricks_won[winner] += 1
    r.tricks_played += 1
    r.leader, r.trick_len = winner, 0
    if r.tricks_played == k.tricks:
        r.winner, r.reason = winner, REASON_LAST_TRICK
        return SETTLE
    return BEGIN_TRICK_PLAY


# ----------------------------------------------------------------- settlement
@njit(cache=True)
def settle(r, k):
    """Everyone still in except the winner loses the stake; a folded winner saves no one."""
    winner = r.winner
    for s in range(k.n):
        if in_play(r, s) and (s != winner or r.folded[winner]):
            lose(r, s, r.stake)
    if k.play_on:
        for s in range(k.n):
            r.out[s] = r.lives_lost[s] >= k.lives
    r.dealer = winner  # "The winner of the fourth and last trick will deal the next hand"
    r.settled, r.result_stake, r.to_act = True, r.stake, NO_SEAT
    return DEAL_OVER
