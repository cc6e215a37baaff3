"""The strength gate as a picture: every cell of a report coloured by its verdict (``rams strength --plot``).

A full gate is hundreds of cells (Tippen 456, Toepen 576), and its markdown is a long table to read. The picture
shows where an agent passes at a glance: one panel per way round, a row per table, a column per scripted player,
each cell green where its 95% interval lies above zero, red where it lies below, grey where it holds zero, with the
mean written in it. A paired comparison (``--compare``) is drawn the same way, its difference's cells marked better,
level or worse.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evaluation.kept_samples import file_digest
from evaluation.strength import WAYS, StrengthReport, cell_verdict, verdict

VERDICT_COLOURS = ("#4caf50", "#e0e0e0", "#e57373")
"""Indexed by :func:`~evaluation.strength.cell_verdict`: above zero, level, below zero (better, level, worse for a
paired difference)."""

_WAY_TITLES = {"agent_alone": "one agent among scripted players", "scripted_alone": "one scripted player among agents"}


def plot_gate(report: StrengthReport, path: str | Path, paired: bool = False, source: str | None = None) -> Path:
    """Draw ``report``'s cells to ``path`` (PNG); ``paired``: a :func:`~evaluation.strength.paired` difference.
    ``source`` goes into the PNG's ``Source`` text (``--kept``: the kept file and its SHA-256, so a picture that no
    longer shows its file can be told)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    plan = report.plan
    rows, columns = len(plan.tables), len(plan.opponents)
    fig, axes = plt.subplots(1, len(WAYS), sharey=True, squeeze=False,
                             figsize=(2.2 + 1.1 * columns * len(WAYS), 1.6 + 0.24 * rows))
    for w, (way, ax) in enumerate(zip(WAYS, axes[0], strict=True)):
        _panel(ax, report, w)
        ax.set_title(f"{way}\n({_WAY_TITLES[way]})", fontsize=9)
    axes[0][0].set_yticks(range(rows), [f"{preset}:{n}" for preset, n in plan.tables], fontsize=7)
    names = ("better", "level", "worse") if paired else ("above zero", "level", "below zero")
    counts = verdict(report)
    fig.legend(handles=[Patch(color=colour, label=f"{name}: {count}")
                        for colour, name, count in zip(VERDICT_COLOURS, names, counts, strict=True)],
               loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(f"{plan.game}: {plan.agent}, {plan.deals} deal seeds, {report.unit} per deal (95% intervals)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    out = Path(path)
    fig.savefig(out, dpi=110, metadata={"Source": source} if source else None)
    plt.close(fig)
    return out


def png_source(path: str | Path) -> str | None:
    """The ``Source`` text :func:`plot_gate` wrote into a PNG (None: none)."""
    from PIL import Image

    with Image.open(path) as image:
        return image.text.get("Source")


def kept_source(kept: str | Path) -> str:
    """What a picture drawn from a kept file names as its source: the file's name and SHA-256."""
    return f"{Path(kept).name} sha256:{file_digest(kept)}"


def verdict_grid(report: StrengthReport, way: int) -> np.ndarray:
    """(tables, opponents) of one way: each cell's :func:`~evaluation.strength.cell_verdict`, the index of its
    colour in :data:`VERDICT_COLOURS`."""
    plan = report.plan
    return np.array([[cell_verdict(report.cells[(t, o, way)]) for o in range(len(plan.opponents))]
                     for t in range(len(plan.tables))], dtype=int)


def _panel(ax, report: StrengthReport, way: int) -> None:
    """One way's grid: a coloured square per (table, opponent) with its mean."""
    from matplotlib.colors import ListedColormap

    plan = report.plan
    for (t, o, w), cell in report.cells.items():
        if w == way:
            ax.text(o, t, _mean(cell.mean), ha="center", va="center", fontsize=6)
    ax.imshow(verdict_grid(report, way), cmap=ListedColormap(VERDICT_COLOURS), vmin=0, vmax=len(VERDICT_COLOURS) - 1,
              aspect="auto", interpolation="nearest")
    ax.set_xticks(range(len(plan.opponents)), [o.removeprefix("heuristic:") for o in plan.opponents],
                  rotation=45, ha="right", fontsize=7)
    ax.set_xticks(np.arange(-0.5, len(plan.opponents)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(plan.tables)), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.tick_params(which="minor", length=0)


def _mean(mean: float) -> str:
    """Two decimals, one where the number is large (a pot game's edge over random)."""
    return f"{mean:+.1f}" if abs(mean) >= 10 else f"{mean:+.2f}" if abs(mean) >= 0.1 else f"{mean:+.3f}"
