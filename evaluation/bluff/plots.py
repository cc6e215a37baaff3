"""Plots of a bluff report: winning-chance histograms (knocks vs checks), fold curves, bluff EV."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_all(doc: dict[str, Any], folder: str | Path) -> list[Path]:
    """Write the three figures into ``folder``; returns their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [histograms(doc, folder / "winchance_knock_vs_check.png"), fold_curves(doc, folder / "fold_curves.png"),
            bluff_ev(doc, folder / "bluff_ev.png")]


def _grid(plt, count: int):
    """Up to three panels per row; returns the figure and the panels in reading order."""
    cols = min(3, count)
    rows = -(-count // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows), squeeze=False, sharey=True)
    panels = [ax for row in axes for ax in row]
    for ax in panels[count:]:
        ax.set_visible(False)
    return fig, panels[:count]


def _centres(n: int) -> list[float]:
    return [(i + 0.5) / n for i in range(n)]


def histograms(doc: dict[str, Any], path: Path) -> Path:
    """Per agent: the share of its knocks and of its checks at each estimated winning chance."""
    plt = _pyplot()
    agents = doc["agents"]
    fig, panels = _grid(plt, len(agents))
    for ax, (name, m) in zip(panels, agents.items(), strict=True):
        for kind, colour in (("check", "tab:blue"), ("knock", "tab:red")):
            counts = m["histograms"][kind]
            total = sum(counts) or 1
            ax.bar(_centres(len(counts)), [c / total for c in counts], width=1 / len(counts), alpha=0.5,
                   color=colour, label=f"{kind}s (n={sum(counts)})")
        ax.axvline(doc["thresholds"]["bluff_below"], color="k", linestyle=":", linewidth=1)
        _label_panel(ax, name)
    panels[0].set_ylabel("share of decisions")
    return _save(plt, fig, path)


def fold_curves(doc: dict[str, Any], path: Path) -> Path:
    """Fold rate facing a knock per winning-chance bin, with Wilson 95% intervals."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, m in doc["agents"].items():
        curve = m["folds"]["fold_curve"]
        xs = _centres(len(curve))
        pts = [(x, b) for x, b in zip(xs, curve, strict=True) if b["rate"] is not None]
        if not pts:
            continue
        ys = [b["rate"] for _, b in pts]
        err = [[max(0.0, y - b["lo"]) for y, (_, b) in zip(ys, pts, strict=True)],
               [max(0.0, b["hi"] - y) for y, (_, b) in zip(ys, pts, strict=True)]]
        ax.errorbar([x for x, _ in pts], ys, yerr=err, marker="o", capsize=3, label=name)
    ax.set_xlabel("folder's estimated chance of winning the last trick")
    ax.set_ylabel("fold rate facing a knock")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=7)
    return _save(plt, fig, path)


def bluff_ev(doc: dict[str, Any], path: Path) -> Path:
    """Lives gained (vs an average opponent) after a knock and after a check, per winning-chance bin."""
    plt = _pyplot()
    agents = doc["agents"]
    fig, panels = _grid(plt, len(agents))
    for ax, (name, m) in zip(panels, agents.items(), strict=True):
        curve = m["knocks"]["ev_curve"]
        xs = _centres(len(curve))
        for kind, colour, shift in (("check", "tab:blue", -0.01), ("knock", "tab:red", 0.01)):
            pts = [(x + shift, c[kind]) for x, c in zip(xs, curve, strict=True) if c[kind]["mean"] is not None]
            ax.errorbar([x for x, _ in pts], [c["mean"] for _, c in pts],
                        yerr=[c["ci95"] or 0.0 for _, c in pts], marker="o", capsize=3, color=colour, label=kind)
        ax.axhline(0.0, color="k", linewidth=0.8)
        _label_panel(ax, name)
    panels[0].set_ylabel("lives vs avg. opponent, after")
    return _save(plt, fig, path)


def _label_panel(ax, name: str) -> None:
    """An agent's panel: its name, the winning-chance axis, the legend."""
    ax.set_title(name, fontsize=9)
    ax.set_xlabel("estimated chance of winning the last trick")
    ax.legend(fontsize=7)


def _save(plt, fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
