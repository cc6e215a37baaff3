"""The games of the suite: adding a game is one line here plus its module in games/."""

from __future__ import annotations

import importlib
from typing import Any

from rams_env.core.game import Game
from rams_env.core.rules import RulesError

GAMES: dict[str, str] = {
    "toepen": "rams_env.games.toepen:Toepen",
    "mauscheln": "rams_env.games.mauscheln:Mauscheln",
    "lupfen": "rams_env.games.lupfen:Lupfen",
    "tippen": "rams_env.games.tippen:Tippen",
    "fipsen": "rams_env.games.fipsen:Fipsen",
}
"""Game name -> "module:class" (imported lazily, so importing rams_env stays cheap)."""


def game_class(name: str) -> type[Game]:
    """The Game class registered under ``name``."""
    try:
        target = GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def make_game(name: str, num_players: int | None = None, *, preset: str | None = None,
              session: bool = False, **options: Any) -> Game:
    """A Game with validated rules: ``make_game("toepen", 4, preset="siwweschroom")``."""
    cls = game_class(name)
    for alias in cls.preset_aliases:
        if alias in options:
            if preset is not None:
                raise RulesError(f"give the preset once: preset={preset!r} and {alias}={options[alias]!r}")
            preset = options.pop(alias)
    rules = cls.rules_type.build(preset, **options)
    return cls(num_players, rules, session=session)
