"""Card play for the batched pot and auction games: the compiled mirror of :mod:`rams_env.core.trickplay`.

The trick rules (legal cards, the winner) are in :mod:`rams_env.vector.tricks`; this module
keeps the bookkeeping every trick-taking deal repeats, on a deal record ``r`` with the
reference's ``TrickState`` fields: ``hands``, ``played`` (card sets per seat), ``trick_seat`` /
``trick_card`` / ``trick_len`` (the current trick in play order), ``tricks_played``,
``tricks_won``, ``leader``, ``to_act``, and ``active`` (1 for the seats that take part in this
deal's tricks, the reference's ``plays(seat)``). Games whose players are known otherwise (Toepen's
folds, Fipsen's everyone) use the pieces: :func:`lay_card`, :func:`in_trick`, :func:`take_trick`.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import bit
from rams_env.vector.tricks import legal_plays, winning_index

NO_SEAT = -1


@njit(cache=True)
def clear_tricks(r, n):
    for s in range(n):
        r.tricks_won[s] = 0
        r.played[s] = 0
    r.trick_len, r.tricks_played = 0, 0


@njit(cache=True)
def legal_cards(r, o, seat, flags):
    """The cards ``seat`` may play to the current trick under trick order ``o`` and rule ``flags``."""
    return legal_plays(o, r.hands[seat], r.trick_card, r.trick_len, flags)


@njit(cache=True)
def trick_cards(r, k, t, seat):
    """The cards ``seat`` may play under the deal's trump (``t[r.trump]``) and the game's ``k.play_flags``."""
    return legal_cards(r, t[r.trump], seat, k.play_flags)


@njit(cache=True)
def next_to_play(r, n, seat):
    """The first seat after ``seat`` that plays this deal and has not played to the trick, else -1."""
    for step in range(1, n + 1):
        s = (seat + step) % n
        if r.active[s] and not in_trick(r, s):
            return s
    return NO_SEAT


@njit(cache=True)
def players(r, n):
    """Seats that play this deal's tricks (a complete trick holds one card of each)."""
    total = 0
    for s in range(n):
        total += r.active[s]
    return total


@njit(cache=True)
def in_trick(r, seat):
    for i in range(r.trick_len):  # noqa: SIM110 (a plain loop compiles to a plain loop in numba)
        if r.trick_seat[i] == seat:
            return True
    return False


@njit(cache=True)
def play_card(r, o, n, seat, card):
    """Play ``card`` (a pack index); returns the winning index of the trick it completed, else -1.

    A completed trick goes to its winner, who leads next; its cards stay readable in
    ``trick_seat``/``trick_card`` (``trick_len`` is 0 again) until the next card is played.
    """
    lay_card(r, seat, card)
    nxt = next_to_play(r, n, seat)
    if nxt != NO_SEAT:
        r.to_act = nxt
        return -1
    return take_trick(r, o)


@njit(cache=True)
def lay_card(r, seat, card):
    """``card`` leaves ``seat``'s hand for the trick (and the cards she has played)."""
    r.hands[seat] &= ~bit(card)
    r.played[seat] |= bit(card)
    r.trick_seat[r.trick_len] = seat
    r.trick_card[r.trick_len] = card
    r.trick_len += 1


@njit(cache=True)
def take_trick(r, o):
    """The complete trick goes to its winner under order ``o``, who leads next; returns the winning index."""
    best = winning_index(o, r.trick_card, r.trick_len)
    winner = r.trick_seat[best]
    r.tricks_won[winner] += 1
    r.tricks_played += 1
    r.trick_len, r.leader, r.to_act = 0, winner, winner
    return best


@njit(cache=True)
def current_leader(r):
    """Who leads the current trick (or led it, once cards are on the table)."""
    return r.trick_seat[0] if r.trick_len else r.leader

