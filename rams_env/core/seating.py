"""Clockwise seating helpers shared by every game (seats 0..n-1, clockwise = increasing)."""

from __future__ import annotations

from collections.abc import Callable

SeatFilter = Callable[[int], bool]


def next_seat(n: int, after: int, ok: SeatFilter = lambda s: True) -> int | None:
    """The first seat clockwise after ``after`` for which ``ok`` holds (``after`` itself last)."""
    for step in range(1, n + 1):
        seat = (after + step) % n
        if ok(seat):
            return seat
    return None


def seats_from(n: int, first: int, ok: SeatFilter = lambda s: True) -> list[int]:
    """Seats clockwise starting at ``first`` (included) for which ``ok`` holds."""
    return [s for s in ((first + i) % n for i in range(n)) if ok(s)]


def relative(seat: int, observer: int, n: int) -> int:
    """Seat as the observer sees it: 0 is herself, 1 the player on her left, ..."""
    return (seat - observer) % n
