"""A deal's settlement (``state.breakdown``) in words: the terminal's ``rams play`` and the browser's
``rams serve`` explain each deal the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SEAT_KEYS = frozenset({"winner", "declarer", "sneaker", "lifter", "claimant", "challenger", "privileged",
                       "race_winner", "player", "last_knocker", "three_unters"})
"""Breakdown keys whose integer value is a seat (printed as the player's name)."""


def seat_names(n: int) -> list[str]:
    return [f"player_{s}" for s in range(n)]


def format_value(key: str, value: Any, n: int, names: Sequence[str] | None = None) -> str:
    """A breakdown value made readable: seats by name, per-seat lists and dicts by seat."""
    names = names if names is not None else seat_names(n)
    if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n:
        return names[value]
    if isinstance(value, dict) and value and all(isinstance(k, int) for k in value):
        return ", ".join(f"{names[k]} {format_value('', v, n, names)}" for k, v in value.items())
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {format_value(k, v, n, names)}" for k, v in value.items()) + "}"
    if isinstance(value, list) and len(value) == n and not any(isinstance(v, (dict, list)) for v in value):
        return ", ".join(f"{names[s]} {v}" for s, v in enumerate(value))
    if isinstance(value, list):
        return "[" + "; ".join(format_value(key, v, n, names) for v in value) + "]"
    return "-" if value is None else str(value)


def breakdown_lines(breakdown: dict[str, Any], n: int, names: Sequence[str] | None = None) -> list[str]:
    """One ``key: value`` line per entry of the settlement."""
    return [f"{key.replace('_', ' ')}: {format_value(key, value, n, names)}" for key, value in breakdown.items()]


def format_breakdown(breakdown: dict[str, Any], n: int) -> str:
    return "\n".join(f"  {line}" for line in breakdown_lines(breakdown, n))
