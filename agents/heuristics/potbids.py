"""What the pot games' heuristics (Tippen, Mauscheln, Lupfen) share around their bids.

In all three a player decides to come in against the players already in and those still to
decide, values a hand by its trick chances (after the exchange, where the rules have one),
exchanges its weak side cards, and plays a trick knowing how many active players follow. The
games differ in what a trick earns and what a bête costs: each heuristic asks its game's rules
(``rules.share_per_trick(pot)``, ``rules.bete_for(pot, tricks, ...)``, the functions the engine
settles with), never restating them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.heuristics.trumpplay import (
    CardPlayParams,
    HandEstimate,
    PlayStyle,
    TrumpTable,
    after_exchange,
    choose_card,
    discard_order,
    estimate_hand,
    mean_chance,
)

NO_BID = "none"
"""The view's bid of a player who has not decided yet."""


@dataclass(frozen=True)
class ExchangeParams(CardPlayParams):
    exchange_margin: float = -0.1
    """Exchange a side card (not an ace) whose trick chance is below the talon's mean minus this
    (negative: exchange a little more eagerly; self-play favoured -0.1 over 0 by about 0.3 chips a deal
    in Mauscheln, within the noise in Tippen)."""


def others_in(bids: Sequence[str], active_bids: Sequence[str]) -> tuple[int, int]:
    """(players already in, players still to decide) among the other seats (the view's seat 0 is ours)."""
    others = bids[1:]
    return sum(b in active_bids for b in others), sum(b == NO_BID for b in others)


def expected_opponents(active: int, undecided: int, join_rate: float) -> float:
    """The players expected to play against us: those in, plus ``join_rate`` of the undecided; at least one."""
    return max(active + join_rate * undecided, 1.0)


def expected_bete(est: HandEstimate, bete_for_tricks: Callable[[int], int]) -> float:
    """The bête a hand should pay on average: ``bete_for_tricks(k)`` (the engine's rule) weighted by the
    chance of taking exactly k tricks."""
    return sum(p * bete_for_tricks(k) for k, p in enumerate(est.dist))


def estimate_with_exchange(table: TrumpTable, hand: Sequence[str], unseen: Sequence[str], opponents: float,
                           hand_size: int, exchange_limit: int) -> HandEstimate:
    """The hand's trick chances, improved by exchanging up to ``exchange_limit`` side cards (trumps kept)."""
    est = estimate_hand(table, hand, unseen, opponents, hand_size)
    if exchange_limit:
        keep = [c for c in hand if table.is_trump(c)]
        est = after_exchange(est, mean_chance(table, unseen, opponents, hand_size), exchange_limit, keep)
    return est


def exchange_choice(table: TrumpTable, hand: Sequence[str], unseen: Sequence[str], others: int, hand_size: int,
                    margin: float, legal: Sequence[str], act: Any) -> str:
    """Discard the weakest side card (not an ace) whose trick chance is below the talon's mean minus
    ``margin``; ``done`` when there is none (or its discard is not legal). ``act``: the game's segment
    names (an ``Act`` enum with ``DISCARD`` and ``DONE``)."""
    threshold = mean_chance(table, unseen, others, hand_size) - margin
    chances = estimate_hand(table, hand, unseen, others, hand_size).chances
    weak = [c for c in discard_order(table, hand, unseen)
            if not table.is_trump(c) and c[:-1] != "A" and chances[c] < threshold]
    if weak and f"{act.DISCARD} {weak[0]}" in legal:
        return f"{act.DISCARD} {weak[0]}"
    return act.DONE


def play_in_trick(table: TrumpTable, view: dict[str, Any], legal: Sequence[str], unseen: Sequence[str],
                  active_bids: Sequence[str], style: PlayStyle) -> str:
    """The shared card play, told how many active players are still to play to this trick."""
    active = sum(bid in active_bids for bid in view["bids"])
    after = active - len(view["trick"]) - 1
    trick = [c for _, c in view["trick"]]
    return choose_card(table, legal, trick, unseen, after, style, len(view["hand"]))
