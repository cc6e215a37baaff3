"""What the page offers to choose from: every game, its presets and table sizes, agents to seat."""

from __future__ import annotations

import functools
from typing import Any

import rams_env
from agents.registry import heuristic_class, pretrained_path


def agent_choices(game) -> list[str]:
    """Agent specs that play ``game`` here: random, the heuristic and its styles, the shipped agent if any.
    Any other spec (``checkpoint:<path.zip>``, ``heuristic:bluffer,bluff_rate=0.3``) may be typed."""
    specs = ["heuristic", *(f"heuristic:{style}" for style in heuristic_class(game.name).STYLES if style != "default")]
    if pretrained_path(game.name).exists() or pretrained_path(game.name, game.num_players).exists():
        specs.append("pretrained")
    return [*specs, "random"]


@functools.lru_cache(maxsize=1)
def catalog() -> dict[str, Any]:
    games = {}
    for name in sorted(rams_env.GAMES):
        game = rams_env.make_game(name)
        lo, hi = game.player_range()
        games[name] = {"presets": list(game.rules_type.preset_names()), "players": [lo, hi],
                       "default_players": game.num_players, "agents": agent_choices(game), "unit": game.score_unit}
    return {"games": games}
