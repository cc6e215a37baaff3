"""PettingZoo-style module for Toepen: ``from rams_env import toepen_v0; env = toepen_v0.env()``."""

from rams_env.factory import module_functions

env, raw_env, parallel_env = module_functions("toepen")
