"""One observation and action space for every table size and preset of a game (general agents).

A native observation's length depends on the table size (per-seat fields) and the preset (the pack,
optional fields), its action ids on the preset; so a network trained on one table plays no other.
:class:`GeneralSpace` lays out one vector and one action list that hold every table of a game,
computed from the reference games' own layouts (``game.observation.fields``, ``game.actions.labels``)
over every preset and every table size the rules allow, so nothing is declared twice:

- **Fields.** Every field at its largest size, in the order of the largest table's layout; a field
  only some tables have is there, zero elsewhere. A *per-seat* field (its size a multiple of the
  table size in every table that has it: the trick, the cards played, the seat block) is padded
  seat block by seat block: relative seat ``r`` keeps block ``r``, the seats a smaller table lacks stay
  zero. A *card* field (a block the size of the table's pack) is aligned by card code over every pack
  the game uses, so the same card is the same input whatever the pack, as it is the same action.
- **Features** after the fields: the table size (one-hot over the sizes the game allows) and the rules
  in effect (rams_env/core/general_rules.py), so one network can tell its tables apart; then the
  card-play features (rams_env/core/card_features.py: per card in hand, trump, winning the trick as it
  stands, highest of its suit still out), computed from the fields.
- **Actions.** The union of every table's labels: the default preset's ids first (unchanged), the
  others' new labels after, in preset order.

:meth:`GeneralSpace.table` gives the :class:`Table` of one game (size, rules): index arrays that map its
observations and masks into the general space with one numpy scatter, and general actions back.
Numpy, and where numba is installed (the ``vector`` extra) the observations in one compiled pass a row
(general_kernel.py, the same numbers): the trainer, the agents and the tests share it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from rams_env.core.card_features import CardFeatureLayout, TableOrders
from rams_env.core.card_features import write as write_card_features
from rams_env.core.game import Game
from rams_env.core.general_kernel import CompiledTable, njit
from rams_env.core.general_rules import RuleFeatures
from rams_env.core.observation import OBS_DTYPE
from rams_env.core.rules import RulesError
from rams_env.registry import game_class, make_game


def preset_tables(game_name: str) -> list[tuple[str, Game]]:
    """``(preset, reference game)`` for every preset (default first) and table size its rules allow, sizes
    ascending: the one list of a game's tables (the batched trainer's ``tables: all`` reads it too)."""
    cls = game_class(game_name)
    tables = []
    for preset in cls.rules_type.preset_names():
        lo, hi = make_game(game_name, preset=preset).player_range()
        for n in range(lo, hi + 1):
            try:
                tables.append((preset, make_game(game_name, n, preset=preset)))
            except RulesError:  # a size the preset's other rules refuse
                continue
    return tables


def reference_tables(game_name: str) -> list[Game]:
    """A reference game for every preset (default first) and table size its rules allow."""
    return [game for _, game in preset_tables(game_name)]


@dataclass(frozen=True)
class FieldPlan:
    """Where one native field goes: ``seats`` blocks of ``units`` slots from ``start`` (``seats`` is 1 unless
    the field is per-seat); a card field's slots are the space's cards, by code."""

    name: str
    start: int
    seats: int
    units: int
    per_seat: bool
    cards: bool

    @property
    def size(self) -> int:
        return self.seats * self.units


def _field_order(tables: list[Game]) -> list[str]:
    """The largest table's field order, then fields it lacks in order of first appearance."""
    largest = max(tables, key=lambda g: g.observation.size)
    names = [f.name for f in largest.observation.fields]
    for g in tables:
        names += [f.name for f in g.observation.fields if f.name not in names]
    return names


def _plan_fields(tables: list[Game], max_players: int, num_cards: int) -> dict[str, FieldPlan]:
    """Each field's place: per-seat if a multiple of the table size everywhere, cards if its block is
    always the table's pack, at its largest size."""
    seen: dict[str, list[tuple[int, int, int]]] = {}
    for g in tables:
        for f in g.observation.fields:
            seen.setdefault(f.name, []).append((f.size, g.num_players, len(g.pack())))
    plans, start = {}, 0
    for name in _field_order(tables):
        per_seat = all(size % n == 0 for size, n, _ in seen[name])
        blocks = [(size // n if per_seat else size, pack) for size, n, pack in seen[name]]
        cards = all(block == pack for block, pack in blocks)
        units = num_cards if cards else max(block for block, _ in blocks)
        plan = FieldPlan(name, start, max_players if per_seat else 1, units, per_seat, cards)
        plans[name] = plan
        start += plan.size
    return plans


class GeneralSpace:
    """The observation and action space of every table of one game (see the module docstring)."""

    def __init__(self, game_name: str) -> None:
        self.game_name = game_name
        tables = reference_tables(game_name)
        self.sizes = tuple(sorted({g.num_players for g in tables}))
        """The table sizes any preset allows: the table-size one-hot's slots."""
        self.cards = tuple(dict.fromkeys(c for g in sorted(tables, key=lambda g: -len(g.pack()))
                                         for c in g.pack().codes))
        """Every card code of every pack, the largest pack's order first: a card field's slots."""
        self._card_slot = {c: i for i, c in enumerate(self.cards)}
        self.fields = _plan_fields(tables, self.sizes[-1], len(self.cards))
        self.padded_size = sum(p.size for p in self.fields.values())
        self.rules = RuleFeatures(type(tables[0].rules), [g.rules for g in tables])
        self.table_feature_names = [f"players={n}" for n in self.sizes] + self.rules.names
        """The table's features: its size and the rules in effect (constant over a table's deals)."""
        features_end = self.padded_size + len(self.table_feature_names)
        self.card_features = CardFeatureLayout(self.fields, self.cards, features_end)
        """The card-play features after them (rams_env/core/card_features.py), computed from each observation."""
        self.feature_names = self.table_feature_names + self.card_features.names
        self.obs_size = self.padded_size + len(self.feature_names)
        self.labels = tuple(dict.fromkeys(label for g in tables for label in g.actions.labels))
        """Every table's action labels, the default preset's first (its ids unchanged)."""
        self._action_id = {label: i for i, label in enumerate(self.labels)}
        self.num_actions = len(self.labels)
        self._tables: dict[tuple[int, Any], Table] = {}

    def table(self, game: Game) -> Table:
        """The mapping of ``game``'s table (its size and rules) into this space, built once per table."""
        if game.name != self.game_name:
            raise ValueError(f"a {game.name} table does not fit the general space of {self.game_name}")
        key = (game.num_players, game.rules)
        if key not in self._tables:
            self._tables[key] = Table(self, game)
        return self._tables[key]

    def features(self, game: Game) -> np.ndarray:
        """The table size one-hot and the rules' numbers of ``game``."""
        if game.num_players not in self.sizes:
            raise ValueError(f"{self.game_name} at {game.num_players} players: the general space holds "
                             f"{', '.join(map(str, self.sizes))}")
        size = np.array([n == game.num_players for n in self.sizes], dtype=OBS_DTYPE)
        return np.concatenate([size, self.rules.encode(game.rules)])

    def obs_index(self, game: Game) -> np.ndarray:
        """Where each native observation float of ``game`` goes in the general vector."""
        n, codes = game.num_players, game.pack().codes
        parts = []
        for f in game.observation.fields:
            plan = self.fields.get(f.name)
            if plan is None:
                raise ValueError(f"{self.game_name}: observation field {f.name!r} is in no preset's layout")
            seats = n if plan.per_seat else 1
            block = f.size // seats
            if plan.cards and block == len(codes):
                within = np.array([self._card_slot[c] for c in codes])
            elif not plan.cards and f.size % seats == 0 and block <= plan.units:
                within = np.arange(block)
            else:
                raise ValueError(f"{self.game_name}: observation field {f.name!r} of size {f.size} at {n} players "
                                 f"does not fit the general space's ({plan.size})")
            parts.append((plan.start + plan.units * np.arange(seats)[:, None] + within).ravel())
        return np.concatenate(parts).astype(np.int64)

    def action_index(self, game: Game) -> np.ndarray:
        """The general id of each of ``game``'s actions."""
        unknown = [label for label in game.actions.labels if label not in self._action_id]
        if unknown:
            raise ValueError(f"{self.game_name}: actions {unknown[:3]} are in no preset's action space")
        return np.array([self._action_id[label] for label in game.actions.labels], dtype=np.int64)


class Table:
    """One table's mapping into its game's :class:`GeneralSpace` (build it with ``space.table(game)``)."""

    def __init__(self, space: GeneralSpace, game: Game) -> None:
        self.num_players, self.rules = game.num_players, game.rules
        self.obs_index = space.obs_index(game)
        """(native obs size,) int64: where each native float goes in the general vector."""
        self.features = space.features(game)
        """(k,) float32: the table size and rules in effect, at ``general[padded_size:padded_size + k]``."""
        self.card_features = space.card_features
        self.orders = TableOrders(space.card_features, game.trick_orders, game.pack().codes, game.num_players)
        """This table's card strengths per trump, which the card-play features read."""
        self.action_of_native = space.action_index(game)
        """(native A,) int64: the general id of each native action."""
        self.native_of_action = np.full(space.num_actions, -1, dtype=np.int64)
        """(general A,) int64: the native id of each general action, -1 where this table has none."""
        self.native_of_action[self.action_of_native] = np.arange(len(self.action_of_native))
        self.obs_size, self.num_actions, self._padded = space.obs_size, space.num_actions, space.padded_size
        self._copies = strided_runs(self.obs_index)
        self.compiled = None if njit is None else CompiledTable(self._copies, self.features, self._padded,
                                                                 self.card_features, self.orders)
        """The same observations in one compiled pass a row (general_kernel.py), where numba is installed."""

    def scatter(self, native: np.ndarray, out: np.ndarray) -> None:
        """``out[..., obs_index] = native`` as a few strided block copies (:func:`strided_runs`): per 1024 rows
        3 to 12 times faster than numpy's fancy-index scatter at Toepen 3 and 8 players and Mauscheln 10, as fast
        at Tippen 4 (a 32-card pack in 52-card slots: runs of 8) (benchmarks/general_mapping.py)."""
        for run in self._copies:
            run.target(out)[...] = run.source(native)

    def obs(self, native: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """(..., native) observations as (..., general) float32: ``obs_index``'s scatter, then the table's
        features and the card-play features computed from the scattered fields.

        ``out`` (optional, (..., general) float32) is zeroed and filled in place, so a buffer of any table of
        the space can be reused. With numba, one compiled pass a row does it all (general_kernel.py: the same
        numbers, 2.5 to 6.6 times faster at the trainer's 48 rows a table, benchmarks/general_mapping.py); a
        strided ``out`` takes numpy's path."""
        native = np.asarray(native)
        if self.compiled is not None and (out is None or out.flags.c_contiguous):
            out = _checked_out(native, len(self.obs_index), "observation", self.obs_size, OBS_DTYPE, out)
            self.compiled.obs(native.reshape(-1, native.shape[-1]), out.reshape(-1, self.obs_size))
            return out
        out = _zeroed_out(native, len(self.obs_index), "observation", self.obs_size, OBS_DTYPE, out)
        self.scatter(native, out)
        out[..., self._padded:self._padded + len(self.features)] = self.features
        rows = out.reshape(-1, self.obs_size)
        write_card_features(self.card_features, self.orders, rows)
        if not np.may_share_memory(rows, out):  # an ``out`` that is not contiguous: reshape copied it
            out[...] = rows.reshape(out.shape)
        return out

    def mask(self, native: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """(..., native A) legal-action masks as (..., general A) bool (False for actions this table lacks)."""
        native = np.asarray(native)
        out = _zeroed_out(native, len(self.action_of_native), "mask", self.num_actions, np.dtype(bool), out)
        out[..., self.action_of_native] = native
        return out

    def native_actions(self, general: np.ndarray | int) -> np.ndarray:
        """General action ids as this table's ids (an id this table does not have is an error)."""
        general = np.asarray(general)
        if general.size and (general.min() < 0 or general.max() >= self.num_actions):
            raise ValueError(f"general action ids must lie in 0..{self.num_actions - 1}")
        native = self.native_of_action[general]
        if (native < 0).any():
            raise ValueError(f"general actions {np.unique(general[native < 0]).tolist()} are not actions of this table")
        return native


@dataclass(frozen=True)
class StridedRun:
    """``count`` runs of ``length`` consecutive slots, ``stride`` apart from general slot ``to`` on; their values
    are ``count * length`` consecutive native floats from ``at`` (a per-seat field: one run per seat)."""

    to: int
    stride: int
    count: int
    at: int
    length: int

    def target(self, out: np.ndarray) -> np.ndarray:
        """The runs in ``out`` as a (..., count, length) view."""
        base, step = out[..., self.to:], out.strides[-1]
        shape, strides = (self.count, self.length), (self.stride * step, step)
        return as_strided(base, base.shape[:-1] + shape, base.strides[:-1] + strides)

    def source(self, native: np.ndarray) -> np.ndarray:
        return native[..., self.at:self.at + self.count * self.length].reshape(
            native.shape[:-1] + (self.count, self.length))


def strided_runs(index: np.ndarray) -> list[StridedRun]:
    """``index`` (increasing within each field) as its runs of consecutive values, the runs of one length
    that follow at a constant stride merged into one :class:`StridedRun` (the padded seat blocks)."""
    if not len(index):
        return []
    breaks = np.flatnonzero(np.diff(index) != 1) + 1
    out: list[StridedRun] = []
    for a, b in zip(np.r_[0, breaks], np.r_[breaks, len(index)], strict=True):
        to, length = int(index[a]), int(b - a)
        last = out[-1] if out else None
        if last is not None and last.length == length and to > last.to and (
                last.count == 1 or to == last.to + last.count * last.stride):
            out[-1] = replace(last, stride=to - last.to if last.count == 1 else last.stride, count=last.count + 1)
        else:
            out.append(StridedRun(to, length, 1, int(a), length))
    return out


def _zeroed_out(native: np.ndarray, length: int, what: str, width: int, dtype: Any,
                out: np.ndarray | None) -> np.ndarray:
    """A zeroed (..., width) array of ``dtype`` for a (..., length) native batch: ``out`` checked and cleared,
    or a new one."""
    out = _checked_out(native, length, what, width, dtype, out)
    out[...] = 0
    return out


def _checked_out(native: np.ndarray, length: int, what: str, width: int, dtype: Any,
                 out: np.ndarray | None) -> np.ndarray:
    """A (..., width) array of ``dtype`` for a (..., length) native batch, its values unset: ``out`` checked, or a
    new one."""
    if native.shape[-1] != length:
        raise ValueError(f"{what} of length {native.shape[-1]}, this table's is {length}")
    shape = native.shape[:-1] + (width,)
    if out is None:
        return np.empty(shape, dtype=dtype)
    if out.shape != shape or out.dtype != dtype:
        raise ValueError(f"out must be {np.dtype(dtype)} of shape {shape}, got {out.dtype} {out.shape}")
    return out
