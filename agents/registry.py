"""Agents by name: one spec string for every command, config and test.

    random                         the seeded uniform-random agent
    heuristic                      the game's rule-based player, default style
    heuristic:<style>              a named style of it (e.g. Toepen's ``cautious``, ``bluffer``)
    heuristic:<style>,key=value    a style with parameters overridden (``heuristic:bluffer,bluff_rate=0.3``)
    heuristic:<file.yaml>          parameters from a YAML file (a mapping, optionally with ``style:``)
    checkpoint:<path.zip>          a trained checkpoint (weights only; see agents/checkpoint/format.py)
    pretrained                     the agent shipped for the game (agents/pretrained/): the general one,
                                   <game>.zip, at any table size and preset; else <game>_<n>p.zip at its table
    py:<module>:<function>         an agent of your own: function(game) returns a factory seed -> agent
    search[,worlds=N,confidence=T,model=<style>]:<spec>
                                   <spec> improved at play time by rollouts over re-deals of the hidden cards
                                   (agents/search.py; slower, stronger; e.g. ``search:pretrained``)
    <checkpoint spec>,allow_rules_mismatch
                                   play it under rules it was not trained with (same input and action sizes);
                                   without it such a table is refused, naming the options that differ

The Game object is passed to every factory because the rules are public knowledge (rank
orders, trump rules, action labels); agents never see the State.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from agents.base import Agent
from agents.random_agent import RandomAgent
from rams_env.core.keyvalue import parse_assignments

ALLOW_RULES_MISMATCH = "allow_rules_mismatch"
"""Checkpoint-spec option: play under rules the checkpoint was not trained with (sizes must still match)."""

PY_PREFIX = "py:"
"""Spec prefix of an agent of your own: ``py:<module>:<function>``."""

SEARCH_PREFIX = "search"
"""The first word of a search agent's spec (agents/search.py): ``search:<spec>`` or ``search,<options>:<spec>``."""

AgentFactory = Callable[[int | None], Agent]
"""Builds a fresh agent from a seed (one per seat: agents may keep per-deal memory)."""

HEURISTICS: dict[str, str] = {
    "toepen": "agents.heuristics.toepen:ToepenHeuristic",
    "tippen": "agents.heuristics.tippen:TippenHeuristic",
    "mauscheln": "agents.heuristics.mauscheln:MauschelnHeuristic",
    "lupfen": "agents.heuristics.lupfen:LupfenHeuristic",
    "fipsen": "agents.heuristics.fipsen:FipsenHeuristic",
}
"""Game name -> "module:class" of its heuristic player (imported lazily)."""

PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"


class AgentSpecError(ValueError):
    """An agent spec that names no known agent, style or parameter."""


def heuristic_class(game: str) -> type:
    """The heuristic player class of ``game``."""
    try:
        module, cls = HEURISTICS[game].split(":")
    except KeyError:
        raise AgentSpecError(f"no heuristic player for game {game!r}; games: {', '.join(HEURISTICS)}") from None
    return getattr(importlib.import_module(module), cls)


def parse_params(items: list[str]) -> dict[str, Any]:
    """``["bluff_rate=0.3", "knock=true"]`` -> typed values (YAML scalars; rams_env/core/keyvalue.py)."""
    return parse_assignments(items, "agent parameter", AgentSpecError)


def _heuristic_factory(game, arg: str) -> AgentFactory:
    cls = heuristic_class(game.name)
    parts = [p for p in arg.split(",") if p] if arg else []
    style, params = "default", {}
    if parts and "=" not in parts[0]:
        first = parts.pop(0)
        if first.endswith((".yaml", ".yml")):
            params = _yaml_params(first)
            style = params.pop("style", "default")
        else:
            style = first
    params.update(parse_params(parts))
    cls.validate(style, params)  # raises AgentSpecError naming the bad style or key
    name = "heuristic" if (style == "default" and not params) else f"heuristic:{arg}"
    return lambda seed: cls(game, style=style, seed=seed, name=name, **params)


def _yaml_params(path: str) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text())
    except OSError as err:
        raise AgentSpecError(f"cannot read agent parameters {path}: {err}") from None
    if not isinstance(data, dict):
        raise AgentSpecError(f"{path}: expected a mapping of parameters")
    return data


def _checkpoint_factory(game, path: str, allow_rules_mismatch: bool) -> AgentFactory:
    from agents.checkpoint_agent import CheckpointAgent

    agent = CheckpointAgent(path)  # load once, validate once; the policy is stateless
    agent.check_table(game, allow_rules_mismatch)
    return lambda seed: agent


def _py_factory(spec: str, game) -> AgentFactory:
    """``py:<module>:<function>``: an agent of your own; ``function(game)`` returns a factory ``seed -> agent``
    (importable by name, so worker processes can build it too)."""
    module, _, name = spec[len(PY_PREFIX):].partition(":")
    try:
        builder = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as err:
        raise AgentSpecError(f"agent {spec!r}: cannot import {name!r} from {module!r} ({err})") from None
    return builder(game)


def split_checkpoint_option(spec: str) -> tuple[str, bool]:
    """``checkpoint:x.zip,allow_rules_mismatch`` -> (``checkpoint:x.zip``, True); other specs unchanged."""
    base, sep, option = spec.rpartition(",")
    return (base, True) if sep and option == ALLOW_RULES_MISMATCH else (spec, False)


def pretrained_path(game: str, num_players: int | None = None) -> Path:
    """Where a shipped checkpoint of ``game`` lives: the general agent (no ``num_players``), or the one trained at
    ``num_players`` (either may not exist)."""
    suffix = f"_{num_players}p" if num_players else ""
    return PRETRAINED_DIR / f"{game}{suffix}.zip"


def pretrained_for(game) -> Path:
    """The shipped agent for a table of ``game`` (a rams_env Game): the game's general agent if there is one
    (it plays every table size and preset), else the one trained at this table size."""
    candidates = [pretrained_path(game.name), pretrained_path(game.name, game.num_players)]
    found = next((path for path in candidates if path.exists()), None)
    if found is None:
        raise AgentSpecError(f"no pretrained agent for {game.name} with {game.num_players} players (neither "
                             f"{candidates[0].name} nor {candidates[1].name} in {PRETRAINED_DIR})")
    return found


def agent_file(spec: str, game) -> Path | None:
    """The checkpoint file ``spec`` plays at a table of ``game`` (None: a scripted or ``py:`` agent), read as
    :func:`agent_factory` reads it: kept measurements name the weights they measured by it."""
    if spec.startswith(PY_PREFIX):
        return None
    if is_search_spec(spec):
        from agents.search import parse_search_spec

        return agent_file(parse_search_spec(spec).base, game)
    path = _checkpoint_path(split_checkpoint_option(spec)[0], game)
    return None if path is None else Path(path)


def _checkpoint_path(spec: str, game) -> str | None:
    """The checkpoint a spec (its option split off) names at a table of ``game``, as given (None: a scripted agent
    or no checkpoint spec): the one reading of ``pretrained``, ``checkpoint:<path>`` and ``<path>.zip``."""
    kind, _, arg = spec.partition(":")
    if kind == "heuristic" or (kind == "random" and not arg):
        return None
    if kind == "pretrained" and not arg:
        return str(pretrained_for(game))
    if kind == "checkpoint" and arg:
        return arg
    return spec if spec.endswith(".zip") else None


def agent_factories(specs: Iterable[str], game) -> dict[str, AgentFactory]:
    """One factory per distinct spec, by spec (a checkpoint is loaded once, however many seats play it)."""
    return {spec: agent_factory(spec, game) for spec in dict.fromkeys(specs)}


def agent_factory(spec: str, game) -> AgentFactory:
    """THE way from a spec to agents: a factory for the agent named by ``spec`` at a table of ``game`` (a
    rams_env Game). Every command, config and evaluator goes through it (or :func:`agent_factories`)."""
    if spec.startswith(PY_PREFIX):
        return _py_factory(spec, game)
    if is_search_spec(spec):
        from agents.search import search_factory  # it builds its base through this function

        return search_factory(spec, game)
    spec, allow = split_checkpoint_option(spec)
    kind, _, arg = spec.partition(":")
    if allow and not (kind in ("checkpoint", "pretrained") or spec.endswith(".zip")):
        raise AgentSpecError(f"{ALLOW_RULES_MISMATCH} applies to checkpoint and pretrained agents, not {spec!r}")
    if kind == "random" and not arg:
        return lambda seed: RandomAgent(seed, name="random")
    if kind == "heuristic":
        return _heuristic_factory(game, arg)
    if (path := _checkpoint_path(spec, game)) is not None:
        return _checkpoint_factory(game, path, allow)
    raise AgentSpecError(f"unknown agent {spec!r}; use random, heuristic[:style[,key=value...]], "
                         f"checkpoint:<path.zip>[,{ALLOW_RULES_MISMATCH}], pretrained[,{ALLOW_RULES_MISMATCH}] "
                         f"py:<module>:<function> or search[,option=value...]:<spec>")


def is_search_spec(spec: str) -> bool:
    """Whether ``spec`` names a search agent (agents/search.py): ``search:<spec>`` or ``search,<options>:<spec>``."""
    return spec.partition(":")[0].partition(",")[0] == SEARCH_PREFIX
