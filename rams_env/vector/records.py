"""The numpy records every batched game keeps: one per deal (its state), one for the rule data.

numba passes a record by pointer, so a kernel gets a deal's whole state, or all its rule data,
as one argument (see docs/vector.md, "One record per deal"). A game declares its fields as
dicts of name -> dtype; these two functions build the records, written once for every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def deal_records(num_envs: int, per_deal: Mapping[str, type], per_seat: Mapping[str, type],
                 per_card: Mapping[str, type], queues: int, max_seats: int, cards: int) -> np.ndarray:
    """Zeroed records for ``num_envs`` deals: scalars, a row per seat (room for ``max_seats``), a row per
    pack card, and ``queues`` seat queues (``queues``, ``queue_head``, ``queue_len``: rams_env.vector.bits)."""
    dtype = np.dtype([
        *((name, dtype) for name, dtype in per_deal.items()),
        *((name, dtype, (max_seats,)) for name, dtype in per_seat.items()),
        *((name, dtype, (cards,)) for name, dtype in per_card.items()),
        ("queues", np.int8, (queues, max_seats)), ("queue_head", np.int8, (queues,)),
        ("queue_len", np.int8, (queues,)),
    ])
    return np.zeros(num_envs, dtype)


def choice_pairs(values: Mapping[str, object], phases: int, pairs: Mapping[str, tuple[str, str]]) -> np.ndarray:
    """``(phases, 2)`` action ids, the rule record's ``choices``: the two actions a phase always offers (by the
    names of its ``ph_<phase>`` and ``a_<action>`` values), -1 where the game's own code decides."""
    table = np.full((phases, 2), -1, np.int64)
    for phase, (first, second) in pairs.items():
        table[values[f"ph_{phase}"]] = values[f"a_{first}"], values[f"a_{second}"]
    return table


def with_tables(record: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """The rule record with the trick tables nested in it as field ``tables``: the kernels pass one record
    by pointer, where an array argument is reference-counted at every call (measured: 8-12% of a step)."""
    dtype = np.dtype([*((name, record.dtype.fields[name][0]) for name in record.dtype.names),
                      ("tables", tables.dtype, tables.shape)])
    out = np.zeros(1, dtype)
    for name in record.dtype.names:
        out[name] = record[name]
    out["tables"] = tables
    return out


def check_layout(layout, fields: Sequence[str], game: str) -> None:
    """The reference's observation layout must hold exactly the ``fields`` the game's compiled encoder writes."""
    if set(layout.slices) != set(fields):
        raise NotImplementedError(f"the batched {game.title()} encoder writes {sorted(fields)}; the reference layout "
                                  f"now has {sorted(layout.slices)}: teach rams_env/vector/{game}/observe.py")


def rule_record(values: Mapping[str, object], fields: Sequence[str]) -> np.ndarray:
    """A one-element structured array of ``values[name]`` for each of ``fields`` (ints and bools as int64)."""
    arrays = {name: np.asarray(values[name]) for name in fields}
    dtype = np.dtype([(name, np.int64 if a.dtype.kind in "ib" else a.dtype, a.shape) for name, a in arrays.items()])
    record = np.zeros(1, dtype)
    for name, a in arrays.items():
        record[name] = a
    return record
