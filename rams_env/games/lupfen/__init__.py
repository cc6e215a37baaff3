"""Lupfen (source: 002_2dae4dad0cbb3ec9.txt); see docs/rules/lupfen.md."""

from rams_env.games.lupfen.game import Lupfen
from rams_env.games.lupfen.rules import LupfenRules, SessionEnd
from rams_env.games.lupfen.state import Bid, LupfenState, Phase, Round

__all__ = ["Bid", "Lupfen", "LupfenRules", "LupfenState", "Phase", "Round", "SessionEnd"]
