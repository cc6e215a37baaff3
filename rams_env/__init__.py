"""rams: reinforcement-learning environments for the Rams group of trick-taking games.

``rams_env.make("toepen", num_players=4)`` returns a PettingZoo AEC environment;
``rams_env.toepen_v0.env()`` is the same in PettingZoo's module style, and
``pettingzoo.make("aec", "rams/toepen-v0")`` through PettingZoo's registry (PettingZoo >= 1.27).
"""

from rams_env import fipsen_v0, lupfen_v0, mauscheln_v0, tippen_v0, toepen_v0
from rams_env.factory import make, parallel_env, raw_env
from rams_env.pz_registry import register_games
from rams_env.registry import GAMES, make_game

__all__ = ["GAMES", "fipsen_v0", "lupfen_v0", "make", "make_game", "mauscheln_v0", "parallel_env", "raw_env",
           "tippen_v0", "toepen_v0"]
__version__ = "0.1.0"

register_games()
