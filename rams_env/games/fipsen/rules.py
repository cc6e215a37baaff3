"""Fipsen's variants and options (source 001_f2515c7741548cc2.txt); docs/rules/fipsen.md explains each."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from rams_env.core.cards import MECKLENBURG_25, PIQUET_32, PRISDORF_25, Pack
from rams_env.core.rules import Rules, require
from rams_env.games.fipsen.contracts import (
    Contract,
    anseggerfips_ladder,
    duttfips_ladder,
    grossenaspe_ladder,
    prisdorf_ladder,
)


class Variant(Enum):
    THEDINGHAUSEN = "thedinghausen"  # five players, no auction, turned trump, race to ten tricks
    GROSSENASPE = "grossenaspe"  # Holstein, 32 cards, clubs preferred, Good / Kieker / Fips
    PRISDORF = "prisdorf"  # Holstein, 25 cards, diamonds preferred, holding auction, Hand, Siebener Fips
    ANSEGGERFIPS = "anseggerfips"  # Mecklenburg auction Fips, 25 cards with the Rutenas
    DUTTFIPS = "duttfips"  # Mecklenburg widow Fips: forehand must bid, one round


class Auction(Enum):
    NONE = "none"
    OPEN = "open"  # in turn: bid higher or pass (a pass is final) until one bidder is left
    HOLD = "hold"  # Prisdorf: the earlier player holds or passes each higher bid of a later player
    SINGLE_ROUND = "single_round"  # Duttfips: forehand must bid, each other player once


@dataclass(frozen=True)
class VariantSpec:
    """Everything that differs between the variants, as data."""

    players: int
    pack: Pack
    preference: str  # the preference suit letter
    auction: Auction
    ladder: tuple[Contract, ...]
    skat: int  # cards in the skat (or the Dutt)
    aside: int  # further cards laid aside for a Kieker (Prisdorf 3) or the talon (Grossenaspe)
    preference_doubles: bool  # naming the preference suit as trumps doubles the value
    play_on: bool  # a declarer who made the bid may play on for a Durch (Grossenaspe)
    durch_doubles: bool  # winning every trick doubles; failing loses double (Prisdorf)


SPECS = {
    Variant.THEDINGHAUSEN: VariantSpec(5, PIQUET_32, "c", Auction.NONE, (), 0, 0, False, False, False),
    Variant.GROSSENASPE: VariantSpec(4, PIQUET_32, "c", Auction.OPEN, tuple(grossenaspe_ladder()), 2, 10,
                                     True, True, False),
    Variant.PRISDORF: VariantSpec(4, PRISDORF_25, "d", Auction.HOLD, tuple(prisdorf_ladder()), 2, 3,
                                  True, False, True),
    Variant.ANSEGGERFIPS: VariantSpec(4, MECKLENBURG_25, "d", Auction.OPEN, tuple(anseggerfips_ladder()), 0, 5,
                                      False, False, False),
    Variant.DUTTFIPS: VariantSpec(4, MECKLENBURG_25, "d", Auction.SINGLE_ROUND, tuple(duttfips_ladder()), 5, 0,
                                  False, False, False),
}


@dataclass(frozen=True)
class FipsenRules(Rules):
    """Fipsen. Default: Grossenaspe, the Holstein game with the fullest description."""

    variant: Variant = Variant.GROSSENASPE
    race_to: int = 10
    """Thedinghausen: tricks over several deals that win the prize ("first to win ten tricks")."""
    prize: int = 5
    """Thedinghausen: hedewigs won by the race winner (one ante per player), paid by a failed fipsen."""
    bankroll: int = 50
    """Thedinghausen: hedewigs each player starts with (bankrolls may go negative)."""
    session_deals: int = 8
    """Deals in a session (``episode="session"``); Thedinghausen: until a race is won, at most this many."""

    DEFAULT_PRESET: ClassVar[str] = "grossenaspe"
    PRESETS: ClassVar[dict[str, dict]] = {v.value: {"variant": v.value} for v in Variant}

    def validate(self) -> None:
        require(isinstance(self.variant, Variant), f"variant={self.variant!r}")
        for name in ("race_to", "prize", "bankroll", "session_deals"):
            value = getattr(self, name)
            require(isinstance(value, int) and not isinstance(value, bool) and value >= 1,
                    f"{name} must be a whole number >= 1")

    @property
    def spec(self) -> VariantSpec:
        return SPECS[self.variant]
