"""A table's general observations in one compiled pass per row (numba), where numba is installed.

:meth:`Table.obs <rams_env.core.general.Table.obs>` builds a general observation in numpy: it zeroes the
rows, copies the native fields into their padded places (general.py's strided runs), writes the table's
features, and computes the card-play features (card_features.py) with some thirty array operations. At the
batched trainer's 48 rows a table that costs about 300 us a call, three times what the engine's own step
takes, and a sixth of a general Toepen iteration in cProfile: each operation's fixed cost, not the arithmetic
(docs/results.md, "The general observations in one compiled pass").

Here the same numbers come from one loop over the rows: zero, copy the runs, write the features, and then
the card-play features as card_features.py defines them, read from the row just written. Every value is
the numpy path's bit for bit (copies, constants, and 0/1 features from the same comparisons);
tests/test_card_features.py checks both paths against the oracle at every table, and tests/test_general.py
checks that they are equal. Without numba (the ``vector`` extra) general.py keeps the numpy path.
"""

from __future__ import annotations

import numpy as np

from rams_env.core.card_features import LED, TRUMPED, CardFeatureLayout, TableOrders
from rams_env.core.tricks import NO_TRUMP

try:
    from numba import njit
except ImportError:  # the vector extra is not installed: general.py's numpy path
    njit = None

ABSENT = -1
"""A field start for a field the layout does not have (``trump``, ``own_discards``)."""


class CompiledTable:
    """One table's constants as the kernel reads them: the native runs, the table's features, the card-play
    layout and the table's trick orders."""

    def __init__(self, runs, features: np.ndarray, features_at: int, layout: CardFeatureLayout,
                 orders: TableOrders) -> None:
        self.runs = np.array([(r.to, r.stride, r.count, r.at, r.length) for r in runs], np.int64).reshape(-1, 5)
        self.features, self.features_at = np.asarray(features, np.float32), int(features_at)
        self.fields = np.array([layout.cards, layout.start, layout.hand, layout.trick, layout.played,
                                layout.leader, _at(layout.trump), layout.trump_slots, _at(layout.discards),
                                orders.seats], np.int64)
        self.suit, self.power = orders.suit.astype(np.int64), orders.power.astype(np.int64)
        self.trump, self.pack = orders.trump.astype(np.int64), orders.pack.copy()
        assert self.suit.min() >= 0, "effective suits index the kernel's per-suit maxima"

    def obs(self, native: np.ndarray, out: np.ndarray) -> None:
        """``out`` ((rows, general) float32, C-contiguous) filled from ``native`` ((rows, native))."""
        _general_rows(native, out, self.runs, self.features, self.features_at, self.fields, self.suit,
                      self.power, self.trump, self.pack)


def _at(start: int | None) -> int:
    return ABSENT if start is None else int(start)


def _general_rows(native, out, runs, features, features_at, fields, suit, power, trump, pack):
    """Each row of ``out``: zeros, the native runs, the table's features, the card-play features."""
    cards = fields[0]
    highest, score = np.empty(int(suit.max()) + 1, np.int64), np.empty(cards, np.int64)
    on_table, seen = np.empty(cards, np.float32), np.empty(cards, np.float32)
    for i in range(native.shape[0]):
        row, source = out[i], native[i]
        row[:] = 0
        for r in range(runs.shape[0]):
            to, stride, count, at, length = runs[r, 0], runs[r, 1], runs[r, 2], runs[r, 3], runs[r, 4]
            for block in range(count):
                into, start = to + block * stride, at + block * length
                for j in range(length):
                    row[into + j] = source[start + j]
        for k in range(features.shape[0]):
            row[features_at + k] = features[k]
        _card_features(row, fields, suit, power, trump, pack, highest, score, on_table, seen)


def _card_features(row, fields, suit, power, trump, pack, highest, score, on_table, seen):
    """card_features.write for one row: per card in hand, a trump; would win the trick as it stands; the
    highest live card of its effective suit. ``highest``, ``score``, ``on_table``, ``seen``: scratch arrays.
    A loop per quantity over the cards, the seats' blocks added in whole rows: one loop doing it all ran three
    times slower (its branches on which cards are in hand or gone are random from row to row)."""
    n, start, hand, trick, played, leader = fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]
    trump_at, trump_slots, discards, seats = fields[6], fields[7], fields[8], fields[9]
    order = 0
    if trump_at != ABSENT:
        known = False
        for t in range(trump_slots):
            known |= row[trump_at + t] != 0
        if not known:  # the trump is not known yet: every feature zero
            return
        if suit.shape[0] > 1:
            order = _first_max(row, trump_at, trump_slots)
    led_seat = _first_max(row, leader, seats)
    led_card = _first_max(row, trick + led_seat * n, n)
    has_led = (row[leader + led_seat] > 0) & (row[trick + led_seat * n + led_card] > 0)
    led_suit = suit[order, led_card] if has_led else -1
    trumps = trump[order]
    _seat_sums(row, trick, n, seats, on_table)  # float32, in seat order, as card_features._any_seat adds them
    _seat_sums(row, played, n, seats, seen)
    best = 0
    for c in range(n):
        s = suit[order, c]
        score[c] = power[order, c] + LED * (s == led_suit) + TRUMPED * ((s == trumps) & (trumps != NO_TRUMP))
        counted = score[c] if on_table[c] > 0 else 0  # numpy's (score * on_table).max(): off the table counts 0
        best = counted if c == 0 else max(best, counted)
    highest[:] = -1
    for c in range(n):
        gone = (on_table[c] > 0) | (seen[c] > 0) | (row[hand + c] > 0)
        if discards != ABSENT:
            gone |= row[discards + c] > 0
        if pack[c] and not gone and power[order, c] > highest[suit[order, c]]:
            highest[suit[order, c]] = power[order, c]
    for c in range(n):
        s, mine = suit[order, c], row[hand + c] > 0
        row[start + c] = mine & (s == trumps) & (trumps != NO_TRUMP)
        row[start + n + c] = mine & has_led & (score[c] > best)
        row[start + 2 * n + c] = mine & (power[order, c] > highest[s])


def _seat_sums(row, at, n, seats, out):
    """``out[c]``: card ``c``'s values summed over the ``seats`` blocks of a per-seat card field at ``at``."""
    for c in range(n):
        out[c] = row[at + c]
    for seat in range(1, seats):
        for c in range(n):
            out[c] += row[at + seat * n + c]


def _first_max(row, at, length):
    """The place of the first largest of ``row[at:at + length]`` (numpy's argmax)."""
    place = 0
    for j in range(1, length):
        if row[at + j] > row[at + place]:
            place = j
    return place


if njit is not None:
    _first_max, _seat_sums, _card_features = (njit(inline="always")(f) for f in (_first_max, _seat_sums,
                                                                                _card_features))
    _general_rows = njit(cache=True, nogil=True)(_general_rows)
