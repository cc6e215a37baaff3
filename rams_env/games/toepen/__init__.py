"""Toepen / Siwweschrööm (source: 004_1647bc5d8766b13d.txt); see docs/rules/toepen.md."""

from rams_env.games.toepen.game import Toepen
from rams_env.games.toepen.rules import FoldedWinner, KnockTiming, ToepenRules
from rams_env.games.toepen.state import Phase, Signal, ToepenState

__all__ = ["FoldedWinner", "KnockTiming", "Phase", "Signal", "Toepen", "ToepenRules", "ToepenState"]
