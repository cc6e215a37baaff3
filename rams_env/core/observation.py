"""Flat observation vectors with named slices, and the docs table generated from them.

A game declares its observation as :class:`Field` s (name, size, meaning). The layout
computes offsets, so encoders write ``obs[layout["hand"]]`` instead of magic indices,
and ``describe()`` produces the table in ``docs/`` from the very same declaration.
Every value lies in [0, 1]; all seat-indexed fields are seat-relative (index 0 is the
observing player, then clockwise), as in Hanabi.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

OBS_DTYPE = np.float32


@dataclass(frozen=True)
class Field:
    """A named block of the observation vector."""

    name: str
    size: int
    doc: str


class ObservationLayout:
    """Fields laid end to end; ``layout[name]`` is the slice of that field."""

    def __init__(self, fields: Sequence[Field], version: int = 1, seats: Any = None) -> None:
        self.fields = tuple(fields)
        self.version = version
        self.seats = seats
        """The per-seat block (:class:`rams_env.core.observation_seats.SeatBlock`) among the fields, if any."""
        self.slices: dict[str, slice] = {}
        offset = 0
        for f in self.fields:
            if f.name in self.slices:
                raise ValueError(f"observation field {f.name!r} declared twice")
            if f.size <= 0:
                raise ValueError(f"observation field {f.name!r} has no size")
            self.slices[f.name] = slice(offset, offset + f.size)
            offset += f.size
        self.size = offset
        self.offsets = {name: s.start for name, s in self.slices.items()}
        """Where each field starts: the encoders' index (a dict lookup, not a method call per field)."""

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def start(self, name: str) -> int:
        return self.slices[name].start

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=OBS_DTYPE)

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views into a vector (for debugging and tests, never for agents' logic)."""
        return {name: vector[s] for name, s in self.slices.items()}

    def describe(self) -> str:
        """Markdown table of the layout (generated into the docs)."""
        rows = ["| offset | size | field | meaning |", "| --- | --- | --- | --- |"]
        for f in self.fields:
            rows.append(f"| {self.slices[f.name].start} | {f.size} | `{f.name}` | {f.doc} |")
        rows.append(f"| | **{self.size}** | | total (layout version {self.version}) |")
        return "\n".join(rows)
