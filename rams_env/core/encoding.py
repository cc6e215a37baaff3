"""Where seat-relative rows start, precomputed once per layout for every observer."""

from __future__ import annotations


def seat_rows(base: int, n: int, size: int) -> list[list[int]]:
    """``rows[observer][seat]``: where ``seat``'s row of ``size`` elements starts in a block at ``base`` laid out
    in ``observer``'s relative seat order (her own row first). Encoders index it instead of computing
    ``(seat - observer) % n`` for every card."""
    return [[base + ((seat - observer) % n) * size for seat in range(n)] for observer in range(n)]
