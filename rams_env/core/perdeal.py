"""Per-deal State fields, declared once where the field is declared.

A field made with one of these helpers is rebuilt by ``State.clear_deal()``, which every game calls
when a deal begins: adding a per-deal field to a state is one line in its dataclass, never a second
line in some ``start_deal`` to remember. Fields that are not declared here are set by the deal itself
(hands, talon, trump) or carried across deals (ledger, lives, dealer).

Two games deal the cards again within one deal (Lupfen's scrap, Fipsen's all-pass): they call
``clear_deal(redeal=True)``, which leaves the fields declared ``kept_on_redeal=True`` (the deal's
breakdown, its count of shoves and redeals) as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PER_DEAL = "rams.per_deal"
"""The dataclass field metadata key that marks a per-deal field."""


@dataclass(frozen=True)
class Fresh:
    """How a per-deal field starts each deal: ``make(num_players)``, and whether a redeal keeps it."""

    make: Callable[[int], Any]
    kept_on_redeal: bool = False
    constant: bool = False
    """``make`` gives the same immutable value every deal (``per_deal``): set with the others at once."""


def _field(make: Callable[[int], Any], kept_on_redeal: bool, constant: bool = False, **default: Any) -> Any:
    return field(metadata={PER_DEAL: Fresh(make, kept_on_redeal, constant)}, **default)


def per_deal(value: Any = None, *, kept_on_redeal: bool = False) -> Any:
    """A field that starts every deal as ``value`` (immutable: None, a number, a flag, an enum member)."""
    if isinstance(value, (list, dict, set)):
        raise TypeError("per_deal takes an immutable value; use per_deal_list, per_deal_dict or per_seat_lists")
    return _field(lambda n: value, kept_on_redeal, constant=True, default=value)


def per_deal_list(*, kept_on_redeal: bool = False) -> Any:
    """A field that starts every deal as a new empty list."""
    return _field(lambda n: [], kept_on_redeal, default_factory=list)


def per_deal_dict(*, kept_on_redeal: bool = False) -> Any:
    """A field that starts every deal as a new empty dict."""
    return _field(lambda n: {}, kept_on_redeal, default_factory=dict)


def per_seat(value: Any, *, kept_on_redeal: bool = False) -> Any:
    """A field that starts every deal as ``value`` (immutable) for each seat."""
    return _field(lambda n: [value] * n, kept_on_redeal, default_factory=list)


def per_seat_lists(*, kept_on_redeal: bool = False) -> Any:
    """A field that starts every deal as an empty list for each seat (cards discarded, cards played)."""
    return _field(lambda n: [[] for _ in range(n)], kept_on_redeal, default_factory=list)
