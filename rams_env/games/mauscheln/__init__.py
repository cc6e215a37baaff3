"""Mauscheln / Vierblatt (source: 003_c37dfd1970c91b7f.txt); see docs/rules/mauscheln.md."""

from rams_env.games.mauscheln.game import Mauscheln
from rams_env.games.mauscheln.rules import MauschelnRules, TrickShare
from rams_env.games.mauscheln.state import Bid, MauschelnState, Phase

__all__ = ["Bid", "Mauscheln", "MauschelnRules", "MauschelnState", "Phase", "TrickShare"]
