"""``evaluation.png`` of a training run: the advantage over each baseline, and the Elo ratings, against steps.

People look at a run's course rather than read ``results.json``; the ratings panel shows
whether the learner still climbs past its own snapshots when the advantage curves are flat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

LEARNER = "learner"
"""The rated name of the live policy (training/train.py rates it under this name)."""


def plot_history(history: list[dict[str, Any]], baselines: list[str], game: str, path: Path) -> bool:
    """Write the plot to ``path``; False when matplotlib is missing (the run goes on without it)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rated = [h for h in history if h.get("ratings")]
    fig, axes = plt.subplots(1, 2 if rated else 1, figsize=(11 if rated else 6, 3.5), squeeze=False)
    _advantages(axes[0][0], history, baselines, game)
    if rated:
        _ratings(axes[0][1], rated, baselines)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _advantages(ax, history: list[dict[str, Any]], baselines: list[str], game: str) -> None:
    for baseline in baselines:
        points = [(h["steps"], r["mean"], r["ci95"]) for h in history for r in h["results"]
                  if r["baseline"] == baseline]
        if points:
            x, y, e = zip(*points, strict=True)
            ax.errorbar(x, y, yerr=e, marker="o", capsize=3, label=f"vs {baseline}")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("advantage per deal over the baseline")
    ax.set_title(f"{game}: evaluation during training")
    ax.legend()


def _ratings(ax, rated: list[dict[str, Any]], baselines: list[str]) -> None:
    """The learner's and the baselines' ratings at each evaluation (random = 0, the anchor)."""
    for name in [LEARNER, *baselines]:
        points = [(h["steps"], h["ratings"][name]) for h in rated if name in h["ratings"]]
        if points:
            x, y = zip(*points, strict=True)
            ax.plot(x, y, marker="o", label=name, lw=2 if name == LEARNER else 1)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("Elo rating (random = 0)")
    ax.set_title("ratings at each evaluation")
    ax.legend()
