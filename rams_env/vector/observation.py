"""The observation fields every batched game writes alike: the compiled mirror of the observation core.

Every game's layout (``rams_env/core/observation_core.py``) has the current trick and the cards
each seat has played (a pack row per seat, relative to the observer), markers for the leader,
the seat to act and the dealer, the observer's own seat, the phase and the trick number; these
functions write them from the deal record ``r`` and the game's offsets in ``k`` (``o_trick``,
``o_played``, ``o_leader``, ``o_to_act``, ``o_dealer``, ``o_seat``, ``o_phase``,
``o_trick_number``). Values are computed in float64 and rounded to float32 once, as numpy does
when the reference fills its array, so every row stays bit-identical.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import put_cards


@njit(cache=True)
def put_marker(row, at, marked, seat, n):
    """1 for the ``marked`` seat (relative to ``seat``), nothing for nobody (-1)."""
    if marked >= 0:
        row[at + (marked - seat + n) % n] = 1.0


@njit(cache=True)
def put_scaled(row, at, value, scale, offset):
    """A numeric seat field: ``offset + value / scale`` clipped to [0, 1] (the reference's SeatBlock);
    a zero stays unwritten in the zeroed row (most seats have no tricks, exchanges or quartets)."""
    if value != 0 or offset != 0.0:
        row[at] = max(min(value / scale + offset, 1.0), 0.0)


@njit(cache=True)
def write_core(r, k, seat, row, leader):
    """Zero ``row`` and write the fields every game shares, as ``seat`` sees them; ``leader``: the seat shown
    as leading (-1: none, where the game shows the leader during card play only)."""
    row[:] = 0.0
    n, cards = k.n, k.cards
    for i in range(r.trick_len):
        row[k.o_trick + ((r.trick_seat[i] - seat + n) % n) * cards + r.trick_card[i]] = 1.0
    for s in range(n):
        put_cards(row, k.o_played + ((s - seat + n) % n) * cards, r.played[s])
    put_marker(row, k.o_leader, leader, seat, n)
    put_marker(row, k.o_to_act, r.to_act, seat, n)
    put_marker(row, k.o_dealer, r.dealer, seat, n)
    row[k.o_seat + seat] = 1.0
    row[k.o_phase + r.phase] = 1.0
    row[k.o_trick_number + min(r.tricks_played, k.tricks - 1)] = 1.0
