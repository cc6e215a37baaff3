"""What both trainers (training/train.py, training/batched/run.py) log and write about their evaluations:
TensorBoard scalars of an evaluation, ``results.json``, ``evaluation.png`` and the printed table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agents.checkpoint.atomic import write_text
from evaluation.duplicate import MatchResult, format_table
from training.run_plot import plot_history


def log_evaluation(log, entry: dict[str, Any]) -> None:
    """A history entry as scalars through ``log.record(key, value)``: ``eval/<baseline>_*``, ``ratings/<agent>``,
    ``pool/*_winrate``, and per table (``eval_tables/<table>/<baseline>_mean``) when the entry has tables."""
    for r in entry["results"]:
        mean, ci95 = r["mean"], r["ci95"]
        for key, value in (("mean", mean), ("ci95", ci95), ("lower", mean - ci95), ("upper", mean + ci95),
                           ("payoff", r["payoff"])):
            log.record(f"eval/{tag(r['baseline'])}_{key}", value)
    for table, results in entry.get("tables", {}).items():
        for r in results:
            log.record(f"eval_tables/{tag(table)}/{tag(r['baseline'])}_mean", r["mean"])
    for name, rating in entry.get("ratings", {}).items():
        log.record(f"ratings/{tag(name)}", rating)
    for steps, rate in entry.get("snapshot_winrates", {}).items():
        log.record(f"pool/snapshot_{steps}_winrate", rate)


def tag(spec: str) -> str:
    """An agent spec as a TensorBoard tag (``heuristic:bluffer,k=1`` -> ``heuristic_bluffer_k_1``)."""
    return re.sub(r"[^\w.-]+", "_", spec).strip("_")


def write_results(out: Path, game: str, steps: int, seconds: float, results: list[MatchResult],
                  history: list[dict[str, Any]], baselines: list[str], **extra: Any) -> None:
    """``results.json`` (atomic) and ``evaluation.png`` of a finished run."""
    summary = {"game": game, "steps": int(steps), "seconds": round(seconds, 1),
               "final": [r.as_dict() for r in results], "history": history, **extra}
    write_text(out / "results.json", json.dumps(summary, indent=2))
    plot_history(history, baselines, game, out / "evaluation.png")


def results_table(results: list[MatchResult], game: str, steps: int, unit: str, note: str = "") -> str:
    """The final evaluation as the printed table."""
    return format_table(results, f"{game}: learner after {steps} steps{note} vs baselines "
                                 f"(duplicate deals, every seat; advantage and payoffs in {unit})")
