"""The batched, compiled engine: B deals of a game stepped at once by numba kernels.

``rams_env.vector.make("toepen", num_envs=1024, num_players=4)`` returns an environment whose
observations and action ids are those of ``rams_env.make`` bit for bit, so a policy trained on
one plays the other. numba is imported here only (``pip install rams[vector]``); importing
``rams_env`` never loads it. See docs/vector.md.
"""

from __future__ import annotations

import importlib
from typing import Any

from rams_env.core.rules import RulesError
from rams_env.registry import make_game
from rams_env.vector.cache import use_cache_of_these_sources

use_cache_of_these_sources()  # before any kernel is defined: an edited source never runs from a stale cache

from rams_env.vector.batch import BatchEnv, Episode, IllegalActionsError, IllegalMode  # noqa: E402

__all__ = ["GAMES", "BatchEnv", "Episode", "IllegalActionsError", "IllegalMode", "make"]

GAMES: dict[str, str] = {
    "toepen": "rams_env.vector.toepen:ToepenBatch",
    "lupfen": "rams_env.vector.lupfen:LupfenBatch",
    "fipsen": "rams_env.vector.fipsen:FipsenBatch",
    "tippen": "rams_env.vector.tippen:TippenBatch",
    "mauscheln": "rams_env.vector.mauscheln:MauschelnBatch",
}
"""Game name -> batched environment class (the other games follow, one line each)."""


def make(game: str, num_envs: int = 1024, num_players: int | None = None, *, preset: str | None = None,
         episode: str = "deal", random_carry: bool = False, illegal_action: str = "raise",
         illegal_reward: float = -1.0, **rules: Any) -> BatchEnv:
    """``num_envs`` deals of ``game`` with the rules of ``rams_env.make(game, num_players, preset=..., **rules)``.

    ``episode`` ``"deal"`` or ``"session"``; ``random_carry`` starts episodes from random carried-over
    state (lives); ``illegal_action="penalty"`` ends a deal whose action is masked out with
    ``illegal_reward`` for the offender instead of refusing the batch.
    """
    if game not in GAMES:
        raise RulesError(f"game {game!r} has no batched engine yet; batched games: {', '.join(GAMES)}")
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}: a whole number >= 1")
    session = Episode(episode) is Episode.SESSION
    reference = make_game(game, num_players, preset=preset, session=session, **rules)
    module, cls = GAMES[game].split(":")
    env_cls = getattr(importlib.import_module(module), cls)
    return env_cls(reference, num_envs, episode=episode, random_carry=random_carry,
                   illegal_action=illegal_action, illegal_reward=illegal_reward)
