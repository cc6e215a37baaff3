"""The two test tiers: ``pytest -m "not slow"`` while developing, the whole suite in CI.

The fast tier still plays every game and every preset and checks every property, at small counts: a sweep
over many configurations keeps a sample in the fast tier and marks the rest ``slow`` (see README, "Tests").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import pytest

import rams_env

slow = pytest.mark.slow
"""Long training, many deals, sweeps at full count: CI runs them, ``-m "not slow"`` leaves them out."""


def parametrize(names: str | tuple[str, ...], cases: Iterable[Any], fast: Callable[..., bool], **kwargs):
    """``pytest.mark.parametrize(names, cases)`` with every case that ``fast`` rejects marked slow.

    ``fast`` is called with a case's values as arguments (one argument where ``names`` names one)."""
    many = not isinstance(names, str) or "," in names
    params = []
    for case in cases:
        values = tuple(case) if many else (case,)
        params.append(pytest.param(*values, marks=() if fast(*values) else slow))
    return pytest.mark.parametrize(names, params, **kwargs)


@cache
def usual_players(game: str, preset: str) -> int:
    """The table size a preset is played at when none is given."""
    return rams_env.make_game(game, preset=preset).num_players


def default_preset(game: str) -> str:
    """The reference rules of ``game``."""
    return rams_env.make_game(game).rules.DEFAULT_PRESET


def usual_table(game: str, preset: str, n: int) -> bool:
    """Every preset at its usual table size (the fast tier's sample of a game x preset x size sweep)."""
    return n == usual_players(game, preset)


def reference_table(game: str, preset: str, n: int) -> bool:
    """Only each game's reference rules at their usual table size (for the sweeps that cost most a case)."""
    return preset == default_preset(game) and usual_table(game, preset, n)


def reference_rules(game: str, preset: str, *_: Any) -> bool:
    """Each game's reference rules (at every table size, with every other value of the case)."""
    return preset == default_preset(game)


def reference_preset(game: str) -> Callable[..., bool]:
    """For a sweep of ``game``'s presets (the preset first): only its reference rules in the fast tier."""
    return lambda preset, *_: preset == default_preset(game)


def at_most_one_or_all(*flags: bool) -> bool:
    """A sample of an on/off sweep: everything off, everything on, or one option on."""
    return sum(flags) <= 1 or all(flags)


def all_or_none(*flags: bool) -> bool:
    """A smaller sample of an on/off sweep: everything off or everything on."""
    return all(flags) or not any(flags)
