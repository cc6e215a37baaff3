"""Mauscheln's position: phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass

from rams_env.core.actions import ActionName
from rams_env.core.exchange import ExchangeState
from rams_env.core.game import StateEnum
from rams_env.core.perdeal import per_deal, per_deal_list, per_seat


class Phase(StateEnum):
    """Decision points of a Mauscheln deal, in order."""

    KNOCK = "knock"  # the dealer, before looking at the hand, may knock on a high turn-up
    SNEAK = "sneak"  # from forehand: sneak (undertake two tricks) or pass
    JOIN = "join"  # once someone sneaks (or the dealer knocked): the others join or pass
    EXCHANGE = "exchange"  # active players discard up to four cards, one at a time, then "done"
    PLAY = "play"  # trick play


class Act(ActionName):
    """Mauscheln's action segments (game.py declares what each does)."""

    PLAY = "play"
    DISCARD = "discard"
    DONE = "done"
    SNEAK = "sneak"
    JOIN = "join"
    PASS = "pass"
    KNOCK = "knock"
    DECLINE = "decline"


class Bid(StateEnum):
    """A player's public decision this deal."""

    NONE = 0
    PASS = 1
    SNEAK = 2
    JOIN = 3


PLAYING_BIDS = frozenset((Bid.SNEAK, Bid.JOIN))
"""The bids of a player who plays the deal (see ``active``; a set made once, as Tippen's)."""


@dataclass
class MauschelnState(ExchangeState):
    """Everything about a Mauscheln session and its deal (all hands: never shown to agents)."""

    NO_BID = Bid.NONE
    phase: Phase = Phase.SNEAK
    turned: int = -1  # the turned trump card (face up; the dealer takes it after a knock)
    turn_up_taken: bool = per_deal(False)
    trump: int = 0
    sneaker: int | None = per_deal(None)
    knocked: bool = per_deal(False)
    quartets: list[int] = per_seat(0)  # quartet redeals per seat (public: they paid)
    belli_lost_by: list[int] = per_deal_list()  # seats whose Belli fell to the trump ace
    pot_at_play: int = 0  # not per deal here: until play begins the pot of the last deal played is shown

    def active(self, seat: int) -> bool:
        """Plays this deal: the sneaker and those who joined."""
        return self.bids[seat] in PLAYING_BIDS
