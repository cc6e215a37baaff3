"""rams: reinforcement-learning environments for the Rams group of trick-taking games.

``rams_env.make("toepen", num_players=4)`` returns a PettingZoo AEC environment;
``rams_env.toepen_v0.env()`` is the same in PettingZoo's module style.
"""

from rams_env.factory import make, parallel_env, raw_env
from rams_env.registry import GAMES, make_game

__all__ = ["GAMES", "make", "make_game", "parallel_env", "raw_env"]
__version__ = "0.1.0"
