"""Small writers shared by the observation encoders (cards one-hot, seat-relative rows)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


def put_cards(out: np.ndarray, base: int, index: dict[int, int], cards: Iterable[int]) -> None:
    """One-hot the cards into ``out[base : base + pack size]``."""
    for c in cards:
        out[base + index[c]] = 1.0


def put_seat_cards(out: np.ndarray, base: int, index: dict[int, int], per_seat: Sequence[Iterable[int]],
                   observer: int) -> None:
    """One row of the pack per seat, rows in seat-relative order (the observer's first)."""
    n, size = len(per_seat), len(index)
    for seat, cards in enumerate(per_seat):
        row = base + ((seat - observer) % n) * size
        for c in cards:
            out[row + index[c]] = 1.0


def put_trick(out: np.ndarray, base: int, index: dict[int, int], trick: Sequence[tuple[int, int]],
              observer: int, n: int) -> None:
    """The current trick's (seat, card) plays as seat-relative rows of the pack."""
    size = len(index)
    for seat, c in trick:
        out[base + ((seat - observer) % n) * size + index[c]] = 1.0
