"""Lupfen's position: round kinds, phases, action names and State fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from rams_env.core.actions import ActionName
from rams_env.core.game import StateEnum
from rams_env.core.perdeal import per_deal, per_seat
from rams_env.core.potgame import PotState


class Round(StateEnum):
    FORCE = "force"  # the first deal and whenever the pot is empty: everyone antes and plays
    LUPFEN = "lupfen"  # the pot holds chips: players lift or pass


class Phase(StateEnum):
    SHOVE = "shove"  # the dealer pays the fee and deals, or shoves the deal on
    LIFT = "lift"  # in turn: lift (turn the trump) or pass; blind lifting before looking
    JOIN = "join"  # after a lift, the players still to decide: play ("mit") or pass
    DECLARE = "declare"  # the holder of three Unters declares them once the game is on
    SCRAP = "scrap"  # a holder of two Unters and an Ober may call the deal off
    PLAY = "play"


class Act(ActionName):
    """Lupfen's action segments (game.py declares what each does)."""

    PLAY = "play"
    LIFT = "lift"
    MIT = "mit"
    PASS = "pass"
    BLIND = "blind"
    LOOK = "look"
    SCRAP = "scrap"
    DECLARE = "declare"
    KEEP = "keep"
    DEAL = "deal"
    SHOVE = "shove"


class Bid(StateEnum):
    NONE = 0
    PASS = 1
    LIFT = 2
    JOIN = 3
    FORCED = 4  # a force round: everyone plays


PLAYING_BIDS = frozenset((Bid.LIFT, Bid.JOIN, Bid.FORCED))
"""The bids of a player who plays the deal (see ``active``; a set made once, as Tippen's)."""


@dataclass
class LupfenState(PotState):
    """Everything about a Lupfen session and its deal (all hands: never shown to agents)."""

    NO_BID = Bid.NONE
    round: Round = Round.FORCE
    phase: Phase = Phase.LIFT
    stock: list[int] = field(default_factory=list)  # top first; the top card is turned for trump
    trump: int | None = per_deal(None)
    turned: int | None = per_deal(None)
    lifter: int | None = per_deal(None)
    blind: bool = per_deal(False)
    looked: list[bool] = field(default_factory=list)  # set with every deal: False until a blind lift is declined
    staender: list[bool] = per_seat(False)
    redeals: int = per_deal(0, kept_on_redeal=True)

    def active(self, seat: int) -> bool:
        return self.bids[seat] in PLAYING_BIDS
