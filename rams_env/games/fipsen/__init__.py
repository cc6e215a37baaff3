"""Fipsen: Thedinghausen, Grossenaspe, Prisdorf, Anseggerfips, Duttfips (source: 001_f2515c7741548cc2.txt)."""

from rams_env.games.fipsen.game import Fipsen
from rams_env.games.fipsen.rules import Auction, FipsenRules, Variant
from rams_env.games.fipsen.state import FipsenState, Phase

__all__ = ["Auction", "Fipsen", "FipsenRules", "FipsenState", "Phase", "Variant"]
