"""The page's requests checked before anything is done with them: one clear error, nothing changed."""

from __future__ import annotations

import json
from typing import Any

from rams_env.core.keyvalue import parse_assignments
from web.table import Setup

SETUP_KEYS = {"game": str, "preset": (str, type(None)), "players": (int, type(None)), "seat": (int, type(None)),
              "opponents": list, "seed": (int, type(None)), "pace": (int, float), "rules": str}
"""What ``POST /api/tables`` takes (docs/web.md); ``game`` is required, ``seat`` null spectates, ``rules`` is
``key=value`` text (``"lives=5 knock_timing=any_time"``) as on the command line."""
PACE_RANGE = (0.0, 10.0)
"""Seconds between two agents' moves."""
DEFAULT_PACE = 0.7
MOVE_TYPES = ("move", "next")


class RequestError(ValueError):
    """A request or message that is malformed (not JSON, a missing or mistyped field)."""


def _typed(data: dict[str, Any], key: str) -> Any:
    value = data.get(key)
    kinds = SETUP_KEYS[key]
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise RequestError(f"{key!r} has the wrong type: {value!r}")
    return value


def read_setup(data: Any) -> tuple[Setup, float]:
    """A table's set-up and pace from ``POST /api/tables``'s body."""
    if not isinstance(data, dict):
        raise RequestError("the body must be a JSON object such as {\"game\": \"toepen\"}")
    unknown = sorted(set(data) - set(SETUP_KEYS))
    if unknown:
        raise RequestError(f"unknown field {', '.join(map(repr, unknown))}; fields: {', '.join(SETUP_KEYS)}")
    if "game" not in data:
        raise RequestError("name the 'game'")
    values = {key: _typed(data, key) for key in data}
    opponents = values.get("opponents", [])
    if not all(isinstance(o, str) and 0 < len(o) <= 300 for o in opponents) or len(opponents) > 12:
        raise RequestError("'opponents' must be a list of agent specs such as [\"heuristic\", \"random\"]")
    pace = float(values.get("pace", DEFAULT_PACE))
    if not PACE_RANGE[0] <= pace <= PACE_RANGE[1]:
        raise RequestError(f"'pace' must be {PACE_RANGE[0]} to {PACE_RANGE[1]} seconds, got {pace}")
    seed = values.get("seed")
    if seed is not None and not 0 <= seed < 2**31:
        raise RequestError(f"'seed' must be 0 to {2**31 - 1}, got {seed}")
    rules = tuple(sorted(parse_assignments(values.get("rules", "").split(), "rule option", RequestError).items()))
    setup = Setup(values["game"], values.get("players"), values.get("preset") or None, tuple(opponents),
                  values.get("seat", 0), seed, rules)
    return setup, pace


def read_move(text: Any, limit: int) -> tuple[str, str | None]:
    """A WebSocket message from the page: ``{"type": "move", "action": label}`` or ``{"type": "next"}``."""
    if not isinstance(text, str) or len(text) > limit:
        raise RequestError("a message is a JSON text of a few bytes")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RequestError(f"the message is not JSON ({err})") from None
    if not isinstance(data, dict) or data.get("type") not in MOVE_TYPES:
        raise RequestError(f"a message is an object with 'type' one of {', '.join(MOVE_TYPES)}, got {text[:80]!r}")
    if data["type"] == "next":
        if set(data) != {"type"}:
            raise RequestError("a 'next' message has no other field")
        return "next", None
    if set(data) != {"type", "action"} or not isinstance(data["action"], str):
        raise RequestError("a move is {\"type\": \"move\", \"action\": label}, e.g. {\"type\": \"move\", "
                           "\"action\": \"Ah\"}")
    return "move", data["action"]
