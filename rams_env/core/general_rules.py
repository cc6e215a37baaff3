"""The rules in effect as numbers: the part of a general observation that says which game is played.

A general agent (rams_env/core/general.py) plays every preset of a game, so the options that change
the play must reach its input. The encoding is generated from the game's ``Rules`` dataclass, field
by field, from the field's type, so a new option reaches the vector without a line here:

- ``bool``: 0 or 1;
- an ``Enum``: one-hot over its members, in declaration order;
- ``int`` (or ``float``): the value divided by the largest magnitude any preset (or the default)
  gives it (1 when that is 0), so the presets' values lie in [0, 1] and a custom value beyond them
  still reads as larger, not clipped;
- ``tuple[str, ...]`` (suit or rank lists): one slot per symbol the option may name (the suits or
  the ranks of rams_env/core/cards.py when every preset names only those, else the symbols the presets
  use), holding ``(L - i) / L`` for the symbol at position ``i`` of the ``L`` listed, 0 when absent:
  the first listed reads 1, order and membership both show.

Any other option type is refused when the space is built, naming the option.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

import numpy as np

from rams_env.core.cards import RANKS, SUITS
from rams_env.core.observation import OBS_DTYPE
from rams_env.core.rules import Rules

Encoder = Callable[[Any], list[float]]


def _is_str_tuple(kind: Any) -> bool:
    return typing.get_origin(kind) is tuple and typing.get_args(kind) == (str, Ellipsis)


def _symbols(name: str, seen: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """The symbols a tuple-of-str option may list: suits or ranks when the presets list only those."""
    used = {s for value in seen for s in value}
    for family in (SUITS, RANKS):
        if used <= set(family):
            return family
    return tuple(sorted(used))


def _positions(name: str, symbols: tuple[str, ...]) -> Encoder:
    slot = {s: i for i, s in enumerate(symbols)}

    def encode(value: tuple[str, ...]) -> list[float]:
        row = [0.0] * len(symbols)
        for i, s in enumerate(value):
            if s not in slot:
                raise ValueError(f"rule option {name}={value!r}: {s!r} is none of {' '.join(symbols)}, "
                                 "which the general space encodes")
            row[slot[s]] = (len(value) - i) / len(value)
        return row
    return encode


def _encoder(name: str, kind: Any, seen: Sequence[Any]) -> tuple[Encoder, list[str]]:
    """How option ``name`` of type ``kind`` becomes numbers (given the values the presets use), and the
    names of those numbers (for the docs)."""
    if kind is bool:
        return (lambda v: [float(v)]), [name]
    if isinstance(kind, type) and issubclass(kind, Enum):
        members = list(kind)
        return (lambda v: [float(v is m) for m in members]), [f"{name}={m.value}" for m in members]
    if kind in (int, float):
        scale = float(max(abs(v) for v in seen)) or 1.0
        return (lambda v: [v / scale]), [f"{name} / {scale:g}"]
    if _is_str_tuple(kind):
        symbols = _symbols(name, seen)
        return _positions(name, symbols), [f"{name}[{s}]" for s in symbols]
    raise TypeError(f"rule option {name!r} has type {kind!r}, which the general space cannot encode "
                    "(bool, Enum, int, float and tuple[str, ...] are)")


class RuleFeatures:
    """Every option of one ``Rules`` type as a fixed-length float vector (see the module docstring)."""

    def __init__(self, rules_type: type[Rules], examples: Sequence[Rules]) -> None:
        """``examples``: the rules of every preset (the default among them): the int scales and the
        symbols of tuple options are taken from them."""
        hints = typing.get_type_hints(rules_type)
        self.rules_type = rules_type
        self._encoders: list[tuple[str, Encoder]] = []
        self.names: list[str] = []
        """What each number is (``"lives / 15"``, ``"knock_timing=any_time"``): the docs' and tests' handle."""
        for f in dataclasses.fields(rules_type):
            encode, names = _encoder(f.name, hints[f.name], [getattr(r, f.name) for r in examples])
            self._encoders.append((f.name, encode))
            self.names.extend(names)
        self.size = len(self.names)

    def encode(self, rules: Rules) -> np.ndarray:
        if not isinstance(rules, self.rules_type):
            raise TypeError(f"rules of type {type(rules).__name__}, expected {self.rules_type.__name__}")
        row = [x for name, encode in self._encoders for x in encode(getattr(rules, name))]
        return np.asarray(row, dtype=OBS_DTYPE)
