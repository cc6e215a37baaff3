"""Numba helpers every batched game shares: card sets as uint64 bitmasks, seat queues, a per-deal RNG.

Cards are pack indices (the position in ``Pack.cards``, which is also the card's play-action
offset and observation slot), so a hand is one ``uint64`` whatever the pack (20 to 52 cards).
Seat queues mirror the reference engine's lists of seats still to decide: a row of seats per
deal, a head and a length. The RNG is splitmix64 with one state per deal, so a deal's cards
depend only on the seed and on that deal's own history, never on the batch around it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[(((1 << _i) * int(_DEBRUIJN)) % 2**64) >> 58] = _i


# ------------------------------------------------------------------ card sets
@njit(cache=True)
def bit(index):
    return ONE << np.uint64(index)


@njit(cache=True)
def lowest(cards):
    """Pack index of the lowest card of a non-empty set."""
    low = cards & (~cards + ONE)
    return _DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True)
def count(cards):
    """Number of cards in a set (SWAR popcount)."""
    x = cards - ((cards >> ONE) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def put_cards(row, base, cards):
    """One-hot the cards of a set into ``row[base + pack index]``."""
    while cards:
        row[base + lowest(cards)] = 1.0
        cards &= cards - ONE


# ---------------------------------------------------------------- seat queues
MAIN, CHALLENGERS, RESPONDERS = range(3)
"""Queue rows of a deal record (``queues``, ``queue_head``, ``queue_len``): the reference's
``queue`` (dirty hands, announcements, knock window), ``challengers`` and ``responders``."""


@njit(cache=True)
def q_clear(r, q):
    r.queue_head[q] = 0
    r.queue_len[q] = 0


@njit(cache=True)
def q_push(r, q, seat):
    r.queues[q, r.queue_len[q]] = seat
    r.queue_len[q] += 1


@njit(cache=True)
def q_empty(r, q):
    return r.queue_head[q] >= r.queue_len[q]


@njit(cache=True)
def q_front(r, q):
    return r.queues[q, r.queue_head[q]]


@njit(cache=True)
def q_pop(r, q):
    r.queue_head[q] += 1


@njit(cache=True)
def ask_front(r, q):
    """The seat at the front of queue ``q`` decides (``to_act``); False when the queue is empty (the flow goes on)."""
    if q_empty(r, q):
        return False
    r.to_act = q_front(r, q)
    return True


@njit(cache=True)
def pass_on(r, q):
    """The seat at the front of queue ``q`` has decided: the next one decides, or (False) the queue is done."""
    q_pop(r, q)
    return ask_front(r, q)


@njit(cache=True)
def lay_aside(r, seat, card):
    """``card`` leaves ``seat``'s hand face down (a discard, a card exchanged)."""
    r.hands[seat] &= ~bit(card)
    r.face_down[seat] |= bit(card)


# ------------------------------------------------------------------ randomness
@njit(cache=True)
def next_u64(r):
    """splitmix64: the next 64 random bits of the deal record ``r``'s own stream (``r.rng``)."""
    z = r.rng + np.uint64(0x9E3779B97F4A7C15)
    r.rng = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def uniform(r, k):
    """A whole number in [0, k) (multiply-shift; bias below 2**-25 for k < 128)."""
    return np.int64(((next_u64(r) >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))


@njit(cache=True)
def shuffle_identity(r):
    """``r.order`` := a uniformly random permutation of the pack indices (Fisher-Yates)."""
    size = r.order.shape[0]
    for i in range(size):
        r.order[i] = i
    for i in range(size - 1, 0, -1):
        j = uniform(r, i + 1)
        r.order[i], r.order[j] = r.order[j], r.order[i]


@njit(cache=True)
def next_order(r):
    """``r.order`` := the deal queued from outside (``pending_order``, no longer ``pending``), else a shuffle."""
    if r.pending:
        r.order[:] = r.pending_order[:]
        r.pending = False
    else:
        shuffle_identity(r)


@njit(cache=True)
def draw(r, seat, at, cards):
    """``cards`` cards from ``r.order[at:]`` into ``seat``'s hand; returns where the next card lies."""
    for i in range(at, at + cards):
        r.hands[seat] |= bit(r.order[i])
    return at + cards


@njit(cache=True)
def sample_legal(r, mask_row):
    """A uniformly random legal action id of one mask row, from the deal's stream."""
    legal = 0
    for a in range(mask_row.shape[0]):
        legal += mask_row[a]
    pick = uniform(r, legal)
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True)
def sample_all(deals, mask, actions):
    """``actions[b]`` := a uniformly random legal action of deal ``b`` (every game's ``sample_actions``)."""
    for b in range(deals.shape[0]):
        actions[b] = sample_legal(deals[b], mask[b])


@njit(cache=True)
def count_illegal(actions, mask, flags):
    """``flags[b]``: 0 legal, 1 out of range, 2 masked out; returns how many are not legal."""
    bad = 0
    for b in range(actions.shape[0]):
        a = actions[b]
        flags[b] = 1 if a < 0 or a >= mask.shape[1] else (0 if mask[b, a] else 2)
        bad += flags[b] != 0
    return bad


def seed_streams(seed: int | None, num_envs: int) -> np.ndarray:
    """Independent per-deal generator states from one seed (None: fresh entropy)."""
    return np.random.SeedSequence(seed).generate_state(num_envs, np.uint64)

