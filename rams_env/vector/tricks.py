"""The trick, compiled: the numba mirror of :mod:`rams_env.core.tricks` for every batched game.

Cards are pack indices and hands ``uint64`` bitmasks (:mod:`rams_env.vector.bits`). Everything
a game's trick depends on is data taken from the reference :class:`~rams_env.core.tricks.TrickOrder`
(the effective suit and strength of every card, with the trump suit and permanent top trumps
such as Belli, Weli or the Rutenas already placed) and :class:`~rams_env.core.tricks.PlayRules`
(follow, trump when void, overtrump, head, lead a trump), so no rank order is restated here.

``order_tables(orders, pack)`` turns the reference orders of a game (one per trump suit, or a
single one) into a structured array; a kernel picks a deal's order as ``tables[trump]`` (a
record passed by pointer) and calls :func:`legal_plays` and :func:`winning_index` on it.
``rule_flags(rules, lead)`` packs the play rules into one int for the kernels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from rams_env.core.cards import Pack
from rams_env.core.tricks import NO_TRUMP, Lead, PlayRules, TrickOrder
from rams_env.vector.bits import ONE, bit, lowest

NUM_SUIT_IDS = TrickOrder.TRUMP + 1
"""Effective suit ids: the printed suits and the virtual trump suit of permanent trumps alone."""

FOLLOW, TRUMP_WHEN_VOID, OVERTRUMP, HEAD, LEAD_TRUMP = (1 << i for i in range(5))
"""Bits of :func:`rule_flags`: the :class:`PlayRules` fields and ``Lead.TRUMP_IF_ABLE``."""

NO_CARD = -1
"""``led`` of an empty trick in :func:`legal_against`."""


def rule_flags(rules: PlayRules, lead: Lead = Lead.ANY) -> int:
    """The play rules as one int of :data:`FOLLOW` ... :data:`LEAD_TRUMP` bits."""
    return ((FOLLOW if rules.follow else 0) | (TRUMP_WHEN_VOID if rules.trump_when_void else 0)
            | (OVERTRUMP if rules.overtrump else 0) | (HEAD if rules.head else 0)
            | (LEAD_TRUMP if lead is Lead.TRUMP_IF_ABLE else 0))


def order_tables(orders: Sequence[TrickOrder], pack: Pack) -> np.ndarray:
    """One record per reference order, indexed like ``orders`` (e.g. by trump suit).

    ``suit[i]``/``power[i]``: effective suit id and strength of pack index ``i`` (the reference's
    ``order.suit``/``order.power`` of ``pack.cards[i]``); ``suit_masks[s]``: the pack indices of
    effective suit ``s`` as a bitmask; ``trump``: the effective trump suit id or ``NO_TRUMP``.
    """
    size = len(pack)
    if size > 64:
        raise ValueError(f"a {size}-card pack does not fit a uint64 hand")
    dtype = np.dtype([("suit", np.int64, size), ("power", np.int64, size),
                      ("suit_masks", np.uint64, NUM_SUIT_IDS), ("trump", np.int64)])
    tables = np.zeros(len(orders), dtype)
    for row, order in zip(tables, orders, strict=True):
        row["suit"] = [order.suit[c] for c in pack.cards]
        row["power"] = [order.power[c] for c in pack.cards]
        row["suit_masks"] = [sum(1 << i for i, c in enumerate(pack.cards) if order.suit[c] == s)
                             for s in range(NUM_SUIT_IDS)]
        row["trump"] = order.trump_suit_id
    return tables


# ------------------------------------------------------------------ the winner
@njit(cache=True)
def is_trump(o, card):
    return o.trump != NO_TRUMP and o.suit[card] == o.trump


@njit(cache=True)
def trumps_in(o, cards):
    """The trumps of a card set."""
    return o.suit_masks[o.trump] & cards if o.trump != NO_TRUMP else np.uint64(0)


@njit(cache=True)
def beats(o, challenger, holder, led):
    """Whether ``challenger`` beats the currently winning ``holder`` in a trick led in suit ``led``."""
    s_c, s_h = o.suit[challenger], o.suit[holder]
    if s_c == s_h:
        return o.power[challenger] > o.power[holder]
    if o.trump != NO_TRUMP and s_c == o.trump:
        return True
    if s_h == o.trump or s_h == led:
        return False
    return s_c == led


@njit(cache=True)
def winning_index(o, cards, count):
    """Index (in play order) of the card winning the trick ``cards[:count]``; the first was led."""
    led = o.suit[cards[0]]
    best = 0
    for i in range(1, count):
        if beats(o, cards[i], cards[best], led):
            best = i
    return best


# ------------------------------------------------------------- legal plays
@njit(cache=True)
def beating(o, candidates, winner, led):
    """The candidates that beat ``winner``, or all of them when none can."""
    out = np.uint64(0)
    rest = candidates
    while rest:
        c = lowest(rest)
        if beats(o, c, winner, led):
            out |= bit(c)
        rest &= rest - ONE
    return out if out else candidates


@njit(cache=True)
def legal_against(o, hand, led, winner, flags):
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (:data:`NO_CARD`:
    an empty trick) and won so far by card ``winner``, under :func:`rule_flags` ``flags``."""
    if led == NO_CARD:
        if flags & LEAD_TRUMP:
            trumps = trumps_in(o, hand)
            return trumps if trumps else hand
        return hand
    head = flags & HEAD
    if flags & FOLLOW:
        followers = hand & o.suit_masks[led]
        if followers:
            return beating(o, followers, winner, led) if head else followers
    if flags & TRUMP_WHEN_VOID:
        trumps = trumps_in(o, hand)
        if trumps:
            if head or (flags & OVERTRUMP and is_trump(o, winner)):
                return beating(o, trumps, winner, led)
            return trumps
    if head:
        return beating(o, hand, winner, led)
    return hand


@njit(cache=True)
def legal_plays(o, hand, cards, count, flags):
    """The cards of ``hand`` that may be played to the trick ``cards[:count]`` (led first)."""
    if count == 0:
        return legal_against(o, hand, NO_CARD, NO_CARD, flags)
    winner = cards[winning_index(o, cards, count)]
    return legal_against(o, hand, o.suit[cards[0]], winner, flags)
