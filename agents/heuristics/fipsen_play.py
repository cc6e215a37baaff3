"""Fipsen card play: who is a friend, then the shared trump-game policy (win cheaply, duck, trump).

The declarer (or a Thedinghausen fipsen caller) plays alone against everyone else; the others
are partners for the deal, so a defender does not overtake a partner's trick that is safe, and
counts only the declarer as an opponent still to play. Without a fipsen call Thedinghausen is
every player for himself.
"""

from __future__ import annotations

from typing import Any

from agents.heuristics.fipsen_eval import HAND, Knowledge, table_for
from agents.heuristics.trumpplay import (
    PlayStyle,
    TrumpTable,
    cheapest,
    choose_follow,
    choose_lead,
    played_cards,
    unseen_cards,
)


def soloist(view: dict[str, Any]) -> int | None:
    """Relative seat of the player alone against the rest (declarer or fipsen caller), if any."""
    return view["declarer"] if view["declarer"] is not None else view["fipsen"]


def knowledge(game, view: dict[str, Any]) -> Knowledge:
    """Cards this seat cannot place (not in hand, not discarded by it, not played, not turned up),
    and the other players as opponents (for one's own tricks, whoever plays against the soloist)."""
    gone = [*view["own_discards"], *played_cards(view)]
    if view["turned"]:
        gone.append(view["turned"])
    unseen = tuple(unseen_cards(game.pack().codes, view["hand"], gone))
    n = view["num_players"]
    size = max(HAND - len(cards) for cards in view["played"][1:])  # the fullest opposing hand
    return Knowledge(unseen, n - 1, max(size, 1))


def friends(view: dict[str, Any]) -> set[int]:
    """Relative seats on this seat's side of the deal (itself included)."""
    solo = soloist(view)
    if solo is None or solo == 0:
        return {0}
    return {s for s in range(view["num_players"]) if s != solo}


def choose_play(game, view: dict[str, Any], legal: list[str], style: PlayStyle) -> str:
    """The card to play from ``legal`` (card codes)."""
    if len(legal) == 1:
        return legal[0]
    table = table_for(view["trump"])
    unseen = knowledge(game, view).unseen
    trick = view["trick"]
    cards = [c for _, c in trick]
    if not trick:
        return choose_lead(table, legal, unseen, style)
    side = friends(view)
    done = {s for s, _ in trick}
    foes_after = sum(1 for s in range(1, view["num_players"]) if s not in done and s not in side)
    holder = trick[table.winner(cards)][0]
    if holder in side:
        return _support(table, legal, cards, unseen, foes_after)
    return choose_follow(table, legal, cards, unseen, foes_after, style)


def _support(table: TrumpTable, legal: list[str], cards: list[str], unseen: tuple[str, ...],
             foes_after: int) -> str:
    """A partner holds the trick: let it stand (throw the cheapest card) unless an opponent still
    to play may beat it and a sure winner of ours would not be beaten."""
    winning = cards[table.winner(cards)]
    partner_safe = foes_after == 0 or (table.is_boss(winning, unseen)
                                       and (table.is_trump(winning) or not any(table.is_trump(u) for u in unseen)))
    if not partner_safe:
        safe = [c for c in legal if table.beats(c, cards) and table.is_boss(c, unseen)]
        if safe:
            return cheapest(table, safe)
    return cheapest(table, legal)
