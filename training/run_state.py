"""What ``--resume`` reads from ``last.zip`` besides the weights, checked before the run uses any of it.

The pool's snapshot list, the evaluation history and the warm-start metrics are JSON a user
(or a damaged disk) may have changed; a wrong type there used to surface as a traceback deep
in the pool, the plot or TensorBoard logging. Each is checked here against the shape
``Run.meta`` writes, and a bad one is a one-line :class:`CheckpointError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.checkpoint.format import META, CheckpointError


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _numbers_by_name(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and _number(v) for k, v in value.items())


def _entry(value: Any) -> bool:
    """One evaluation: its steps and a result per baseline (training/train.py ``Run.evaluate``)."""
    return (isinstance(value, dict) and _count(value.get("steps")) and isinstance(value.get("results"), list)
            and all(isinstance(r, dict) and isinstance(r.get("baseline"), str)
                    and all(_number(r.get(k)) for k in ("mean", "ci95", "payoff")) for r in value["results"])
            and all(_numbers_by_name(value.get(k, {})) for k in ("ratings", "ratings_fisher_se",
                                                                   "snapshot_winrates")))


def _result(value: Any) -> bool:
    """A snapshot's record against the learner: deals played and a win rate in [0, 1]."""
    return (isinstance(value, dict) and _count(value.get("deals", 0))
            and _number(value.get("rate", 0.5)) and 0 <= value.get("rate", 0.5) <= 1)


def _pool(value: Any) -> bool:
    """The pool: the kept snapshots' steps (distinct) and their results by steps."""
    if value is None:
        return True
    if not isinstance(value, dict):
        return False
    steps, results = value.get("snapshots", []), value.get("results", {})
    return (isinstance(steps, list) and all(_count(s) for s in steps) and len(set(steps)) == len(steps)
            and isinstance(results, dict) and all(_result(r) for r in results.values()))


CHECKS = {
    "history": ("a list of evaluations (steps, results per baseline)",
                lambda v: isinstance(v, list) and all(_entry(e) for e in v)),
    "evaluation": ("an evaluation or null", lambda v: v is None or _entry(v)),
    "pool": ("the pool's snapshot steps (distinct counts) and their results", _pool),
    "warm_start": ("warm-start metrics by name or null", lambda v: v is None or _numbers_by_name(v)),
}
"""Key of ``meta.json`` -> (what it must be, the check). Absent keys are fine: older checkpoints lack some."""


def check_run_meta(meta: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """``meta`` if every run field it has is well-formed; else a CheckpointError naming the first bad one."""
    for key, (expected, check) in CHECKS.items():
        if key in meta and not check(meta[key]):
            raise CheckpointError(path, f"{META}: {key} must be {expected}")
    return meta
