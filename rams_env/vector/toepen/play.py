"""Toepen's tricks, knocks, stays and folds and the settlement for one deal, compiled.

Each function mirrors the one of the same name in ``rams_env/games/toepen/play.py`` and calls
the next phase directly, but for the next trick (:data:`rams_env.vector.toepen.flow.NEXT_TRICK`).
``o`` is the trick order (no trumps: the led suit wins).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector import bits
from rams_env.vector.bits import MAIN, RESPONDERS
from rams_env.vector.toepen.flow import (
    DEAL_OVER,
    DECIDE,
    NEXT_TRICK,
    NO_SEAT,
    can_knock,
    in_play,
    lose,
    next_in_play,
    players_in,
    queue_in_play,
)
from rams_env.vector.toepen.state import REASON_ALL_FOLDED, REASON_LAST_TRICK
from rams_env.vector.trickplay import in_trick, lay_card
from rams_env.vector.tricks import winning_index


# ---------------------------------------------------------- knocking ("Knocking")
@njit(cache=True)
def knock(r, k, seat):
    r.stake += 1
    r.knocked_by[seat] += 1
    r.last_knocker = seat
    r.resume = r.phase
    if r.phase == k.ph_window:
        bits.q_pop(r, MAIN)
    queue_in_play(r, k, RESPONDERS, seat + 1, k.n - 1)
    r.phase, r.to_act = k.ph_respond, bits.q_front(r, RESPONDERS)
    return DECIDE


@njit(cache=True)
def respond(r, k, o, seat, fold):
    """Folding costs the stake as it was before the knock ("Knocking")."""
    if fold:
        r.folded[seat] = 1
        lose(r, seat, r.stake - 1)
        r.face_down[seat] |= r.hands[seat]
        r.hands[seat] = 0
    if bits.pass_on(r, RESPONDERS):
        return DECIDE
    if players_in(r, k) == 1:
        r.winner, r.reason = next_in_play(r, k, 0), REASON_ALL_FOLDED
        return settle(r, k)
    if r.resume == NO_SEAT:
        return begin_trick_play(r, k, o)
    if r.resume == k.ph_window:
        r.phase = k.ph_window
        return continue_window(r, k, o)
    return resume_play(r, k, o)


@njit(cache=True)
def open_window(r, k, o):
    """Any-time knocking: each player still in, from the one to play on, may knock once."""
    r.phase = k.ph_window
    queue_in_play(r, k, MAIN, next_to_play(r, k), k.n)
    return continue_window(r, k, o)


@njit(cache=True)
def continue_window(r, k, o):
    while not bits.q_empty(r, MAIN) and not can_knock(r, k, bits.q_front(r, MAIN)):
        bits.q_pop(r, MAIN)
    return DECIDE if bits.ask_front(r, MAIN) else resume_play(r, k, o)


@njit(cache=True)
def pass_window(r, k, o):
    bits.q_pop(r, MAIN)
    return continue_window(r, k, o)


# ------------------------------------------------------ tricks ("Play of the cards")
@njit(cache=True)
def begin_trick_play(r, k, o):
    return open_window(r, k, o) if k.any_time else resume_play(r, k, o)


@njit(cache=True)
def resume_play(r, k, o):
    """Back to card play; a trick whose last player to act has folded is complete."""
    r.phase = k.ph_play
    seat = next_to_play(r, k)
    if seat == NO_SEAT:
        return finish_trick(r, k, o)
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
def play_card(r, k, o, seat, card):
    lay_card(r, seat, card)
    seat = next_to_play(r, k)
    if seat == NO_SEAT:
        return finish_trick(r, k, o)
    if k.any_time:
        return open_window(r, k, o)
    r.to_act = seat
    return DECIDE


@njit(cache=True)
def trick_winner(r, k, o):
    """The best card of the led suit (order ``o``, no trumps); ``cannot_win``: among players still in."""
    if not k.cannot_win:
        return r.trick_seat[winning_index(o, r.trick_card, r.trick_len)]
    led = o.suit[r.trick_card[0]]
    for p in range(-1, len(k.precedence)):  # winner_with_precedence: the led suit, then by precedence
        suit = led if p < 0 else k.precedence[p]
        best, best_power = NO_SEAT, -1
        for i in range(r.trick_len):
            seat, card = r.trick_seat[i], r.trick_card[i]
            if in_play(r, seat) and o.suit[card] == suit and o.power[card] > best_power:
                best, best_power = seat, o.power[card]
        if best != NO_SEAT:
            return best
    return NO_SEAT


@njit(cache=True)
def finish_trick(r, k, o):
    winner = trick_winner(r, k, o)
    r.tricks_won[winner] += 1
    r.tricks_played += 1
    r.leader, r.trick_len = winner, 0
    if r.tricks_played == k.tricks:
        r.winner, r.reason = winner, REASON_LAST_TRICK
        return settle(r, k)
    return NEXT_TRICK


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
