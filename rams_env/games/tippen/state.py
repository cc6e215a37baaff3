"""Tippen's position: phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from rams_env.core.actions import ActionName
from rams_env.core.game import DealSpec, StateEnum
from rams_env.core.stakes import Ledger
from rams_env.core.trickplay import TrickState


class Phase(StateEnum):
    SHOVE = "shove"  # the dealer deals, or shoves the deal on (modern variation)
    DEALER = "dealer"  # the dealer may knock (blind) or sniff
    DROP = "drop"  # an Alvensleben sniffer: play, or drop out paying a simple bête
    ROB = "rob"  # the holder of the trump 7 may rob the upcard
    DISCARD = "discard"  # a knocker, sniffer or robber discards one card
    BID = "bid"  # play (tap) or pass
    EXCHANGE = "exchange"  # active players discard up to three cards, one at a time, then "done"
    PLAY = "play"


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


@dataclass
class TippenState(TrickState):
    """Everything about a Tippen session and its deal (all hands: never shown to agents)."""

    ledger: Ledger = field(default_factory=lambda: Ledger([]))
    session_start: list[int] = field(default_factory=list)
    phase: Phase = Phase.BID
    pending_deal: DealSpec | None = None
    talon: list[int] = field(default_factory=list)
    trump_card: int = -1
    trump: int = 0
    upcard_public: bool = True  # False once a knocking/sniffing (Grupp) dealer took it unseen
    upcard_taken_by: int | None = None
    face_down: list[list[int]] = field(default_factory=list)
    bids: list[Bid] = field(default_factory=list)
    privileged: int | None = None  # the dealer who knocked or sniffed
    dropped: bool = False
    exchanged: list[int] = field(default_factory=list)
    pending: int = 0
    shoves: int = 0
    hops: int = 0
    queue: list[int] = field(default_factory=list)
    first_trick_winner: int | None = None
    pot_at_play: int = 0
    forced: bool = False

    def active(self, seat: int) -> bool:
        return self.bids[seat] in (Bid.PLAY, Bid.FORCED, Bid.PRIVILEGED)
