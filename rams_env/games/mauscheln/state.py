"""Mauscheln's position: phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from rams_env.core.actions import ActionName
from rams_env.core.game import StateEnum
from rams_env.core.stakes import Ledger
from rams_env.core.trickplay import TrickState


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


@dataclass
class MauschelnState(TrickState):
    """Everything about a Mauscheln session and its deal (all hands: never shown to agents)."""

    ledger: Ledger = field(default_factory=lambda: Ledger([]))
    phase: Phase = Phase.SNEAK
    talon: list[int] = field(default_factory=list)  # top first
    turned: int = -1  # the turned trump card (face up; the dealer takes it after a knock)
    turn_up_taken: bool = False
    session_start: list[int] = field(default_factory=list)  # bankrolls when the session began
    trump: int = 0
    face_down: list[list[int]] = field(default_factory=list)  # per seat: cards put on the bonfire
    bids: list[Bid] = field(default_factory=list)
    sneaker: int | None = None
    knocked: bool = False
    quartets: list[int] = field(default_factory=list)  # quartet redeals per seat (public: they paid)
    exchanged: list[int] = field(default_factory=list)  # cards exchanged per seat (public)
    pending: int = 0  # cards discarded so far by the player exchanging now
    queue: list[int] = field(default_factory=list)
    pot_at_play: int = 0
    belli_lost_by: list[int] = field(default_factory=list)  # seats whose Belli fell to the trump ace

    def active(self, seat: int) -> bool:
        """Plays this deal: the sneaker and those who joined."""
        return self.bids[seat] in (Bid.SNEAK, Bid.JOIN)
