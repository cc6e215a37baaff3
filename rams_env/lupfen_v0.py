"""PettingZoo-style module for Lupfen: ``from rams_env import lupfen_v0; env = lupfen_v0.env()``."""

from rams_env.factory import module_functions

env, raw_env, parallel_env = module_functions("lupfen")
