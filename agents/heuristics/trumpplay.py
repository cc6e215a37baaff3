"""Card-play helpers shared by every trump game's heuristic (Tippen, Mauscheln, Lupfen, Fipsen).

Everything speaks card *codes* (``"10h"``), the format of every game's ``view``; the public
card order of a deal is a :class:`TrumpTable` built from the game's rank order, the trump
suit and any permanent top trumps (Belli, Weli, the Rutenas), so the trick logic is the
engine's own (:class:`rams_env.core.tricks.TrickOrder`), never a copy.

API (all pure functions of public information):

    table = TrumpTable.make(NATURAL_ORDER, trump="h", top_trumps=("7d",), top_trumps_below=1)
    table.is_trump(c), table.beats(c, trick), table.winner(trick), table.higher_unseen(c, unseen)
    unseen = unseen_cards(pack_codes, hand, gone)          # cards that may lie in other hands
    est = estimate_hand(table, hand, unseen, opponents, hand_size)
    est.tricks (expected tricks), est.p_blank (chance of no trick), est.dist, est.chances (per card)
    after_exchange(est, mean_chance(table, unseen, opponents, hand_size), max_cards)  # exchange value
    cheapest(table, cards), highest(table, cards)          # by cost: side cards before trumps, low first
    cheapest_winner(table, legal, trick)                   # None when no legal card wins the trick
    discard_order(table, hand)                             # weakest first: low side cards, trumps/aces last
    choose_card(table, legal, trick, unseen, after, style) # the whole follow / duck / trump / lead policy

``trick`` is the list of card codes played to the current trick, led first (the view's
``trick`` holds ``(seat, code)`` pairs: pass ``[c for _, c in view["trick"]]``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from agents.heuristics.base import Params
from rams_env.core.cards import SUITS, RankOrder, card, rank_of
from rams_env.core.tricks import NO_TRUMP, TrickOrder


@lru_cache(maxsize=4096)
def _id(code: str) -> int:
    return card(code)


class TrumpTable:
    """The public strength of every card in one deal (built once per deal and trump, cached)."""

    def __init__(self, order: TrickOrder) -> None:
        self.order = order

    @staticmethod
    @lru_cache(maxsize=256)
    def make(ranks: RankOrder, trump: str | None, top_trumps: tuple[str, ...] = (),
             top_trumps_below: int = 0) -> TrumpTable:
        """``trump`` is a suit letter or None (no trump suit; permanent top trumps then form their own)."""
        suit = NO_TRUMP if trump is None else SUITS.index(trump)
        return TrumpTable(TrickOrder(ranks, suit, [_id(c) for c in top_trumps], top_trumps_below))

    def suit(self, c: str) -> int:
        """Effective suit (a permanent top trump belongs to the trump suit)."""
        return self.order.suit[_id(c)]

    def power(self, c: str) -> int:
        return self.order.power[_id(c)]

    def is_trump(self, c: str) -> bool:
        return self.order.is_trump(_id(c))

    def cost(self, c: str) -> tuple[bool, int]:
        """What playing ``c`` gives up: any side card is cheaper than any trump, low before high."""
        return self.is_trump(c), self.power(c)

    def winner(self, trick: Sequence[str]) -> int:
        """Index of the card winning ``trick`` (led first)."""
        return self.order.winning_index([_id(c) for c in trick])

    def beats(self, c: str, trick: Sequence[str]) -> bool:
        """Whether playing ``c`` now would take the lead of ``trick`` (always True on the lead)."""
        if not trick:
            return True
        ids = [_id(x) for x in trick]
        holder = ids[self.order.winning_index(ids)]
        return self.order.beats(_id(c), holder, self.order.suit[ids[0]])

    def higher_unseen(self, c: str, unseen: Iterable[str]) -> int:
        """Unseen cards of ``c``'s effective suit that outrank it."""
        s, p = self.suit(c), self.power(c)
        return sum(1 for u in unseen if self.suit(u) == s and self.power(u) > p)

    def is_boss(self, c: str, unseen: Iterable[str]) -> bool:
        """No unseen card of its suit beats it (it can still be trumped when a side card)."""
        return self.higher_unseen(c, unseen) == 0


def unseen_cards(pack: Iterable[str], hand: Iterable[str], gone: Iterable[str] = ()) -> list[str]:
    """Cards of ``pack`` that may lie in another hand: not in ``hand`` and not ``gone``
    (played, own discards, a face-up card known to be out of play)."""
    out = set(hand) | set(gone)
    return [c for c in pack if c not in out]


def played_cards(view: dict) -> list[str]:
    """Every card played this deal, by anyone, including the current trick (view fields ``played``)."""
    return [c for seat in view.get("played", []) for c in seat]


@dataclass(frozen=True)
class HandEstimate:
    """How many tricks a hand should take: per-card chances, their sum, the distribution of tricks."""

    chances: dict[str, float] = field(default_factory=dict)
    tricks: float = 0.0
    dist: tuple[float, ...] = (1.0,)
    """``dist[k]``: chance of exactly k tricks (cards taken as independent)."""

    @property
    def p_blank(self) -> float:
        """Chance of no trick at all (what a bête is paid on)."""
        return self.dist[0]

    def p_fewer(self, k: int) -> float:
        """Chance of fewer than ``k`` tricks."""
        return sum(self.dist[:k])


def trick_distribution(chances: Iterable[float]) -> tuple[float, ...]:
    """Chance of exactly k successes of independent events (Poisson binomial)."""
    dist = [1.0]
    for p in chances:
        dist = [(dist[k] if k < len(dist) else 0.0) * (1 - p) + (dist[k - 1] * p if k else 0.0)
                for k in range(len(dist) + 1)]
    return tuple(dist)


def from_chances(chances: dict[str, float]) -> HandEstimate:
    return HandEstimate(chances, sum(chances.values()), trick_distribution(chances.values()))


def estimate_hand(table: TrumpTable, hand: Sequence[str], unseen: Sequence[str], opponents: float,
                  hand_size: int, ruff_weight: float = 1.0) -> HandEstimate:
    """Expected tricks of ``hand`` against ``opponents`` hands of ``hand_size`` unseen cards.

    A card wins when no opponent holds a higher card of its suit ((1 - f)^h, f the share of
    the unseen cards the opponents hold) and, for a side card, when nobody void in the suit
    trumps it. Crude but monotone: more trumps, higher cards and fewer opponents all help.
    ``opponents`` may be fractional (the expected number of players coming in). The estimate is
    optimistic (cards taken as independent, opponents as average hands): callers bid with a margin.
    """
    return from_chances(card_chances(table, hand, unseen, opponents, hand_size, ruff_weight))


def card_chances(table: TrumpTable, cards: Sequence[str], unseen: Sequence[str], opponents: float,
                 hand_size: int, ruff_weight: float = 1.0) -> dict[str, float]:
    """Each card's chance of taking a trick if held (see :func:`estimate_hand`)."""
    order = table.order
    pool = max(len(unseen), 1)
    f = min(1.0, opponents * hand_size / pool)
    per = min(1.0, hand_size / pool)  # one opponent's share of the unseen cards
    by_suit: dict[int, list[int]] = {}
    for u in unseen:
        by_suit.setdefault(order.suit[_id(u)], []).append(order.power[_id(u)])
    for powers in by_suit.values():
        powers.sort()
    trump_suit = order.trump_suit_id
    trumps_unseen = len(by_suit.get(trump_suit, ())) if trump_suit != NO_TRUMP else 0
    has_trump = 1.0 - (1.0 - per) ** trumps_unseen
    chances = {}
    for c in cards:
        cs, cp = order.suit[_id(c)], order.power[_id(c)]
        powers = by_suit.get(cs, [])
        chance = (1.0 - f) ** (len(powers) - bisect_right(powers, cp))
        if cs != trump_suit and trumps_unseen and opponents:
            void = (1.0 - per) ** len(powers)
            chance *= (1.0 - ruff_weight * void * has_trump) ** opponents
        chances[c] = chance
    return chances


def after_exchange(est: HandEstimate, replacement: float, max_cards: int, keep: Iterable[str] = ()) -> HandEstimate:
    """The estimate once up to ``max_cards`` cards weaker than ``replacement`` (the mean chance of a
    card drawn from the talon) are exchanged; ``keep`` cards are never exchanged."""
    kept = set(keep)
    weak = sorted((p, c) for c, p in est.chances.items() if p < replacement and c not in kept)[:max_cards]
    swapped = {c for _, c in weak}
    chances = {c: (replacement if c in swapped else p) for c, p in est.chances.items()}
    return from_chances(chances)


def mean_chance(table: TrumpTable, unseen: Sequence[str], opponents: float, hand_size: int) -> float:
    """Mean chance of an unseen card, were it drawn into the hand (what an exchange is worth)."""
    if not unseen:
        return 0.0
    chances = card_chances(table, unseen, unseen, opponents, hand_size)
    return sum(chances.values()) / len(chances)


def cheapest(table: TrumpTable, cards: Iterable[str]) -> str:
    """The card that costs least to give up (side cards before trumps, low before high)."""
    return min(cards, key=table.cost)


def highest(table: TrumpTable, cards: Iterable[str]) -> str:
    return max(cards, key=table.cost)


def cheapest_winner(table: TrumpTable, legal: Sequence[str], trick: Sequence[str]) -> str | None:
    """The cheapest legal card that takes the lead of ``trick``, or None when none can."""
    winners = [c for c in legal if table.beats(c, trick)]
    return cheapest(table, winners) if winners else None


def discard_order(table: TrumpTable, hand: Sequence[str], unseen: Sequence[str] = (),
                  keep_ranks: tuple[str, ...] = ("A",)) -> list[str]:
    """Hand cards weakest first, for exchanges: side cards that are not bosses (low first),
    then kept ranks (aces) and side bosses, then trumps (low first)."""
    def key(c: str) -> tuple[int, int]:
        if table.is_trump(c):
            return 2, table.power(c)
        keep = rank_of(_id(c)) in keep_ranks or (unseen and table.is_boss(c, unseen))
        return (1 if keep else 0), table.power(c)
    return sorted(hand, key=key)


@dataclass(frozen=True)
class PlayStyle:
    """Card-play choices a game heuristic may tune."""

    lead_trumps_from: int = 2
    """Lead the top trump when holding at least this many trumps and it is a boss (draw trumps)."""
    take_unsafe: bool = True
    """Not last to play: take the trick with a card that may still be overtaken (else duck)."""
    safe_chance: float = 1.0
    """Not last to play: a winner that holds the trick with at least this chance counts as safe (the
    cheapest safe winner is played). 1.0: only bosses; needs ``hand_size`` in :func:`choose_follow`."""


DEFAULT_STYLE = PlayStyle()


@dataclass(frozen=True)
class CardPlayParams(Params):
    """Parameters every pot-game heuristic shares: how many others come in, and how cards are played."""

    join_rate: float = 0.7
    """Expected share of the undecided players who will come in too (play, join, play along)."""
    lead_trumps_from: int = 2
    """Lead the top trump when holding at least this many trumps."""
    take_unsafe: bool = True
    """Take a trick with a card a later player may still beat (else duck)."""
    safe_chance: float = 1.0
    """Not last to play, take with the cheapest card that holds the trick with this chance (1.0: a boss)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.join_rate <= 1.0:
            raise ValueError(f"join_rate={self.join_rate}: a share between 0 and 1")
        if not 0.0 <= self.safe_chance <= 1.0:
            raise ValueError(f"safe_chance={self.safe_chance}: a chance between 0 and 1")
        if self.lead_trumps_from < 1:
            raise ValueError(f"lead_trumps_from={self.lead_trumps_from}: at least 1")

    @property
    def play_style(self) -> PlayStyle:
        return PlayStyle(self.lead_trumps_from, self.take_unsafe, self.safe_chance)


def choose_card(table: TrumpTable, legal: Sequence[str], trick: Sequence[str], unseen: Sequence[str],
                after: int, style: PlayStyle = DEFAULT_STYLE, hand_size: int | None = None) -> str:
    """The card to play: lead (empty ``trick``) or follow with ``after`` players still to play
    (each holding about ``hand_size`` cards, if given)."""
    if len(legal) == 1:
        return legal[0]
    if not trick:
        return choose_lead(table, legal, unseen, style)
    return choose_follow(table, legal, trick, unseen, after, style, hand_size)


def hold_chance(table: TrumpTable, c: str, unseen: Sequence[str], after: int, hand_size: int) -> float:
    """Chance that none of the ``after`` players still to play (``hand_size`` cards each) holds a card
    of ``c``'s suit above it (trumping by a void player is not counted)."""
    share = min(1.0, after * hand_size / max(len(unseen), 1))
    return (1.0 - share) ** table.higher_unseen(c, unseen)


def choose_follow(table: TrumpTable, legal: Sequence[str], trick: Sequence[str], unseen: Sequence[str],
                  after: int, style: PlayStyle = DEFAULT_STYLE, hand_size: int | None = None) -> str:
    """Win cheaply when it can (a safe winner if others still play), else duck with the cheapest card."""
    winners = [c for c in legal if table.beats(c, trick)]
    if not winners:
        return cheapest(table, legal)
    if after == 0:
        return cheapest(table, winners)
    if hand_size is not None and style.safe_chance < 1.0:
        safe = [c for c in winners if hold_chance(table, c, unseen, after, hand_size) >= style.safe_chance]
    else:
        safe = [c for c in winners if table.is_boss(c, unseen)]
    if safe:
        return cheapest(table, safe)
    return cheapest(table, winners) if style.take_unsafe else cheapest(table, legal)


def choose_lead(table: TrumpTable, legal: Sequence[str], unseen: Sequence[str],
                style: PlayStyle = DEFAULT_STYLE) -> str:
    """Lead trumps from strength, else a side boss, else the cheapest side card (keep trumps)."""
    trumps = [c for c in legal if table.is_trump(c)]
    bosses = [c for c in legal if table.is_boss(c, unseen)]
    trump_bosses = [c for c in bosses if table.is_trump(c)]
    trumps_out = any(table.is_trump(u) for u in unseen)
    if trump_bosses and trumps_out and len(trumps) >= style.lead_trumps_from:
        return highest(table, trump_bosses)
    side_bosses = [c for c in bosses if not table.is_trump(c)]
    if side_bosses:  # the boss of the longest unseen suit is the least likely to be trumped
        return max(side_bosses, key=lambda c: (sum(1 for u in unseen if table.suit(u) == table.suit(c)),
                                               table.power(c)))
    if trump_bosses:
        return highest(table, trump_bosses)
    return cheapest(table, legal)
