"""PettingZoo-style module for Mauscheln: ``from rams_env import mauscheln_v0; env = mauscheln_v0.env()``."""

from rams_env.factory import module_functions

env, raw_env, parallel_env = module_functions("mauscheln")
