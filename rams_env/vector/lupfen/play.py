"""Lupfen's tricks and settlement for one deal, compiled.

``play_card`` mirrors ``rams_env/trickplay.play_card`` (the pot games' trick bookkeeping) and
``settle`` / ``end_deal`` the reference's ``Lupfen._settle``; which cards are legal and who wins
a trick come from the shared trick core (:mod:`rams_env.vector.tricks`) on the game's TrickOrder
for the deal's trump and its ``PLAY_RULES`` (follow suit, else trump).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector import trickplay
from rams_env.vector.lupfen.flow import DECIDE, end_deal, pay_in
from rams_env.vector.lupfen.state import PLAYED


@njit(cache=True)
def play_card(r, k, t, seat, card):
    """The card leaves the hand for the trick; the next player in the deal acts, or the trick is won."""
    completed = trickplay.play_card(r, t[r.trump], k.n, seat, card) >= 0
    return settle(r, k) if completed and r.tricks_played == k.tricks else DECIDE


@njit(cache=True)
def settle(r, k):
    """A third of the pot per trick; then every trickless player pays the pot (double when blind)."""
    pot = r.pot_at_play
    for s in range(k.n):
        if r.active[s]:
            pay_in(r, s, -(pot // k.tricks * r.tricks_won[s]))
    for s in range(k.n):
        if r.active[s] and r.tricks_won[s] == 0:
            pay_in(r, s, pot * (2 if r.blind else 1))
    return end_deal(r, k, PLAYED)
