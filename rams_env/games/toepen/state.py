"""Toepen's position: the State fields, the phases a deal goes through and the action names."""

from __future__ import annotations

from dataclasses import dataclass, field

from rams_env.core.actions import ActionName
from rams_env.core.game import StateEnum
from rams_env.core.perdeal import per_deal, per_deal_list, per_seat, per_seat_lists
from rams_env.core.trickplay import TrickState

HAND_SIZE = 4
TRICKS = HAND_SIZE
"""Four cards each, four tricks a deal ("Players and cards")."""


class Phase(StateEnum):
    """Decision points of a Toepen deal, in the order they can occur."""

    DIRTY = "dirty"  # a player may discard her hand as dirty (all A/K/Q/J, or a bluff)
    CHALLENGE = "challenge"  # others may challenge the last dirty-hand claim
    ANNOUNCE = "announce"  # a player with three or four jacks may whistle / stand up
    RESPOND = "respond"  # after a knock (or the poverty raise): stay or fold
    WINDOW = "window"  # any-time knocking: knock or pass
    PLAY = "play"  # play a card (and, before_play timing, knock first)


class Act(ActionName):
    """Toepen's action segments (game.py declares what each does)."""

    PLAY = "play"
    KNOCK = "knock"
    PASS = "pass"
    STAY = "stay"
    FOLD = "fold"
    DIRTY = "dirty"
    KEEP = "keep"
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    ANNOUNCE = "announce"
    SILENT = "silent"


class Signal(StateEnum):
    """Public announcements ("Announcing tens and jacks")."""

    NONE = 0
    WHISTLE = 1  # three tens (must) or three jacks (may)
    STAND = 2  # four tens (must) or four jacks (may)


@dataclass
class ToepenState(TrickState):
    """Everything about a Toepen session and its current deal (all hands: never shown to agents)."""

    lives_lost: list[int] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)  # lost the session and dropped out (play_on)
    phase: Phase = Phase.PLAY
    stock: list[int] = field(default_factory=list)
    face_down: list[list[int]] = per_seat_lists()  # per seat: unrevealed dirty discards, folded hand
    revealed: list[int] = per_deal_list()  # challenged dirty hands, turned face up
    folded: list[bool] = per_seat(False)
    deal_lost: list[int] = per_seat(0)  # lives lost in this deal, per seat
    stake: int = per_deal(1)  # lives at risk for a player who stays in and loses the last trick
    knocks: int = per_deal(0)
    last_knocker: int | None = per_deal(None)
    knocked_by: list[int] = per_seat(0)  # knocks per seat this deal
    redraws: list[int] = per_seat(0)
    signals: list[Signal] = per_seat(Signal.NONE)
    claimant: int | None = per_deal(None)  # seat whose dirty-hand claim is open to challenge
    claim: list[int] = per_deal_list()  # the discarded hand under challenge
    challengers: list[int] = field(default_factory=list)  # seats still to decide on the open claim
    responders: list[int] = field(default_factory=list)  # seats still to stay or fold
    resume: Phase | None = None  # after the responses: PLAY or WINDOW; None = start trick play
    last_trick_winner: int | None = per_deal(None)

    def in_play(self, seat: int) -> bool:
        """Dealt in this deal and not folded."""
        return not self.out[seat] and not self.folded[seat]

    def lives_left(self, seat: int, total: int) -> int:
        return total - self.lives_lost[seat]
