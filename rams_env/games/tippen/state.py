"""Tippen's position: phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass

from rams_env.core.actions import ActionName
from rams_env.core.exchange import ExchangeState
from rams_env.core.game import StateEnum
from rams_env.core.perdeal import per_deal


class Phase(StateEnum):
    SHOVE = "shove"  # the dealer deals, or shoves the deal on (modern variation)
    DEALER = "dealer"  # the dealer may knock (blind) or sniff
    DROP = "drop"  # an Alvensleben sniffer: play, or drop out paying a simple bête
    ROB = "rob"  # the holder of the trump 7 may rob the upcard
    DISCARD = "discard"  # a knocker, sniffer or robber discards one card
    BID = "bid"  # play (tap) or pass
    EXCHANGE = "exchange"  # active players discard up to three cards, one at a time, then "done"
    PLAY = "play"


SHOVE, DEALER = Phase.SHOVE, Phase.DEALER
"""The phases the observation tests at every step, bound to module names (see ``StateEnum``)."""


class Act(ActionName):
    """Tippen's action segments (game.py declares what each does)."""

    PLAY = "play"
    DISCARD = "discard"
    DONE = "done"
    TAP = "tap"
    PASS = "pass"
    KNOCK = "knock"
    SNIFF = "sniff"
    DECLINE = "decline"
    ROB = "rob"
    DROP = "drop"
    DEAL = "deal"
    SHOVE = "shove"


class Bid(StateEnum):
    NONE = 0
    PASS = 1
    PLAY = 2
    FORCED = 3  # only the basic stake in the pot: everyone plays
    PRIVILEGED = 4  # the dealer who knocked or sniffed plays by that


PLAYING_BIDS = frozenset((Bid.PLAY, Bid.FORCED, Bid.PRIVILEGED))
"""The bids of a player who plays the deal (a set made once: ``active`` runs at every card, and a tuple of
members read from their class at every call costs 20 times more; see ``StateEnum``)."""


@dataclass
class TippenState(ExchangeState):
    """Everything about a Tippen session and its deal (all hands: never shown to agents)."""

    NO_BID = Bid.NONE
    phase: Phase = Phase.BID
    trump_card: int = per_deal(-1)
    trump: int = 0
    upcard_public: bool = per_deal(True)  # False once a knocking/sniffing (Grupp) dealer took it unseen
    upcard_taken_by: int | None = per_deal(None)
    privileged: int | None = per_deal(None)  # the dealer who knocked or sniffed
    dropped: bool = per_deal(False)
    hops: int = per_deal(0)
    first_trick_winner: int | None = per_deal(None)
    forced: bool = False  # set as the cards are dealt: only the basic stake in the pot, everyone plays

    def active(self, seat: int) -> bool:
        return self.bids[seat] in PLAYING_BIDS
