"""Fipsen hand values: expected tricks per trump suit, the chance to make a contract, its expected points.

Pure functions of public knowledge (own cards, cards gone, the variant's pack and ladder). The
per-card chances come from the shared :mod:`agents.heuristics.trumpplay` estimate; this module adds
what Fipsen needs on top: trump guards (the king behind one's own ace is as good as the ace), the
value of picking up a skat or Dutt, and each contract's payoff (doubling for the preference suit,
Hand, Ruten, Durch; Prisdorf's double loss).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agents.heuristics.trumpplay import (
    HandEstimate,
    TrumpTable,
    card_chances,
    from_chances,
    mean_chance,
)
from rams_env.core.cards import NATURAL_ORDER, SUITS
from rams_env.games.fipsen import auction, settle
from rams_env.games.fipsen.contracts import Contract, Talon, Trumps
from rams_env.games.fipsen.state import HAND_SIZE as HAND

TALON_DRAW = {Talon.NONE: 0, Talon.SKAT: 2, Talon.KIEKER: 5, Talon.DUTT: 5, Talon.KIEKER_ALL: 5}
"""Cards of a pick-up that can replace a weak hand card (a Grossenaspe Kieker replaces the whole hand)."""


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about where the cards it cannot see may lie."""

    unseen: tuple[str, ...]  # cards that may be in an opponent's hand (or out of play, unknown)
    opponents: int  # hands that play against this seat
    hand_size: int  # cards in each opposing hand


def table_for(trump: str) -> TrumpTable:
    """The card order of a deal with ``trump`` (Fipsen has no permanent trumps)."""
    return TrumpTable.make(NATURAL_ORDER, trump)


def trump_choices(game) -> list[str]:
    """Suits a declarer may name, by the engine's rule (Mecklenburg keeps diamonds for its Ruten bids)."""
    return [SUITS[s] for s in auction.trump_choices(game)]


def chances(trump: str, hand: Sequence[str], know: Knowledge, ruff_weight: float = 1.0) -> dict[str, float]:
    """Each card's chance of a trick; a trump below ``i`` of one's own higher trumps is guarded
    against ``i`` of the unseen higher ones (A K: the king is a winner, K Q: the queen is)."""
    table = table_for(trump)
    out = card_chances(table, hand, know.unseen, know.opponents, know.hand_size, ruff_weight)
    trumps = sorted((c for c in hand if table.is_trump(c)), key=table.power, reverse=True)
    if trumps:
        f = min(1.0, know.opponents * know.hand_size / max(len(know.unseen), 1))
        for i, c in enumerate(trumps):
            out[c] = (1.0 - f) ** max(0, table.higher_unseen(c, know.unseen) - i)
    return out


def estimate(trump: str, hand: Sequence[str], know: Knowledge, ruff_weight: float = 1.0) -> HandEstimate:
    return _estimate(trump, tuple(hand), know, ruff_weight)


@lru_cache(maxsize=1024)
def _estimate(trump: str, hand: tuple[str, ...], know: Knowledge, ruff_weight: float) -> HandEstimate:
    """Cached: an auction decision judges every contract on the ladder, and each asks again for the same
    hand under the same trumps (the estimate is a pure function of its arguments; callers copy before
    changing it, as :func:`with_pickup` does)."""
    return from_chances(chances(trump, hand, know, ruff_weight))


@lru_cache(maxsize=1024)
def talon_card_chance(trump: str, know: Knowledge) -> float:
    """Mean chance of a card picked up from the talon under ``trump`` (cached, as :func:`_estimate`)."""
    return mean_chance(table_for(trump), know.unseen, know.opponents, know.hand_size)


def with_pickup(est: HandEstimate, draw: int, replacement: float) -> HandEstimate:
    """The hand once ``draw`` unknown cards (each worth ``replacement`` on average) may replace the
    weakest cards; the best of several draws is worth more than their mean, the rest less."""
    chances = dict(est.chances)
    weak = sorted(chances, key=chances.get)
    for j, c in enumerate(weak[:draw]):
        value = min(1.0, replacement * (1.5 - 0.25 * j))  # best draw first: 1.5x, 1.25x, 1x, ...
        chances[c] = max(chances[c], value)
    return from_chances(chances)


def best_keep(trump: str, cards: Sequence[str], know: Knowledge, ruff_weight: float = 1.0) -> list[str]:
    """The five cards to keep for ``trump``: the highest chances (taking the most likely winners
    raises every ``P(tricks >= k)`` at once, the chances being treated as independent)."""
    ch = chances(trump, cards, know, ruff_weight)
    table = table_for(trump)
    ranked = sorted(cards, key=lambda c: (ch[c], table.is_trump(c), table.power(c), c), reverse=True)
    return ranked[:HAND]


@dataclass(frozen=True)
class Outlook:
    """A contract judged for one trump suit: the chance to make it and the expected points."""

    trump: str | None
    make: float
    ev: float


def payoff(game, contract: Contract, trump: str | None, est: HandEstimate) -> Outlook:
    """Expected points of declaring ``contract`` with the trick distribution ``est``."""
    spec = game.spec
    value = settle.contract_points(game, contract, None if trump is None else SUITS.index(trump))
    make = 1.0 - est.p_fewer(contract.tricks)
    slam = est.dist[HAND] if len(est.dist) > HAND else 0.0
    loss = value * (2 if spec.durch_doubles else 1)
    bonus = value * slam if spec.durch_doubles else 0.0  # Prisdorf: every trick taken doubles (a Five too)
    return Outlook(trump, make, make * value - (1.0 - make) * loss + bonus)


def contract_trumps(game, contract: Contract) -> list[str]:
    if contract.trumps is Trumps.PREFERENCE:
        return [game.spec.preference]
    return trump_choices(game)


def judge_bid(game, contract: Contract, hand: Sequence[str], know: Knowledge, talon_scale: float,
              kieker_value: float, ruff_weight: float = 1.0) -> Outlook:
    """The best outlook of bidding ``contract`` now, before any pick-up (best trump suit)."""
    if contract.needs == "siebener":
        return Outlook(None, 1.0, float(contract.value))  # wins at once, without play
    if contract.talon is Talon.KIEKER_ALL:  # the dealt hand goes, only the pick-up counts; conceding caps
        return Outlook(None, 1.0, kieker_value)  # the loss, so the chance to make it is not the question
    best = Outlook(None, 0.0, float("-inf"))
    draw = TALON_DRAW[contract.talon]
    for trump in contract_trumps(game, contract):
        est = estimate(trump, hand, know, ruff_weight)
        if draw:
            replacement = talon_scale * talon_card_chance(trump, know)
            est = with_pickup(est, draw, replacement)
        out = payoff(game, contract, trump, est)
        if out.ev > best.ev:
            best = out
    return best


def judge_hand(game, contract: Contract, hand: Sequence[str], know: Knowledge,
               ruff_weight: float = 1.0) -> tuple[Outlook, list[str]]:
    """After a pick-up: the best trump suit and the five cards to keep for it."""
    best, keep = Outlook(None, 0.0, float("-inf")), list(hand)[:HAND]
    for trump in contract_trumps(game, contract):
        kept = best_keep(trump, hand, know, ruff_weight)
        out = payoff(game, contract, trump, estimate(trump, kept, know, ruff_weight))
        if out.ev > best.ev:
            best, keep = out, kept
    return best, keep
