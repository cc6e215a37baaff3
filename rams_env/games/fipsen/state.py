"""Fipsen's position: phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from rams_env.core.actions import ActionName
from rams_env.core.game import StateEnum
from rams_env.core.perdeal import per_deal, per_seat, per_seat_lists
from rams_env.core.potgame import LedgerState

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
class FipsenState(LedgerState):
    """Everything about a Fipsen session and its deal (all hands: never shown to agents).

    The ledger holds Thedinghausen's hedewigs; the other games score on the sheet.
    """

    sheet: list[int] = field(default_factory=list)  # the score sheet (Holstein and Mecklenburg points)
    sheet_start: list[int] = field(default_factory=list)
    phase: Phase = Phase.AUCTION
    skat: list[int] = field(default_factory=list)
    aside: list[int] = field(default_factory=list)  # Kieker cards / talon / Dutt / unused cards
    turned: int | None = per_deal(None)  # Thedinghausen trump card
    trump: int | None = per_deal(None)
    declarer: int | None = per_deal(None)
    contract: int | None = per_deal(None)  # index into the variant's ladder
    highest: int | None = per_deal(None)  # highest bid so far (ladder index)
    highest_bidder: int | None = per_deal(None)
    passed: list[bool] = per_seat(False)
    holder: int | None = per_deal(None)  # HOLD auction: the earlier player
    challenger: int | None = per_deal(None)
    holder_to_answer: bool = per_deal(False)
    to_discard: int = per_deal(0)
    face_down: list[list[int]] = per_seat_lists()
    playing_on: bool = per_deal(False)
    fipsen: int | None = per_deal(None)  # Thedinghausen: who announced "fipsen"
    race: list[int] = field(default_factory=list)  # Thedinghausen: tricks toward the prize
    race_won: bool = False
    redeals: int = per_deal(0, kept_on_redeal=True)  # all-pass redeals in a row this deal
