"""Fipsen's position: phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from rams_env.core.actions import ActionName
from rams_env.core.game import StateEnum
from rams_env.core.stakes import Ledger
from rams_env.core.trickplay import TrickState

HAND_SIZE = TRICKS = 5
"""Five cards each, five tricks a deal (every variant)."""


class Phase(StateEnum):
    CALL = "call"  # Thedinghausen: announce "fipsen" (all five tricks) or pass
    AUCTION = "auction"  # bid a contract of the ladder, hold, or pass
    DISCARD = "discard"  # the declarer, after picking up skat / talon / Dutt, discards one card at a time
    KIEKER = "kieker"  # Grossenaspe Kieker: concede five points, or play
    TRUMP = "trump"  # the declarer names trumps
    PLAY = "play"
    PLAY_ON = "play_on"  # Grossenaspe: the bid is made; play on for a Durch, or stop


class Act(ActionName):
    """Fipsen's action segments (game.py declares what each does)."""

    PLAY = "play"
    DISCARD = "discard"
    BID = "bid"
    HOLD = "hold"
    PASS = "pass"
    TRUMP = "trump"
    FIPSEN = "fipsen"
    CONCEDE = "concede"
    PLAY_KIEKER = "play_kieker"
    PLAY_ON = "play_on"
    STOP = "stop"


@dataclass
class FipsenState(TrickState):
    """Everything about a Fipsen session and its deal (all hands: never shown to agents)."""

    ledger: Ledger = field(default_factory=lambda: Ledger([]))  # Thedinghausen hedewigs
    session_start: list[int] = field(default_factory=list)  # bankrolls when the session began
    sheet: list[int] = field(default_factory=list)  # the score sheet (Holstein and Mecklenburg points)
    sheet_start: list[int] = field(default_factory=list)
    phase: Phase = Phase.AUCTION
    skat: list[int] = field(default_factory=list)
    aside: list[int] = field(default_factory=list)  # Kieker cards / talon / Dutt / unused cards
    turned: int | None = None  # Thedinghausen trump card
    trump: int | None = None
    declarer: int | None = None
    contract: int | None = None  # index into the variant's ladder
    highest: int | None = None  # highest bid so far (ladder index)
    highest_bidder: int | None = None
    passed: list[bool] = field(default_factory=list)
    holder: int | None = None  # HOLD auction: the earlier player
    challenger: int | None = None
    holder_to_answer: bool = False
    queue: list[int] = field(default_factory=list)
    to_discard: int = 0
    face_down: list[list[int]] = field(default_factory=list)
    playing_on: bool = False
    fipsen: int | None = None  # Thedinghausen: who announced "fipsen"
    race: list[int] = field(default_factory=list)  # Thedinghausen: tricks toward the prize
    race_won: bool = False
    redeals: int = 0
