"""Mauscheln's options (source 003_c37dfd1970c91b7f.txt); docs/rules/mauscheln.md explains each."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from rams_env.core.cards import FULL_52, PIQUET_32, RANKS, WELI_33, Pack
from rams_env.core.rules import Rules, require

HAND_SIZE = TRICKS = 4
"""Four cards each, four tricks a deal ("Dealing")."""


class TrickShare(Enum):
    """What one trick earns ("Scoring": "1/4 of the Pinke"; see the decisions in the docs)."""

    POT = "pot"  # a quarter of the pot as it stands when play begins (the pot is shared out)
    PINKE = "pinke"  # a quarter of the dealer's basic stake only


@dataclass(frozen=True)
class MauschelnRules(Rules):
    """Mauscheln / Vierblatt. Defaults: the basic rules of the source."""

    pinke: int = 4
    """The dealer's stake into the pot, divisible by four ("Dealing")."""
    large_pack: bool = False
    """Play with the 52-card French pack, for up to 10 players ("Players and cards")."""
    trick_share: TrickShare = TrickShare.POT
    """What a trick earns ("Scoring")."""
    max_exchange: int = 4
    """Cards an active player may exchange with the talon ("Bidding": "up to 4")."""
    dealer_knock: bool = False
    """The dealer may knock on a high turned trump before looking at the hand ("Knocking")."""
    knock_ranks: tuple[str, ...] = ("A",)
    """Turned trumps high enough for the dealer's knock ("such as the Sow")."""
    quartets: bool = False
    """A player dealt four of a kind discards them, pays the Pinke and gets a new hand ("Quartets")."""
    belli: bool = False
    """7 of diamonds/bells: permanent second-highest trump after the trump ace ("Belli")."""
    belli_penalty: int = 0
    """Chips the Belli's holder pays into the pot when it falls to the trump ace (0: not played)."""
    weli: bool = False
    """6 of diamonds/bells added as 33rd card, permanent second-highest trump ("Weli")."""
    bankroll: int = 100
    """Chips each player starts a session with (bankrolls may go negative: settled afterwards)."""
    session_deals: int = 12
    """Deals in a session (``episode="session"``); the source sets no end."""

    PRESETS: ClassVar[dict[str, dict]] = {
        "standard": {},
        "knocking": {"dealer_knock": True},
        "quartets": {"quartets": True},
        "belli": {"belli": True},
        "weli": {"weli": True},
        "tavern": {"dealer_knock": True, "quartets": True, "belli": True},
        "large_table": {"large_pack": True},
    }

    def validate(self) -> None:
        for name in ("pinke", "max_exchange", "belli_penalty", "bankroll", "session_deals"):
            value = getattr(self, name)
            require(isinstance(value, int) and not isinstance(value, bool), f"{name} must be a whole number")
        require(self.pinke > 0 and self.pinke % 4 == 0, f"pinke={self.pinke}: a positive multiple of four")
        require(0 <= self.max_exchange <= 4, f"max_exchange={self.max_exchange}: 0 to 4")
        require(self.belli_penalty >= 0, "belli_penalty must be >= 0")
        require(self.session_deals >= 1, "session_deals must be >= 1")
        require(not (self.belli and self.weli),
                "belli and weli both claim the place after the trump ace; choose one")
        require(not (self.weli and self.large_pack), "weli: the 52-card pack already holds the 6 of diamonds; "
                "play the 32+Weli pack or the 52-card pack")
        require(not self.belli_penalty or self.belli, "belli_penalty needs belli=True")
        require(all(r in RANKS for r in self.knock_ranks) and self.knock_ranks,
                f"knock_ranks={self.knock_ranks!r}: ranks such as ('A', 'K')")

    # ------------------------------------------------- settlement (the engine and the heuristic both call these)
    def share_per_trick(self, pot: int) -> int:
        """Chips one of the four tricks earns: a quarter of the pot (or of the Pinke) ("Scoring")."""
        return (pot if self.trick_share is TrickShare.POT else self.pinke) // TRICKS

    @staticmethod
    def bete_for(pot: int, tricks: int, sneaker: bool = False) -> int:
        """A joiner without a trick pays the pot; the sneaker with one trick the pot, with none double."""
        if sneaker:
            return 2 * pot if tricks == 0 else pot if tricks == 1 else 0
        return pot if tricks == 0 else 0

    def pack(self) -> Pack:
        if self.large_pack:
            return FULL_52
        return WELI_33 if self.weli else PIQUET_32

    def player_range(self) -> tuple[int, int]:
        """3 to 5 with 32 (33) cards; up to 10 with 52 (4 each, the turn-up, a talon of 11)."""
        return (3, 10) if self.large_pack else (3, 5)


