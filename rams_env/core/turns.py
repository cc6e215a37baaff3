"""Seats asked in turn: a round of decisions that goes once round (part of) the table.

Bidding, joining, calling, exchanging: the game lists the seats to ask, in order, in ``state.queue``
(a per-deal field of every State); the first is to act. When she has answered the next is asked, and
when nobody is left the functions return False and the game decides what follows. A seat that cannot
act when her turn comes (nothing left to exchange) may be passed over with ``may_act``.
:class:`rams_env.core.private_choice.PrivateChoice` asks its seats this way too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

SeatTest = Callable[[int], bool]


def ask_in_turn(state: Any, seats: Iterable[int], may_act: SeatTest | None = None) -> bool:
    """Ask ``seats`` in this order, the first (that ``may_act``) now; False when nobody is left to ask
    (no seats at all: nothing changes)."""
    seats = list(seats)
    if not seats:
        return False
    state.queue = seats
    return ask_first(state, may_act)


def ask_next(state: Any, may_act: SeatTest | None = None) -> bool:
    """The seat to act has answered: the next seat in turn (that ``may_act``) is asked; False once all have been."""
    state.queue.pop(0)
    return ask_first(state, may_act)


def ask_first(state: Any, may_act: SeatTest | None = None) -> bool:
    """The first seat left in ``state.queue`` (passing over those that may not act) is asked; False if none is.
    For a game whose handler drops the seat that answered and re-enters its phase (Toepen's)."""
    while state.queue and may_act is not None and not may_act(state.queue[0]):
        state.queue.pop(0)
    if not state.queue:
        return False
    state.to_act = state.queue[0]
    return True
