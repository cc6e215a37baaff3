"""Where seat-relative rows start, precomputed once per layout for every observer."""

from __future__ import annotations


def seat_rows(base: int, n: int, size: int) -> list[list[int]]:
    """``rows[observer][seat]``: where ``seat``'s row of ``size`` elements starts in a block at ``base`` laid out
    in ``observer``'s relative seat order (her own row first). Encoders index it instead of computing
    ``(seat - observer) % n`` for every card."""
    return [[base + ((seat - observer) % n) * size for seat in range(n)] for observer in range(n)]


def seat_slots(base: int, n: int, index: dict[int, int]) -> list[list[dict[int, int]]]:
    """``slots[observer][seat][card]``: the element of ``card`` (``index``: its place in the pack) in ``seat``'s
    pack-sized row of :func:`seat_rows`: one lookup per card encoded."""
    return [[card_slots(row, index) for row in rows] for rows in seat_rows(base, n, len(index))]


def card_slots(start: int, index: dict[int, int]) -> dict[int, int]:
    """``card -> start + index[card]``: where each card's element of a pack-sized row at ``start`` is."""
    return {card: start + i for card, i in index.items()}
