"""Card-play features: what a card player reads off the table before each card, given to the network.

A trick-taking player asks of every card in her hand: is it a trump, would it win the trick as it
stands, and is it the highest card of its suit still out. An MLP reading one-hot cards gets none of
these for free: each is an AND over several input blocks (the hand, the trump one-hot, the led card,
the cards played), which the first layer cannot express and deeper layers learn slowly. The general
agents lost card play to the scripted players, who compute exactly these (docs/results.md, "Where the
losses start"), so the general space (rams_env/core/general.py) appends them, one block per kind, a
slot per card as in the space's card fields:

- ``trump_in_hand``: the card is in the observer's hand and a trump (permanent top trumps included);
- ``wins_trick``: in hand, cards are on the table, and played now it would win the trick as it stands
  (the highest trump, else the highest card of the led suit: :meth:`TrickOrder.beats`);
- ``highest_left``: in hand, and no card of its suit (its effective suit: top trumps are trumps) ranks
  higher among the cards that may still be played against it: the pack less the observer's hand, the
  cards played and on the table, and her own discards. Cards seen elsewhere but still live (a trump
  card taken up by another player) count as live: the feature errs toward "not the highest".

They are functions of the general observation alone (the fields ``hand``, ``trick``, ``played``,
``leader``, ``trump`` and ``own_discards``, as the observer sees them) and of the table's public rules,
so they reveal nothing the observation does not. Before the trump is known (a trump one-hot of zeros in
a game that has one) every feature is zero. Numpy, vectorised over a batch of rows: the trainer, the
agents and RLlib build them through :meth:`Table.obs <rams_env.core.general.Table.obs>`, which computes the
same features in one compiled pass a row where numba is installed (rams_env/core/general_kernel.py, tested
equal to this module on any rows and against the same oracle).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rams_env.core.cards import card
from rams_env.core.tricks import NO_TRUMP, TrickOrder

KINDS = ("trump_in_hand", "wins_trick", "highest_left")
"""The feature blocks, in layout order."""
LED, TRUMPED = 10_000, 20_000
"""Score offsets that put any trump above any card of the led suit above any other card (powers are < 10,000)."""
FEW_ROWS = 4
"""Fewer rows than this are computed one by one (:func:`write`)."""
NEEDED = ("hand", "trick", "played", "leader")
"""Fields a game's layout must have for the features (every game here has them)."""


class CardFeatureLayout:
    """Where the features read (the general space's field starts) and write (after the table features)."""

    def __init__(self, fields: dict, cards: Sequence[str], start: int) -> None:
        missing = [name for name in NEEDED if name not in fields]
        if missing:
            raise ValueError(f"card-play features need the fields {missing}")
        self.cards, self.start = len(cards), start
        self.codes = tuple(cards)
        self.hand, self.trick = fields["hand"].start, fields["trick"].start
        self.played, self.leader = fields["played"].start, fields["leader"].start
        self.trump = fields["trump"].start if "trump" in fields else None
        self.trump_slots = fields["trump"].units if "trump" in fields else 0
        self.discards = fields["own_discards"].start if "own_discards" in fields else None
        self.names = [f"{kind}:{c}" for kind in KINDS for c in cards]
        self.size = len(self.names)


class TableOrders:
    """One table's public card strengths over the space's card slots, one row per trump slot."""

    def __init__(self, layout: CardFeatureLayout, orders: Sequence[TrickOrder], pack: Sequence[str],
                 num_players: int) -> None:
        self.seats = num_players
        """The table's seats: the per-seat blocks past them are zero, so they are not read."""
        if not orders:
            raise ValueError("a table without trick orders has no card-play features")
        if layout.trump_slots and len(orders) != layout.trump_slots:
            raise ValueError(f"{len(orders)} trick orders for a trump one-hot of {layout.trump_slots}")
        ids = [card(c) for c in layout.codes]
        self.orders, self.ids = tuple(orders), ids
        """The orders themselves and each card slot's card id: the one-row path asks them directly."""
        self.suit = np.array([[o.suit[i] for i in ids] for o in orders], dtype=np.int32)
        """(orders, cards) effective suit of each card slot."""
        self.power = np.array([[o.power[i] for i in ids] for o in orders], dtype=np.int32)
        self.trump = np.array([o.trump_suit_id for o in orders], dtype=np.int32)
        """(orders,) the effective suit of trumps (NO_TRUMP: none)."""
        assert self.power.max() < LED, "card powers must stay below the score offsets"
        in_pack = set(pack)
        self.pack = np.array([c in in_pack for c in layout.codes])
        self.pack_slots = np.flatnonzero(self.pack).tolist()
        """The card slots of this table's pack, as a list (the one-row path walks them)."""
        self.suit_runs = [SuitRuns(self.suit[i]) for i in range(len(orders))]
        """Per order, its cards grouped by effective suit: a suit's highest live card in one reduction."""
        self.same_suits = all(np.array_equal(self.suit[0], s) for s in self.suit)
        """Whether every order has the same effective suits (no permanent trumps: every game but Mauscheln's
        Belli and Weli), so one grouping serves all the rows."""


def write(layout: CardFeatureLayout, orders: TableOrders, obs: np.ndarray) -> None:
    """Fill ``obs[:, layout.start:]`` ((rows, general) float32, the rest already written) with the features.

    A batch is computed vectorised (about 2 us a row at 2,304 rows); a few rows, as an agent at a table asks
    for, one by one from their non-zero entries with the trick order's own methods (about 20 us a row, where
    the vectorised path's fixed cost is 60 us). tests/test_card_features.py checks both against an oracle."""
    if len(obs) < FEW_ROWS:
        for row in obs:
            _write_row(layout, orders, row)
        return
    rows, n = np.arange(len(obs)), layout.cards
    hand = obs[:, layout.hand:layout.hand + n] > 0
    on_table = _any_seat(layout, obs, layout.trick, orders.seats)
    played = _any_seat(layout, obs, layout.played, orders.seats)
    known, order = _trump_order(layout, obs)
    suit, power, trump = _per_row(orders, order)
    is_trump = (suit == trump) & (trump != NO_TRUMP)
    led_suit, has_led = _led_suit(layout, obs, suit, rows, orders.seats)
    # any trump above any card of the led suit above any other card; the led card is on the table, so the
    # best score there is at least LED and a card of neither suit (score = its power) never beats it
    score = power + LED * (suit == led_suit[:, None]) + TRUMPED * is_trump
    best = (score * on_table).max(axis=1)
    live = orders.pack & ~hand & ~on_table & ~played
    if layout.discards is not None:
        live &= ~(obs[:, layout.discards:layout.discards + n] > 0)
    mine = hand & known[:, None]
    out = obs[:, layout.start:layout.start + layout.size].reshape(len(obs), len(KINDS), n)
    out[:, 0] = mine & is_trump
    out[:, 1] = mine & has_led[:, None] & (score > best[:, None])
    out[:, 2] = mine & (power > _highest_live(np.where(live, power, -1), order, orders))


def _write_row(layout: CardFeatureLayout, orders: TableOrders, row: np.ndarray) -> None:
    """One observation's features, from its cards: the trick order's ``beats`` and strengths, no array maths."""
    n = layout.cards
    hand = np.flatnonzero(row[layout.hand:layout.hand + n]).tolist()
    if not hand:
        return
    if layout.trump is None:
        order = orders.orders[0]
    elif row[layout.trump:layout.trump + layout.trump_slots].any():
        order = orders.orders[int(row[layout.trump:layout.trump + layout.trump_slots].argmax())]
    else:
        return  # the trump is not known yet
    ids, suit, power = orders.ids, order.suit, order.power
    on_table = np.flatnonzero(row[layout.trick:layout.trick + orders.seats * n])
    gone = set((on_table % n).tolist())
    gone.update((np.flatnonzero(row[layout.played:layout.played + orders.seats * n]) % n).tolist())
    if layout.discards is not None:
        gone.update(np.flatnonzero(row[layout.discards:layout.discards + n]).tolist())
    highest: dict[int, int] = {}  # effective suit -> highest power of a live card
    for slot in orders.pack_slots:
        if slot not in gone and slot not in hand:
            s = suit[ids[slot]]
            highest[s] = max(highest.get(s, -1), power[ids[slot]])
    winner, led = _trick_winner(layout, order, ids, row, on_table, orders.seats)
    out = row[layout.start:layout.start + layout.size]
    for slot in hand:
        c = ids[slot]
        out[slot] = order.is_trump(c)
        out[n + slot] = winner is not None and order.beats(c, winner, led)
        out[2 * n + slot] = power[c] > highest.get(suit[c], -1)


def _trick_winner(layout: CardFeatureLayout, order: TrickOrder, ids: list[int], row: np.ndarray,
                  on_table: np.ndarray, seats: int) -> tuple[int | None, int]:
    """(the card winning the trick as it stands, the led suit); (None, -1) before a card is led. The obs gives
    each seat's card, not the order of play, but only the led card's place matters: the leader's."""
    leader = row[layout.leader:layout.leader + seats]
    if not len(on_table) or not leader.any():
        return None, -1
    by_seat = {int(i) // layout.cards: ids[int(i) % layout.cards] for i in on_table}
    led_card = by_seat.get(int(leader.argmax()))
    if led_card is None:
        return None, -1
    led, winner = order.suit[led_card], led_card
    for c in by_seat.values():
        if order.beats(c, winner, led):
            winner = c
    return winner, led


def _any_seat(layout: CardFeatureLayout, obs: np.ndarray, start: int, seats: int) -> np.ndarray:
    """(rows, cards) whether any of the table's ``seats`` blocks of the per-seat card field at ``start`` holds the
    card (a sum of the blocks: several times faster than a reduction over a (rows, seats, cards) view)."""
    n = layout.cards
    total = obs[:, start:start + n].copy()
    for seat in range(1, seats):
        total += obs[:, start + seat * n:start + (seat + 1) * n]
    return total > 0


def _trump_order(layout: CardFeatureLayout, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(known, order row) per observation: the trump one-hot's slot, or the game's one order without one."""
    if layout.trump is None:
        return np.ones(len(obs), bool), np.zeros(len(obs), np.int64)
    onehot = obs[:, layout.trump:layout.trump + layout.trump_slots]
    return onehot.any(axis=1), onehot.argmax(axis=1)


def _per_row(orders: TableOrders, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(suit, power, trump suit (rows, 1)) of each row's order: the one order's rows broadcast when all rows
    share it (a game without a trump field), no gather."""
    if len(orders.orders) == 1:
        return orders.suit[:1], orders.power[:1], orders.trump[:1, None]
    return orders.suit[order], orders.power[order], orders.trump[order][:, None]


def _led_suit(layout: CardFeatureLayout, obs: np.ndarray, suit: np.ndarray, rows: np.ndarray,
              seats: int) -> tuple[np.ndarray, np.ndarray]:
    """(led suit, a card led) per observation: the leader's card on the table (-1 and False before it)."""
    n = layout.cards
    leader = obs[:, layout.leader:layout.leader + seats]
    trick = obs[:, layout.trick:layout.trick + seats * n].reshape(len(obs), seats, n)
    led_row = np.take_along_axis(trick, leader.argmax(axis=1)[:, None, None], axis=1)[:, 0]
    has_led = (leader.max(axis=1) > 0) & (led_row.max(axis=1) > 0)
    suits = np.broadcast_to(suit, led_row.shape)  # one order's row for every observation, or each row's own
    return np.where(has_led, suits[rows, led_row.argmax(axis=1)], -1), has_led


def _highest_live(live_power: np.ndarray, order: np.ndarray, orders: TableOrders) -> np.ndarray:
    """(rows, cards) the highest power of a live card in each card's effective suit (-1: none), each row under
    its own order; ``live_power``: the power of each live card, -1 elsewhere."""
    if orders.same_suits:
        return orders.suit_runs[0].highest(live_power)
    out = np.empty_like(live_power)
    for t in np.unique(order):
        at = order == t
        out[at] = orders.suit_runs[t].highest(live_power[at])
    return out


class SuitRuns:
    """An order's card slots sorted by effective suit, so a suit's maximum is one ``maximum.reduceat`` (numpy
    only: a matrix product would call a BLAS that may start threads of its own)."""

    def __init__(self, suit: np.ndarray) -> None:
        self.by_suit = np.argsort(suit, kind="stable")
        sorted_suits = suit[self.by_suit]
        self.starts = np.flatnonzero(np.r_[True, sorted_suits[1:] != sorted_suits[:-1]])
        self.run_of = np.searchsorted(np.unique(sorted_suits), suit)
        """Each card slot's run (its suit's place among the suits present)."""

    def highest(self, values: np.ndarray) -> np.ndarray:
        """(rows, cards) the maximum of ``values`` over each card's suit."""
        return np.maximum.reduceat(values[:, self.by_suit], self.starts, axis=1)[:, self.run_of]
