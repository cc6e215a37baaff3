"""Fipsen's card play for one deal of the batch: the trick, Grossenaspe's end of play and playing on.

Each function mirrors the one of the same name in ``rams_env/games/fipsen/play.py`` (and the
shared bookkeeping of ``rams_env/core/trickplay.py``); the trick itself, the legal cards and the
winner, is the compiled core :mod:`rams_env.vector.tricks` on the deal's order ``o``
(``tables[trump]``, from the reference's ``Fipsen.order``).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.fipsen.flow import DECIDE, award, race_trick
from rams_env.vector.fipsen.state import FAILED, PLAYED, STOPPED
from rams_env.vector.trickplay import lay_card, take_trick


@njit(cache=True)
def play_card(r, k, o, seat, card):
    """The card leaves the hand for the trick; a complete trick goes to its winner, who leads next."""
    lay_card(r, seat, card)
    if r.trick_len < k.n:  # everyone plays to every trick, clockwise from the leader
        r.to_act = (seat + 1) % k.n
        return DECIDE
    winner = r.trick_seat[take_trick(r, o)]
    if k.thedinghausen:
        return race_trick(r, k, winner)
    return check_contract(r, k)


@njit(cache=True)
def check_contract(r, k):
    """Grossenaspe ends play once the bid is made or lost; elsewhere all five tricks are played."""
    seat = r.declarer
    target = k.tricks if r.playing_on else k.l_tricks[r.contract]
    won = r.tricks_won[seat]
    lost = r.tricks_played - won
    if k.play_on and lost > k.tricks - target:
        return award(r, k, seat, r.playing_on, FAILED, False, r.playing_on)
    if r.tricks_played == k.tricks:
        return award(r, k, seat, won >= target, PLAYED, won == k.tricks, False)
    if k.play_on and won >= target and not r.playing_on and target < k.tricks:
        r.phase, r.to_act = k.ph_play_on, seat  # only while tricks remain to play for
    return DECIDE


@njit(cache=True)
def play_on(r, k, seat, on):
    """Grossenaspe: the bid is made; play on for a Durch (doubled, or lost), or stop and score it."""
    if on:
        r.playing_on, r.phase = True, k.ph_play
        r.to_act = r.leader
        return DECIDE
    return award(r, k, seat, True, STOPPED, False, False)
