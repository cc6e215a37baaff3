"""Environment factories: the usual PettingZoo wrappers around the one generic env."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from rams_env.env import Episode, IllegalMode, RamsEnv
from rams_env.registry import make_game

ENV_KEYWORDS = ("episode", "random_carry", "illegal_action", "illegal_reward", "render_mode", "render_seat")


def raw_env(game: str, num_players: int | None = None, **kwargs: Any) -> RamsEnv:
    """The unwrapped environment; ``kwargs`` mixes env keywords and rule options.

    A masked-out action raises :class:`~rams_env.env.IllegalActionError` unless ``illegal_action="penalty"``.
    """
    env_kwargs = {k: kwargs.pop(k) for k in ENV_KEYWORDS if k in kwargs}
    session = Episode(env_kwargs.get("episode", Episode.DEAL)) is Episode.SESSION
    return RamsEnv(make_game(game, num_players, session=session, **kwargs), **env_kwargs)


def make(game: str, num_players: int | None = None, **kwargs: Any):
    """``make("toepen", num_players=4, preset="siwweschroom", episode="session")``.

    The environment itself, unwrapped: rams checks actions and the call order itself
    (step, observe, render or agent_iter before reset raise PettingZoo's errors), so
    PettingZoo's order-enforcing wrapper, which cost as much per decision as the rules,
    is not added; its assert-based checks would vanish under ``-O`` anyway. As PettingZoo
    classic's ``env()`` does, a masked-out action ends the episode with ``illegal_reward``
    (and an :class:`~rams_env.env.IllegalActionWarning`); ``illegal_action="raise"`` refuses it.
    """
    kwargs.setdefault("illegal_action", IllegalMode.PENALTY)
    return raw_env(game, num_players, **kwargs)


def parallel_env(game: str, num_players: int | None = None, **kwargs: Any):
    """Parallel API view: each step applies the action of the agent to act."""
    return turn_based_aec_to_parallel(make(game, num_players, **kwargs))


def module_functions(game: str):
    """``env``, ``raw_env``, ``parallel_env`` for a versioned module like ``toepen_v0``."""

    def env_fn(**kwargs: Any):
        return make(game, **kwargs)

    def raw_fn(**kwargs: Any) -> RamsEnv:
        return raw_env(game, **kwargs)

    def parallel_fn(**kwargs: Any):
        return parallel_env(game, **kwargs)

    return env_fn, raw_fn, parallel_fn
