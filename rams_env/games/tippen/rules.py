"""Tippen's rule sets and options (source 000_87480ce3960bd8a6.txt); docs/rules/tippen.md explains each."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from rams_env.core.cards import FULL_52, PIQUET_32, Pack
from rams_env.core.rules import Rules, require


class Bete(Enum):
    """What a trickless player pays into the pot."""

    POT = "pot"  # the pot as it stood when play began (Katira, 1905, 1859 "double the pot", 1821)
    STAKE = "stake"  # the basic stake (Grupp)


class TrickPays(Enum):
    """What a trick earns."""

    THIRD = "third"  # a third of the pot (modern, 1905)
    COUNTER = "counter"  # one counter (1821 Drei Karten, Loup)
    COUNTER_THEN_THIRD = "counter_then_third"  # 1859: a counter with the basic stake only, else a third


class PlayMode(Enum):
    """Obligations when following (the trick logic itself lives in rams_env/core/tricks.py)."""

    HEAD = "head"  # follow; if void, trump; head the trick if possible (modern)
    TRUMP = "trump"  # follow suit or trump (1905)
    FREE_TRUMP = "free_trump"  # follow; if void, may trump, overtrump or discard at will (1859, 1821)


class DealerOption(Enum):
    """The dealer's privileges, variations of the source."""

    NONE = "none"
    KNOCK = "knock"  # modern "Knocking": on the unseen trump, before looking at the hand
    SNIFF_ALVENSLEBEN = "sniff_alvensleben"  # swap the upcard for a hand card; play, or drop out for a bête
    SNIFF_GRUPP = "sniff_grupp"  # add the trump unseen, discard; may not drop out; must take two tricks


class TrumpFrom(Enum):
    TURNED = "turned"  # the card after the deal is turned for trump
    DEALER_LAST = "dealer_last"  # the dealer's last card shows trumps and stays in the hand (1821, Loup)


@dataclass(frozen=True)
class TippenRules(Rules):
    """Tippen. The default is the modern rule set (Grupp 1975 / Katira 1983, Katira's bête)."""

    hand_size: int = 3
    """Cards per player (Loup: 6)."""
    stake: int = 3
    """The dealer's basic stake (Kartenstamm); Loup: 6."""
    large_pack: bool = False
    """52-card pack for larger tables (1859, 1905: "more players with 52")."""
    trump_from: TrumpFrom = TrumpFrom.TURNED
    bete: Bete = Bete.POT
    trick_pays: TrickPays = TrickPays.THIRD
    play_mode: PlayMode = PlayMode.HEAD
    exchange: int = 3
    """Cards each active player may exchange with the talon (modern only; 0 = no exchange)."""
    forced_with_basic_stake: bool = False
    """Everyone must play while the pot holds only the basic stake (1821, 1859, 1905; modern "Tipp-Zwang")."""
    first_lead_trump: bool = False
    """1859: with three or more active players the first lead must be a trump."""
    ace_to_second_trick: bool = False
    """1859: the winner of the first trick holding the trump ace must lead it to the second."""
    max_bete: int = 0
    """1859: the largest pot carried into play; the excess is set aside for later deals (0 = no limit)."""
    dealer_option: DealerOption = DealerOption.NONE
    robbing: bool = False
    """1859: the holder of the trump 7 may rob the upcard (taking it and discarding a card)."""
    hop_and_jump: bool = False
    """1859: a cut showing an ace or a seven passes the deal on, the new dealer antes too; play is never forced."""
    shoving: bool = False
    """Modern: the dealer antes and may shove the deal to the next player, who antes too."""
    max_players: int = 5
    """The rule set's largest table (modern 5; 1905/1859/1821 6; Loup 5; more with the 52-card pack)."""
    bankroll: int = 100
    session_deals: int = 15

    DEFAULT_PRESET: ClassVar[str] = "modern"
    PRESETS: ClassVar[dict[str, dict]] = {
        "modern": {},
        "modern_grupp": {"bete": "stake"},
        "tipp_zwang": {"forced_with_basic_stake": True},
        "meyers_1905": {"play_mode": "trump", "exchange": 0, "forced_with_basic_stake": True, "max_players": 6},
        "alvensleben_1859": {"play_mode": "free_trump", "exchange": 0, "forced_with_basic_stake": True,
                             "trick_pays": "counter_then_third", "first_lead_trump": True,
                             "ace_to_second_trick": True, "max_players": 6},
        "drei_karten_1821": {"play_mode": "free_trump", "exchange": 0, "forced_with_basic_stake": True,
                             "trick_pays": "counter", "trump_from": "dealer_last", "max_players": 6},
        "loup": {"play_mode": "free_trump", "exchange": 0, "forced_with_basic_stake": True, "trick_pays": "counter",
                 "trump_from": "dealer_last", "hand_size": 6, "stake": 6, "max_players": 5},
    }
    PRESETS.update({  # the source's variations on their rule sets
        "modern_knocking": {"dealer_option": "knock"},
        "modern_sniffing": {"bete": "stake", "dealer_option": "sniff_grupp"},
        "modern_shoving": {"shoving": True},
        "alvensleben_sniffing": {**PRESETS["alvensleben_1859"], "dealer_option": "sniff_alvensleben"},
        "alvensleben_robbing": {**PRESETS["alvensleben_1859"], "robbing": True},
        "alvensleben_hop_and_jump": {**PRESETS["alvensleben_1859"], "hop_and_jump": True},
        "alvensleben_max_bete": {**PRESETS["alvensleben_1859"], "max_bete": 24},
        "meyers_1905_large": {**PRESETS["meyers_1905"], "large_pack": True},
    })

    def validate(self) -> None:
        for name in ("hand_size", "stake", "exchange", "max_bete", "max_players", "bankroll", "session_deals"):
            value = getattr(self, name)
            require(isinstance(value, int) and not isinstance(value, bool), f"{name} must be a whole number")
        require(self.hand_size in (3, 6), f"hand_size={self.hand_size}: 3 (Tippen) or 6 (Loup)")
        require(self.stake > 0, "stake must be positive")
        require(0 <= self.exchange <= self.hand_size, f"exchange={self.exchange}: 0 to {self.hand_size}")
        require(self.max_bete == 0 or self.max_bete >= self.stake, "max_bete: 0 (no limit) or at least the stake")
        require(3 <= self.max_players <= 10, "max_players: 3 to 10")
        most = self.player_range()[1]
        require(most * self.hand_size + 1 <= len(self.pack()),
                f"{most} hands of {self.hand_size} cards do not fit the {len(self.pack())}-card pack")
        require(not (self.trump_from is TrumpFrom.DEALER_LAST and self.dealer_option is not DealerOption.NONE),
                "the dealer's knock and sniffing need a turned trump card (trump_from='turned')")
        require(not (self.trump_from is TrumpFrom.DEALER_LAST and self.robbing),
                "robbing needs a turned trump card (trump_from='turned')")
        require(self.session_deals >= 1, "session_deals must be >= 1")

    # ------------------------------------------------- settlement (the engine and the heuristic both call these)
    def share_per_trick(self, pot: int) -> int:
        """Chips one trick earns from a pot of ``pot``: a third of it, or one counter ("Settlement")."""
        pays = self.trick_pays
        if pays is TrickPays.COUNTER or (pays is TrickPays.COUNTER_THEN_THIRD and pot == self.stake):
            return 1
        return pot // 3

    def simple_bete(self, pot: int) -> int:
        """The bête of a player without a trick: the pot, or the basic stake."""
        return pot if self.bete is Bete.POT else self.stake

    def bete_for(self, pot: int, tricks: int, privileged: bool = False) -> int:
        """What a player with ``tricks`` pays after play: the simple bête without a trick; a dealer who
        knocked or sniffed (``privileged``) pays on her own scale."""
        bete, option = self.simple_bete(pot), self.dealer_option
        if not privileged:
            return bete if tricks == 0 else 0
        if option is DealerOption.KNOCK:  # "double stake" with no trick, "single stake" with one
            return self.stake * max(0, 2 - tricks)
        if option is DealerOption.SNIFF_GRUPP:  # must take two tricks: single bête for one, double for none
            return bete * max(0, 2 - tricks)
        return 2 * bete if tricks == 0 else 0  # Alvensleben: a sniffer without a trick pays a double bête

    def pack(self) -> Pack:
        return FULL_52 if self.large_pack else PIQUET_32

    def player_range(self) -> tuple[int, int]:
        """The rule set's table; the 52-card pack seats up to 10 ("more players with 52")."""
        return 3, (10 if self.large_pack and self.hand_size == 3 else self.max_players)
