"""Fipsen's contracts and auction ladders, per variant, as data (source 001_f2515c7741548cc2.txt)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Talon(Enum):
    """What the declarer picks up before playing."""

    NONE = "none"  # a hand game (Prisdorf "Hand", Grossenaspe/Mecklenburg Fips)
    SKAT = "skat"  # the two-card skat: discard two
    KIEKER = "kieker"  # Prisdorf: skat + the three cards aside (10 cards), discard five
    KIEKER_ALL = "kieker_all"  # Grossenaspe: the dealt hand is discarded; skat + talon (12 cards), keep five
    DUTT = "dutt"  # Mecklenburg: the five-card Dutt, discard five


class Trumps(Enum):
    """How trumps are set."""

    CHOSEN = "chosen"  # the declarer names a suit (naming the preference suit doubles, where it does)
    PREFERENCE = "preference"  # the preference suit: Grossenaspe "Good" (clubs); Mecklenburg Ruten bids and
    # "Ruten oewer" (diamonds: the Rutenas is the only diamond, so the only trump)


@dataclass(frozen=True)
class Contract:
    """One rung of a variant's bidding ladder (higher index = higher bid)."""

    label: str  # action label, e.g. "bid 3", "bid 3 good", "bid kieker"
    tricks: int  # tricks the declarer must take
    value: int  # points for making it (before Durch/Ruten doubling)
    talon: Talon = Talon.SKAT
    trumps: Trumps = Trumps.CHOSEN
    needs: str = ""  # a holding the bidder must have: "no_courts", "rutenas", "siebener"
    fixed: bool = False  # a fixed value (Kieker, Fips, Siebener): naming the preference suit does not double it


def grossenaspe_ladder() -> list[Contract]:
    """One .. Five, each overcalled by the same number Good (clubs, doubled); Kieker between Four Good and
    Five; Fips (all five, no skat) highest."""
    ladder = []
    for n in range(1, 6):
        if n == 5:
            ladder.append(Contract("bid kieker", 5, 10, Talon.KIEKER_ALL, needs="no_courts", fixed=True))
        ladder.append(Contract(f"bid {n}", n, n))
        ladder.append(Contract(f"bid {n} good", n, 2 * n, trumps=Trumps.PREFERENCE))
    ladder.append(Contract("bid fips", 5, 20, Talon.NONE, fixed=True))
    return ladder


def prisdorf_ladder() -> list[Contract]:
    """From two: each number, then the same number Hand (no skat, double); Kieker between Four Hand and Five;
    Siebener Fips (four sevens and an ace) wins 30 without play."""
    ladder = []
    for n in range(2, 6):
        if n == 5:
            ladder.append(Contract("bid kieker", 5, 10, Talon.KIEKER, needs="no_courts", fixed=True))
        ladder.append(Contract(f"bid {n}", n, n))
        ladder.append(Contract(f"bid {n} hand", n, 2 * n, Talon.NONE))
    ladder.append(Contract("bid siebener", 0, 30, Talon.NONE, needs="siebener", fixed=True))
    return ladder


def anseggerfips_ladder() -> list[Contract]:
    """Trick numbers; a Ruten bid (holding the Rutenas, diamonds trumps) outbids the same number; Fips (all
    five) overcalled only by Rutenfips."""
    ladder = []
    for n in range(1, 5):
        ladder.append(Contract(f"bid {n}", n, n, Talon.NONE))
        ladder.append(Contract(f"bid {n} ruten", n, 2 * n, Talon.NONE, Trumps.PREFERENCE, needs="rutenas"))
    ladder.append(Contract("bid fips", 5, 10, Talon.NONE))
    ladder.append(Contract("bid rutenfips", 5, 20, Talon.NONE, Trumps.PREFERENCE, needs="rutenas"))
    return ladder


def duttfips_ladder() -> list[Contract]:
    """Four contracts in rising order, the Dutt available in each: Dutt (majority), "Ruten oewer" (the
    Rutenas the only trump), Fips, Rutenfips."""
    return [
        Contract("bid dutt", 3, 1, Talon.DUTT),
        Contract("bid ruten oewer", 3, 2, Talon.DUTT, Trumps.PREFERENCE),
        Contract("bid fips", 5, 4, Talon.DUTT),
        Contract("bid rutenfips", 5, 8, Talon.DUTT, Trumps.PREFERENCE),
    ]
