"""PettingZoo-style module for Tippen: ``from rams_env import tippen_v0; env = tippen_v0.env()``."""

from rams_env.factory import module_functions

env, raw_env, parallel_env = module_functions("tippen")
