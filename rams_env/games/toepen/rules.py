"""Toepen's options: the reference rules (source 004_1647bc5d8766b13d.txt) and its variations.

Every field cites the section of the source it comes from; docs/rules/toepen.md explains
each one and the decisions taken where the source is silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from rams_env.core.cards import SUITS
from rams_env.core.rules import Rules, require


class KnockTiming(Enum):
    """When a player may knock ("Knocking"; "Advice on skilful play": at any time)."""

    BEFORE_PLAY = "before_play"  # on her turn, before playing each card (the minimum every table allows)
    ANY_TIME = "any_time"  # also in a knock window after every card played and before the first lead


class FoldedWinner(Enum):
    """A player who folded after playing the best card to a trick ("Variations")."""

    KEEPS_TRICK = "keeps_trick"  # she wins it anyway; the lead passes left; on the last trick all still in lose
    CANNOT_WIN = "cannot_win"  # the best card among players still in wins; else by suit precedence


@dataclass(frozen=True)
class ToepenRules(Rules):
    """Toepen / Siwweschrööm rules. Defaults: the main rules of the source, tournament procedure."""

    lives: int = 10
    """Lives per player; losing them all loses the session ("Endgame"; 15 in "Variations", 7 Siwweschrööm)."""
    count_down: bool = False
    """Show lives left instead of lives lost ("Variations"); display only, play is identical."""
    knock_timing: KnockTiming = KnockTiming.BEFORE_PLAY
    """Knock opportunities ("Knocking", "Advice on skilful play")."""
    folded_winner: FoldedWinner = FoldedWinner.KEEPS_TRICK
    """Who wins a trick whose best card was played by a player who then folded ("Variations")."""
    suit_precedence: tuple[str, ...] = ("h", "s", "d", "c")
    """With ``cannot_win``: suit ranking when no player still in followed (de Laaier h s d c; Waalwijk h d s c)."""
    dirty_hands: bool = True
    """Discard an all-A/K/Q/J hand (or bluff one) for a new one, with challenges ("Deal")."""
    announcements: bool = True
    """Three tens whistle, four tens stand; three or four jacks may ("Announcing tens and jacks")."""
    poverty: bool = False
    """Armoede: a player with one life left raises the stake to two before the first lead ("Variations")."""
    play_on: bool = False
    """A player who loses all lives drops out; the last survivor wins the session ("Variations")."""

    PRESETS: ClassVar[dict[str, dict]] = {
        "standard": {},
        "fifteen": {"lives": 15, "count_down": True},
        "any_time": {"knock_timing": "any_time"},
        "laaier": {"folded_winner": "cannot_win", "suit_precedence": ("h", "s", "d", "c")},
        "waalwijk": {"folded_winner": "cannot_win", "suit_precedence": ("h", "d", "s", "c")},
        "armoede": {"poverty": True},
        "play_on": {"play_on": True},
        "siwweschroom": {"lives": 7, "play_on": True, "announcements": False},
    }

    def validate(self) -> None:
        require(isinstance(self.lives, int) and not isinstance(self.lives, bool) and 2 <= self.lives <= 99,
                f"lives={self.lives!r}: a whole number from 2 to 99")
        require(isinstance(self.knock_timing, KnockTiming), f"knock_timing={self.knock_timing!r}")
        require(isinstance(self.folded_winner, FoldedWinner), f"folded_winner={self.folded_winner!r}")
        require(sorted(self.suit_precedence) == sorted(SUITS),
                f"suit_precedence={self.suit_precedence!r}: each of {' '.join(SUITS)} once, highest first")
        for name in ("count_down", "dirty_hands", "announcements", "poverty", "play_on"):
            require(isinstance(getattr(self, name), bool), f"{name} must be true or false")
