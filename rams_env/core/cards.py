"""Cards, packs and rank orders: the one card format used everywhere in rams.

A card is a small int (``suit * 13 + rank``) so that hands, tricks and observation
encoders can index flat tables. Its code string is rank then suit letter: ``"7c"``,
``"10h"``, ``"Qd"``, ``"As"``. German-suited packs map Acorns -> c, Leaves -> s,
Hearts -> h, Bells -> d; Ober -> Q, Unter -> J, Sow/Daus -> A; the Weli is ``6d``.

Each game picks a :class:`Pack` (the cards in play, in a fixed canonical order that
also fixes action and observation layouts) and a :class:`RankOrder` (high to low).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

SUITS: tuple[str, ...] = ("c", "s", "h", "d")
"""Suit letters in canonical order: clubs/acorns, spades/leaves, hearts, diamonds/bells."""

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Every rank any pack of the suite uses, lowest face value first."""

SUIT_NAMES = {"c": "clubs", "s": "spades", "h": "hearts", "d": "diamonds"}
SUIT_SYMBOLS = {"c": "♣", "s": "♠", "h": "♥", "d": "♦"}
NUM_CARD_CODES = len(SUITS) * len(RANKS)


class CardError(ValueError):
    """A card code or a set of cards that does not fit the pack."""


def card(code: str) -> int:
    """Parse a card code such as ``"10h"`` into its int id."""
    if not isinstance(code, str) or len(code) < 2:
        raise CardError(f"not a card code: {code!r} (expected rank then suit, e.g. '10h')")
    rank, suit = code[:-1], code[-1]
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"not a card code: {code!r} (ranks {' '.join(RANKS)}, suits {' '.join(SUITS)})")
    return SUITS.index(suit) * len(RANKS) + RANKS.index(rank)


CODES: tuple[str, ...] = tuple(RANKS[i % len(RANKS)] + SUITS[i // len(RANKS)] for i in range(NUM_CARD_CODES))
"""Every card id's code string, built once: a scripted player's view shows dozens of codes at every decision."""


def code(card_id: int) -> str:
    """The code string of a card id."""
    return CODES[card_id]


def suit_of(card_id: int) -> int:
    """Printed suit index (0..3) of a card; trick rules may give a card another suit."""
    return card_id // len(RANKS)


def rank_of(card_id: int) -> str:
    """Printed rank string of a card."""
    return RANKS[card_id % len(RANKS)]


def cards(codes: str | Iterable[str]) -> list[int]:
    """Parse several codes: ``cards("Ac 10h 7d")`` or ``cards(["Ac", "10h"])``."""
    if isinstance(codes, str):
        codes = codes.split()
    return [card(c) for c in codes]


def codes(card_ids: Iterable[int]) -> str:
    """Codes of several cards, space separated (for messages and rendering)."""
    return " ".join([CODES[c] for c in card_ids])


def code_list(card_ids: Iterable[int]) -> list[str]:
    """Codes of several cards, as a list (what a view shows)."""
    return [CODES[c] for c in card_ids]


@dataclass(frozen=True)
class RankOrder:
    """Ranks of a game from highest to lowest, e.g. Toepen's ``10 9 8 7 A K Q J``."""

    high_to_low: tuple[str, ...]
    power: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = [r for r in self.high_to_low if r not in RANKS]
        if unknown or len(set(self.high_to_low)) != len(self.high_to_low):
            raise CardError(f"bad rank order {self.high_to_low}: unknown or repeated ranks")
        n = len(self.high_to_low)
        object.__setattr__(self, "power", {r: n - i for i, r in enumerate(self.high_to_low)})

    @classmethod
    def parse(cls, text: str) -> RankOrder:
        return cls(tuple(text.split()))

    def strength(self, card_id: int) -> int:
        """Higher is stronger within a suit; 0 for a rank the order does not list."""
        return self.power.get(rank_of(card_id), 0)


@dataclass(frozen=True)
class Pack:
    """The cards of a game in canonical order (suits c s h d, ranks low to high).

    The canonical order fixes the ids of card actions and observation slots, so it
    never depends on a rank order or a trump suit.
    """

    name: str
    cards: tuple[int, ...]
    index: dict[int, int] = field(init=False, repr=False, compare=False)
    array: np.ndarray = field(init=False, repr=False, compare=False)
    """The cards as an array, for :meth:`shuffled`."""

    def __post_init__(self) -> None:
        if len(set(self.cards)) != len(self.cards):
            raise CardError(f"pack {self.name} repeats a card")
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))
        object.__setattr__(self, "index", {c: i for i, c in enumerate(self.cards)})
        object.__setattr__(self, "array", np.array(self.cards, dtype=np.int64))

    def shuffled(self, rng: np.random.Generator) -> list[int]:
        """The cards in the order of one ``rng.permutation`` draw, as a new list (one numpy call, not one per card)."""
        return self.array[rng.permutation(len(self.cards))].tolist()

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(code(c) for c in self.cards)

    def check(self, card_ids: Iterable[int], what: str = "cards") -> None:
        """Raise a :class:`CardError` naming any card that is not in this pack."""
        foreign = [code(c) for c in card_ids if c not in self.index]
        if foreign:
            raise CardError(f"{what}: {' '.join(foreign)} not in the {self.name} pack")

    def parse(self, codes_: str | Iterable[str]) -> list[int]:
        """Parse codes and check they belong to this pack."""
        ids = cards(codes_)
        self.check(ids)
        return ids


def make_pack(name: str, ranks: str, suits: str = "c s h d", extra: str = "") -> Pack:
    """A pack of every listed rank in every listed suit, plus extra cards."""
    ids = [card(r + s) for s in suits.split() for r in ranks.split()]
    return Pack(name, tuple(ids + cards(extra)))


PIQUET_32 = make_pack("32-card", "7 8 9 10 J Q K A")
"""The Piquet/Skat pack of 32 cards (German-suited packs map onto it)."""
LUPFEN_20 = make_pack("20-card", "10 J Q K A")
"""Lupfen's pack: Sow, 10, King, Ober, Unter of four suits."""
WELI_33 = make_pack("33-card", "7 8 9 10 J Q K A", extra="6d")
"""The 32-card pack with the Weli (6 of bells) as 33rd card."""
FULL_52 = make_pack("52-card", "2 3 4 5 6 7 8 9 10 J Q K A")
"""The whist pack, for tables too large for 32 cards."""
PRISDORF_25 = make_pack("25-card (7d)", "7 8 9 10 J Q K A", suits="c s h", extra="7d")
"""Prisdorf Fipsen: 32 cards without diamonds but the 7."""
MECKLENBURG_25 = make_pack("25-card (Ad)", "7 8 9 10 J Q K A", suits="c s h", extra="Ad")
"""Mecklenburg Fips: 32 cards without diamonds but the ace (the Rutenas)."""

NATURAL_ORDER = RankOrder.parse("A K Q J 10 9 8 7 6 5 4 3 2")
"""Aces high, the order of Tippen, Mauscheln, Fipsen (and of 52-card extensions)."""


def check_disjoint(groups: Sequence[Sequence[int]], what: str = "deal") -> None:
    """Raise if any card appears twice across the groups (a hand, the stock...)."""
    seen: set[int] = set()
    for group in groups:
        for c in group:
            if c in seen:
                raise CardError(f"{what}: card {code(c)} appears twice")
            seen.add(c)
