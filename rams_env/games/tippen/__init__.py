"""Tippen / Dreiblatt / Drei Karten / Loup (source: 000_87480ce3960bd8a6.txt); see docs/rules/tippen.md."""

from rams_env.games.tippen.game import Tippen
from rams_env.games.tippen.rules import Bete, DealerOption, PlayMode, TippenRules, TrickPays, TrumpFrom
from rams_env.games.tippen.state import Bid, Phase, TippenState

__all__ = ["Bete", "Bid", "DealerOption", "Phase", "PlayMode", "Tippen", "TippenRules", "TippenState",
           "TrickPays", "TrumpFrom"]
