"""PettingZoo-style module for Fipsen: ``from rams_env import fipsen_v0; env = fipsen_v0.env()``."""

from rams_env.factory import module_functions

env, raw_env, parallel_env = module_functions("fipsen")
