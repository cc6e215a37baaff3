"""Whether a loaded checkpoint fits what it is about to be used for: a network, an optimizer, a table.

``torch`` checks a state_dict's shapes in a multi-line message, and an optimizer's state only
by the number of parameter groups: a moment of the wrong shape is accepted and crashes the
first update. A table is checked by its game, its size and its rules, not by the input size
alone: two rule sets can share an observation size, and an agent would then silently play
rules it was never trained on. Every refusal is a one-line :class:`CheckpointError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from agents.checkpoint.format import ADAM_MOMENTS, OPTIMIZER, POLICY, CheckpointError
from agents.checkpoint.general import general_table, is_general
from agents.registry import ALLOW_RULES_MISMATCH

SHOWN = 3
"""Differences named in a message before "and N more"."""

HOW_NOT_WHAT = ("foreach", "fused")
"""An optimizer's settings that choose how torch computes a step, not the step itself: a checkpoint's are not
checked, and the optimizer keeps its own (a run saved with torch's fused Adam resumes on a torch without it, and one
saved without it resumes fused)."""


def _listed(items: list[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def fit_weights(module: torch.nn.Module, state: dict[str, torch.Tensor], path: str | Path) -> None:
    """Load ``state`` into ``module`` once every name and shape is known to match."""
    own = module.state_dict()
    missing, extra = sorted(own.keys() - state.keys()), sorted(state.keys() - own.keys())
    if missing or extra:
        raise CheckpointError(path, f"{POLICY} does not fit the network: missing {_listed(missing) or 'none'}, "
                                    f"unexpected {_listed(extra) or 'none'}")
    for name, tensor in own.items():
        if state[name].shape != tensor.shape:
            raise CheckpointError(path, f"{POLICY}: {name} has shape {tuple(state[name].shape)}, "
                                        f"the network needs {tuple(tensor.shape)}")
    module.load_state_dict(state, strict=True)


def fit_optimizer(optimizer: torch.optim.Optimizer, saved: Any, path: str | Path) -> None:
    """Load Adam's saved state once its groups, settings and moments are known to fit ``optimizer``."""
    params = [p for group in optimizer.param_groups for p in group["params"]]
    groups = saved.get("param_groups") if isinstance(saved, dict) else None
    if not (isinstance(groups, list) and isinstance(saved.get("state"), dict)
            and all(isinstance(g, dict) for g in groups) and len(groups) == len(optimizer.param_groups)):
        raise CheckpointError(path, f"{OPTIMIZER} is not the state of this run's optimizer")
    indices = [i for g in groups for i in (g.get("params") if isinstance(g.get("params"), list) else [None])]
    if indices != list(range(len(params))):
        raise CheckpointError(path, f"{OPTIMIZER} holds {len(indices)} parameters, the network has {len(params)}")
    for mine, theirs in zip(optimizer.param_groups, groups, strict=True):
        _check_settings(mine, theirs, path)
    for index, entry in saved["state"].items():
        _check_moments(index, entry, params, path)
    own = [{key: group[key] for key in HOW_NOT_WHAT if key in group} for group in optimizer.param_groups]
    optimizer.load_state_dict(saved)
    for group, settings in zip(optimizer.param_groups, own, strict=True):
        group.update(settings)


def _check_settings(mine: dict[str, Any], theirs: dict[str, Any], path: str | Path) -> None:
    """Each setting of a saved parameter group (lr, betas, eps...) of the type the optimizer uses."""
    for key, value in mine.items():
        if key == "params" or key in HOW_NOT_WHAT:
            continue
        other = theirs.get(key)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, other))
        if not numbers and type(other) is not type(value):
            raise CheckpointError(path, f"{OPTIMIZER}: setting {key} is {other!r}, expected a {type(value).__name__}")


def _check_moments(index: Any, entry: Any, params: list[torch.Tensor], path: str | Path) -> None:
    if type(index) is not int or not 0 <= index < len(params) or not isinstance(entry, dict):
        raise CheckpointError(path, f"{OPTIMIZER}: state of an unknown parameter {index!r}")
    step = entry.get("step")
    if not (torch.is_tensor(step) and step.numel() == 1):
        raise CheckpointError(path, f"{OPTIMIZER}: parameter {index} has no step count")
    for key in ADAM_MOMENTS:
        moment = entry.get(key)
        if not torch.is_tensor(moment) or moment.shape != params[index].shape:
            shape = tuple(moment.shape) if torch.is_tensor(moment) else moment
            raise CheckpointError(path, f"{OPTIMIZER}: {key} of parameter {index} is {shape}, "
                                        f"the parameter's shape is {tuple(params[index].shape)}")


_ABSENT = object()


def _show(value: Any) -> str:
    return "(no such option)" if value is _ABSENT else str(value)


def rules_differences(recorded: dict[str, Any], rules) -> list[tuple[str, Any, Any]]:
    """(option, trained value, table value) for every option that differs. An option the checkpoint does not
    record was added after it was trained, so it played that option's default."""
    table, default = rules.as_dict(), type(rules)().as_dict()
    return [(key, recorded.get(key, default.get(key, _ABSENT)), table.get(key, _ABSENT))
            for key in sorted(recorded.keys() | table.keys())
            if recorded.get(key, default.get(key, _ABSENT)) != table.get(key, _ABSENT)]


SPEC_HINT = f"add ,{ALLOW_RULES_MISMATCH} to the agent spec to play it anyway"
RUN_HINT = "a run continues with the rules it was trained with"


def check_table(meta: dict[str, Any], game, path: str | Path, allow_rules_mismatch: bool = False,
                hint: str = SPEC_HINT) -> None:
    """Refuse a checkpoint at a table of ``game`` (a rams_env Game) it was not trained for: another game,
    table size or observation layout always; other rules unless ``allow_rules_mismatch`` (``hint`` says how
    to ask for that where it can be asked: an agent spec, not a resumed run). A general checkpoint
    (agents/checkpoint/general.py) plays any table of its game whose layout fits its general space."""
    if meta["game"] != game.name:
        raise CheckpointError(path, f"trained for {meta['game']}, this table plays {game.name}")
    if is_general(meta):  # every table size and rule set of its game: they are inputs of its network
        general_table(meta, game, path)
        return
    players = meta.get("num_players", game.num_players)
    if players != game.num_players:
        raise CheckpointError(path, f"trained for {players} players, this table has {game.num_players}")
    trained = (meta.get("observation_version", game.observation.version), meta["observation_size"],
               meta["action_size"])
    table = (game.observation.version, game.observation.size, game.actions.size)
    differ = rules_differences(meta.get("rules") or {}, game.rules)
    if differ and (trained != table or not allow_rules_mismatch):
        why = f"its {trained[1]} inputs cannot read this table's {table[1]}" if trained != table else hint
        raise CheckpointError(path, "trained with rules " + _listed([f"{k}={_show(a)}" for k, a, _ in differ])
                              + ", this table has " + _listed([f"{k}={_show(b)}" for k, _, b in differ])
                              + f"; {why}")
    if trained != table:
        raise CheckpointError(path, "trained on observation layout version {} ({} inputs, {} actions), this table "
                                    "uses version {} ({} inputs, {} actions)".format(*trained, *table))
