"""Helpers shared by the pot games (Tippen, Mauscheln, Lupfen): carried-over chips and scores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rams_env.core.game import OptionError
from rams_env.core.stakes import Ledger

POT_CARRY_OPTIONS = ("pot", "bankrolls")
"""Reset options of a pot game: chips in the pot and each player's bankroll."""


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def ledger_from_carry(carry: Mapping[str, Any], n: int, bankroll: int) -> Ledger:
    """A ledger from reset options ``pot`` (>= 0) and ``bankrolls`` (n whole numbers), validated."""
    bankrolls = carry.get("bankrolls", [bankroll] * n)
    if not isinstance(bankrolls, (list, tuple)) or len(bankrolls) != n or not all(map(_whole, bankrolls)):
        raise OptionError(f"option 'bankrolls' must be {n} whole numbers, got {bankrolls!r}")
    pot = carry.get("pot", 0)
    if not _whole(pot) or pot < 0:
        raise OptionError(f"option 'pot' must be a whole number >= 0, got {pot!r}")
    return Ledger([int(b) for b in bankrolls], int(pot))


def net_results(ledger: Ledger, start: list[int]) -> list[int]:
    """Each seat's chips won (negative: lost) since the session started."""
    return [b - b0 for b, b0 in zip(ledger.bankrolls, start, strict=True)]
