"""The per-player block of an observation (leader, to_act, dealer, tricks won, net...), written once.

A game lists its per-player fields as :class:`SeatField` s with a getter on the state: a
seat (a *marker*, one-hot over the players; None marks nobody) or one number per absolute
seat, with the scale and offset that bring it into [0, 1]. The :class:`SeatBlock` keeps every
observer's block ready (numeric fields scaled and in her relative seat order) and rewrites only the
fields whose lists a move changed, so an observation costs one row copy and the markers whatever the
table size; the view gets the same fields
as relative seats (markers) or raw numbers in relative order. The block is one part of an
:class:`~rams_env.core.observation_core.Observation`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter
from typing import Any

import numpy as np

from rams_env.core.observation import OBS_DTYPE, Field
from rams_env.core.straight_line import compiled

Getter = Callable[[Any], Any]

LEADER_DOC = "1 for the player who leads (or led) the current trick"
TO_ACT_DOC = "1 for the player whose decision it is"
DEALER_DOC = "1 for the dealer"


@dataclass(frozen=True)
class SeatField:
    """One value per player, seat-relative in the vector (index 0 is the observer).

    ``get(state)`` returns a seat or None for a ``marker`` (1 for that player, 0 for the
    others), else a sequence with one number per absolute seat; the vector holds
    ``offset + value / scale`` clipped to [0, 1]. ``view`` names the field in the view
    (None: the view leaves it out, usually because it shows the fact another way).
    ``reads`` names the state's per-seat lists a numeric field is a function of (with the
    game's constants): ``get`` runs only when one of them changed, and its scaled rows are cached by
    its values. A numeric field that reads nothing declared is compared by ``get``'s value.
    ``attr`` names the state attribute a marker is, if it is one: the block reads all of those in one call.
    """

    name: str
    doc: str
    get: Getter
    marker: bool = False
    scale: float = 1.0
    offset: float = 0.0
    view: str | None = ""
    reads: tuple[str, ...] = ()
    attr: str = ""

    @property
    def view_key(self) -> str | None:
        return self.name if self.view == "" else self.view


def marker(name: str, doc: str, get: Getter | str, view: str | None = "") -> SeatField:
    """A marker: ``get(state)`` is the marked seat or None, or ``get`` names the state attribute that holds it."""
    if isinstance(get, str):
        return SeatField(name, doc, attrgetter(get), marker=True, view=view, attr=get)
    return SeatField(name, doc, get, marker=True, view=view)


def seat_list(name: str, doc: str, attr: str | None = None, **options: Any) -> SeatField:
    """A numeric field that is the state's per-seat list ``attr`` (default: ``name``) as it is."""
    attr = attr or name
    return SeatField(name, doc, attrgetter(attr), reads=(attr,), **options)


def tricks_won_field(tricks: int, unit: str | None = None) -> SeatField:
    """Tricks won this deal / ``tricks`` (``unit`` spells it in the docs table when not a number)."""
    return seat_list("tricks_won", f"tricks won this deal / {unit or tricks}", scale=tricks)


def net_field(scale: float, unit: str) -> SeatField:
    """Chips won in the session: 0.5 + net / scale, clipped to [0, 1]; the view shows the chips.

    ``unit`` spells ``scale`` in the docs table ("(2 x 64 Pinkes)").
    """
    doc = f"chips won in the session, 0.5 + net / {unit}, clipped to [0, 1]"
    return seat_list("net", doc, "scores", scale=scale, offset=0.5)


def relative(marked: int | None, seat: int, n: int) -> int | None:
    """``marked``'s seat relative to ``seat`` (0 = herself), None for nobody."""
    return None if marked is None else (marked - seat) % n


def leader(state: Any) -> int:
    """Who leads the current trick (or led it, once cards are on the table)."""
    return state.trick[0][0] if state.trick else state.leader


def leader_in_play(play_phase: Enum) -> Getter:
    """The leader while ``play_phase`` lasts, nobody before (the pot games)."""
    return lambda s: leader(s) if s.phase is play_phase else None


def play_leader(play_phase: Enum) -> SeatField:
    """The leader marker of the pot and auction games: set only while ``play_phase`` lasts."""
    return marker("leader", LEADER_DOC, leader_in_play(play_phase))


def play_markers(play_phase: Enum) -> list[SeatField]:
    """leader (while ``play_phase`` lasts), to_act, dealer: how the pot and auction games' blocks begin."""
    return [play_leader(play_phase), TO_ACT, DEALER]


def bid_field(name: str, doc: str, bid: Enum) -> SeatField:
    """1 for the players whose bid this deal is ``bid`` (the view lists the bids by name instead)."""
    return SeatField(name, doc, lambda s: [b is bid for b in s.bids], view=None, reads=("bids",))


def playing_field(doc: str, n: int) -> SeatField:
    """1 for the players who play this deal (``state.active(seat)``: a function of the bids); the view shows bids."""
    return SeatField("playing", doc, lambda s: [s.active(seat) for seat in range(n)], view=None, reads=("bids",))


LEADER = marker("leader", LEADER_DOC, leader)
TO_ACT = marker("to_act", TO_ACT_DOC, "to_act")
DEALER = marker("dealer", DEALER_DOC, "dealer")


def attributes(names: Sequence[str]) -> Callable[[Any], tuple]:
    """The attributes ``names`` of an object as a tuple, in one call (``attrgetter`` of one name gives no tuple):
    what the encoders read of the state, read at once."""
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return attrgetter(*names) if names else (lambda obj: ())


def _block_inputs(numeric: Sequence[SeatField]) -> tuple[Callable[[Any], tuple], list[list[int]]]:
    """What the numeric fields' values are a function of: the per-seat lists they read (the state's own, once
    each), then the values of each field that declares no ``reads``; and for each of those inputs, the indices
    (in ``numeric``) of the fields that depend on it."""
    names = list(dict.fromkeys(name for f in numeric for name in f.reads))
    unread = [i for i, f in enumerate(numeric) if not f.reads]
    readers = [[i for i, f in enumerate(numeric) if name in f.reads] for name in names] + [[i] for i in unread]
    lists = attributes(names)
    if not unread:
        return lists, readers
    gets = [numeric[i].get for i in unread]
    return (lambda state: (*lists(state), *(get(state) for get in gets))), readers


class FieldRows:
    """One numeric field of a :class:`SeatBlock`: its scaled values in every observer's relative seat order
    (one row per observer), cached by the values of the block inputs it depends on (``reads``: their indices):
    a change costs a lookup, not a call of ``get`` (at Tippen ``playing`` asks every seat)."""

    def __init__(self, field: SeatField, start: int, n: int, clip_at_zero: bool, reads: list[int]) -> None:
        self.get, self.start, self.stop = field.get, start, start + n
        self.reads = reads
        """The block inputs it reads (indices): its cache key is that input's values, or a tuple of theirs."""
        self.scale, self.offset, self.clip_at_zero = float(field.scale), float(field.offset), clip_at_zero
        self.order = np.array([[(seat + r) % n for r in range(n)] for seat in range(n)], dtype=np.intp)
        self.cache: dict[tuple, np.ndarray] = {}

    def made(self, state: Any, key: tuple) -> np.ndarray:
        """The rows for ``key`` (the field's inputs' values, not cached yet) from ``get(state)``, cached."""
        if len(self.cache) >= SeatBlock.CACHE_LIMIT:
            self.cache.clear()
        # n numbers: Python floats (divided, not multiplied: x / scale), capped by comparisons (min and max
        # are builtin calls), rounded to float32 once by numpy
        scale, offset, low = self.scale, self.offset, 0.0 if self.clip_at_zero else -np.inf
        scaled = []
        for value in self.get(state):
            x = offset + value / scale
            scaled.append(1.0 if x > 1.0 else low if x < low else x)
        rows = self.cache[key] = np.array(scaled, dtype=OBS_DTYPE)[self.order]
        return rows


class SeatBlock:
    """The per-seat fields of one game at one table size, laid end to end in the vector.

    Markers (who leads, who acts, the dealer...) are written one element each, the attribute markers read in
    one call, each element found in a table by observer and marked seat. The numeric
    fields change far more rarely than whose turn it is (a trick won, a fold, a knock), and a
    move changes one or two of them, so the block keeps every observer's current block (one
    row per observer seat, in her relative seat order) and, when the lists the fields read
    have changed since the last observation, rewrites in place only the columns of the fields that read a
    changed list, each from its :class:`FieldRows` cache. An observation then costs one comparison
    of those lists, one row copy and a few scalar writes, nearly the same at 3 and at 8 players.
    (A cache of whole blocks keyed by every input, as before, missed at about half the changes at Toepen,
    where lives carry over at random, and a miss cost more than rewriting the stale fields: 50,000
    instructions against 10,000.)
    """

    per_seat = True
    CACHE_LIMIT = 4096
    """Distinct values of each field kept (cleared when full)."""

    def __init__(self, fields: Sequence[SeatField], n: int) -> None:
        self.fields, self.n = tuple(fields), n
        self.size = len(self.fields) * n
        numeric = [(row, f) for row, f in enumerate(self.fields) if not f.marker]
        self._attr_markers = [(row, f.attr) for row, f in enumerate(self.fields) if f.marker and f.attr]
        self._computed_markers = [(row, f.get) for row, f in enumerate(self.fields) if f.marker and not f.attr]
        self._inputs, self._readers = _block_inputs([f for _, f in numeric])
        clip_at_zero = any(f.offset for _, f in numeric)  # only offset fields (net results) go below 0
        self._numeric = [FieldRows(f, row * n, n, clip_at_zero, [i for i, fs in enumerate(self._readers) if k in fs])
                         for k, (row, f) in enumerate(numeric)]
        self._last_lists: list[list | None] = [None] * len(self._readers)
        """The inputs ``_current`` was written from (copies: the state's lists change in place)."""
        self._keys: list[tuple | None] = [None] * len(self._readers)
        """The same as tuples: the fields' cache keys (made once per change, shared by the fields of an input)."""
        self._last_inputs: tuple | None = None
        """``_last_lists`` as a tuple, what ``inputs(state)`` is compared with at every observation."""
        self._current = np.zeros((n, self.size), dtype=OBS_DTYPE)
        """Each observer seat's block as of ``_last_inputs`` (one row per observer), markers 0; updated in place."""
        self._make_views()
        self._viewed = [(f.view_key, f.get, f.marker) for f in self.fields if f.view_key is not None]

    def _make_views(self) -> None:
        """Views of ``_current``, made once (they follow its updates): each observer seat's row (a memoryview)
        as ``_rows``, each numeric field's columns as ``_columns``."""
        self._rows = [memoryview(row) for row in self._current]
        self._columns = [self._current[:, field.start:field.stop] for field in self._numeric]
        self._refresh = self._refresher()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and deep-copied without the views (a memoryview does not pickle, and a pickled numpy view
        comes back as a copy that no longer follows ``_current``); :meth:`__setstate__` makes them again."""
        state = self.__dict__.copy()
        del state["_rows"], state["_columns"], state["_refresh"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._make_views()

    # ---------------------------------------------------- as a part of an Observation
    def layout_fields(self, n: int, pack: Any) -> list[Field]:
        return [Field(f.name, self.n, f.doc) for f in self.fields]

    def writer(self, at: dict[str, int], n: int, index: dict[int, int]) -> Callable:
        """Every field of the block into ``out`` at the block's place, in the observer's relative seat order."""
        start = at[self.fields[0].name]
        constants = {"inputs": self._inputs, "block": self, "attrs": attributes([a for _, a in self._attr_markers])}
        body = ["now = inputs(state)",
                "if now != block._last_inputs:  # most moves change none of the lists (compared, not hashed)",
                "    block._refresh(state, now)",
                # the rows read here, not bound: a copy of the block makes its own views
                f"out[{start}:{start + self.size}] = block._rows[seat]"]
        if self._attr_markers:
            body.append(f"{''.join(f'm{k}, ' for k in range(len(self._attr_markers)))}= attrs(state)")
        for k, (row, _) in enumerate(self._attr_markers):
            constants[f"slots{k}"] = [self._marker_slots(start, row, seat) for seat in range(n)]
            body += [f"if m{k} is not None:", f"    out[slots{k}[seat][m{k}]] = 1.0"]
        for k, (row, get) in enumerate(self._computed_markers):
            constants[f"marks{k}"], constants[f"get{k}"] = [self._marker_slots(start, row, s) for s in range(n)], get
            body += [f"c{k} = get{k}(state)", f"if c{k} is not None:", f"    out[marks{k}[seat][c{k}]] = 1.0"]
        return compiled("seat block", body, constants)

    def _marker_slots(self, start: int, row: int, seat: int) -> list[int]:
        """Where the marker in ``row`` (of a block at ``start``) marks each absolute seat, for observer ``seat``."""
        n = self.n
        return [start + row * n + (marked - seat) % n for marked in range(n)]

    def viewer(self, n: int) -> Callable:
        view = self.view
        return lambda game, state, seat, into: view(state, seat, into)

    def _refresher(self) -> Callable[[Any, tuple], None]:
        """``_refresh(state, inputs)``: bring ``_current`` to ``inputs``, the columns of the fields that read a
        changed input rewritten in place from their rows (cached by the inputs' values); only the changed
        inputs are copied. Written out (``straight_line``): one test per input, one block per field."""
        body = ["last, keys = block._last_lists, block._keys"]
        for i in range(len(self._readers)):
            body += [f"changed{i} = inputs[{i}] != last[{i}]", f"if changed{i}:",
                     f"    last[{i}] = now = list(inputs[{i}])", f"    keys[{i}] = tuple(now)"]
        constants: dict[str, Any] = {"block": self}
        for f, field in enumerate(self._numeric):
            reads = field.reads
            key = f"keys[{reads[0]}]" if len(reads) == 1 else f"({''.join(f'keys[{i}], ' for i in reads)})"
            constants[f"field{f}"], constants[f"columns{f}"] = field, self._columns[f]
            body += [f"if {' or '.join(f'changed{i}' for i in reads)}:", f"    key = {key}",
                     f"    rows = field{f}.cache.get(key)",
                     f"    columns{f}[...] = field{f}.made(state, key) if rows is None else rows"]
        body.append("block._last_inputs = tuple(last)")
        return compiled("seat block refresh", body, constants, args=("state", "inputs"))

    def view(self, state: Any, seat: int, into: dict[str, Any]) -> None:
        """The viewed fields into ``into``: relative seats for markers, raw values in relative order."""
        n = self.n
        order = [(seat + r) % n for r in range(n)]
        for key, get, is_marker in self._viewed:
            value = get(state)
            if is_marker:
                into[key] = relative(value, seat, n)
            else:
                into[key] = [value[s] for s in order]
