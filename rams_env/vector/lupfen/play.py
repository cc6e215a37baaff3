"""Lupfen's tricks and settlement for one deal, compiled.

``play_card`` mirrors ``rams_env/trickplay.play_card`` (the pot games' trick bookkeeping) and
``settle`` / ``end_deal`` the reference's ``Lupfen._settle``; which cards are legal and who wins
a trick come from the shared trick core (:mod:`rams_env.vector.tricks`) on the game's TrickOrder
for the deal's trump and its ``PLAY_RULES`` (follow suit, else trump).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import bit
from rams_env.vector.lupfen.flow import DECIDE, active, end_deal, pay_in, take_out
from rams_env.vector.lupfen.state import PLAYED
from rams_env.vector.tricks import legal_plays, winning_index


@njit(cache=True)
def legal_cards(r, k, seat):
    """Follow suit; if void, must trump; otherwise any card (``PLAY_RULES`` under this deal's trump)."""
    return legal_plays(k.orders[r.trump], r.hands[seat], r.trick_card, r.trick_len, k.play_flags)


@njit(cache=True)
def in_trick(r, s):
    for i in range(r.trick_len):  # noqa: SIM110 (a plain loop compiles to a plain loop in numba)
        if r.trick_seat[i] == s:
            return True
    return False


@njit(cache=True)
def play_card(r, k, seat, card):
    """The card leaves the hand for the trick; the next player in the deal acts, or the trick is won."""
    r.hands[seat] &= ~bit(card)
    r.played[seat] |= bit(card)
    r.trick_seat[r.trick_len] = seat
    r.trick_card[r.trick_len] = card
    r.trick_len += 1
    for step in range(1, k.n + 1):
        s = (seat + step) % k.n
        if active(r, k, s) and not in_trick(r, s):
            r.to_act = s
            return DECIDE
    winner = r.trick_seat[winning_index(k.orders[r.trump], r.trick_card, r.trick_len)]
    r.tricks_won[winner] += 1
    r.tricks_played += 1
    r.trick_len, r.leader, r.to_act = 0, winner, winner
    if r.tricks_played == k.tricks:
        return settle(r, k)
    return DECIDE


@njit(cache=True)
def settle(r, k):
    """A third of the pot per trick; then every trickless player pays the pot (double when blind)."""
    pot = r.pot_at_play
    for s in range(k.n):
        if active(r, k, s):
            take_out(r, s, pot // k.tricks * r.tricks_won[s])
    for s in range(k.n):
        if active(r, k, s) and r.tricks_won[s] == 0:
            pay_in(r, s, pot * (2 if r.blind else 1))
    return end_deal(r, k, PLAYED)
