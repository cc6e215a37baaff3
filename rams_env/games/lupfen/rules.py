"""Lupfen's options (source 002_2dae4dad0cbb3ec9.txt); docs/rules/lupfen.md explains each."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from rams_env.core.cards import LUPFEN_20, Pack
from rams_env.core.rules import Rules, require

HAND_SIZE = TRICKS = 3
"""Three cards each, three tricks a deal ("Rules")."""


class SessionEnd(Enum):
    """When a session ends ("Players may agree beforehand how or when a session ends")."""

    DEALS = "deals"  # after ``session_deals`` deals
    POT_EMPTY = "pot_empty"  # once a Lupfen round has shared the pot out (or after ``session_deals``)


@dataclass(frozen=True)
class LupfenRules(Rules):
    """Lupfen. Defaults: the basic rules of the source, no variations."""

    ante: int = 3
    """Each player's ante in a force round ("Force": "a previously agreed ante")."""
    dealer_fee: int = 0
    """Extra stake the dealer pays before every deal, divisible by three ("Variations: Dealer stake")."""
    shoving: bool = False
    """With a dealer fee, the dealer may pay it and shove the deal on ("Variations: Shoving")."""
    compulsory_hearts: bool = False
    """When a lift turns hearts, every player still to decide must play ("Compulsory Hearts")."""
    compulsory_lift: bool = False
    """A player holding two Sows must lift ("Compulsory Lupf")."""
    blind_lift: bool = False
    """A player may lift before looking at the hand; the deal's losers pay double ("Blind Lupf")."""
    three_unters: bool = True
    """Three Unters win automatically ("Special card combinations")."""
    scrap: bool = True
    """Two Unters and an Ober may call the deal off ("Scrap", Verworfen)."""
    staender: bool = True
    """A three-card flush is announced on receipt ("Ständer"): a public signal only."""
    bankroll: int = 100
    """Chips each player starts a session with."""
    session_end: SessionEnd = SessionEnd.POT_EMPTY
    """How a session (``episode="session"``) ends."""
    session_deals: int = 30
    """Deals in a session (the limit also for ``pot_empty``)."""

    PRESETS: ClassVar[dict[str, dict]] = {
        "standard": {},
        "dealer_stake": {"dealer_fee": 3},
        "shoving": {"dealer_fee": 3, "shoving": True},
        "compulsory": {"compulsory_hearts": True, "compulsory_lift": True},
        "blind": {"blind_lift": True},
        "plain": {"three_unters": False, "scrap": False, "staender": False},
    }

    def validate(self) -> None:
        for name in ("ante", "dealer_fee", "bankroll", "session_deals"):
            value = getattr(self, name)
            require(isinstance(value, int) and not isinstance(value, bool), f"{name} must be a whole number")
        require(self.ante > 0, f"ante={self.ante}: must be positive")
        require(self.dealer_fee >= 0 and self.dealer_fee % 3 == 0,
                f"dealer_fee={self.dealer_fee}: a multiple of three (0 for none)")
        require(not self.shoving or self.dealer_fee > 0, "shoving needs a dealer_fee (the price of shoving)")
        require(self.session_deals >= 1, "session_deals must be >= 1")
        for name in ("shoving", "compulsory_hearts", "compulsory_lift", "blind_lift", "three_unters", "scrap",
                     "staender"):
            require(isinstance(getattr(self, name), bool), f"{name} must be true or false")

    def pack(self) -> Pack:
        return LUPFEN_20

    def player_range(self) -> tuple[int, int]:
        return 3, 6

    # ------------------------------------------------- settlement (the engine and the heuristic both call these)
    @staticmethod
    def share_per_trick(pot: int) -> int:
        """Each trick earns a third of the pot; an indivisible remainder stays in it ("Rules")."""
        return pot // TRICKS

    @staticmethod
    def bete_for(pot: int, tricks: int, blind: bool = False) -> int:
        """A player without a trick pays the pot, double after a blind lift ("Blind Lupf")."""
        return pot * (2 if blind else 1) if tricks == 0 else 0
