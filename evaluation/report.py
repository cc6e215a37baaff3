"""A tournament's results as one JSON-able summary, and that summary as console text, markdown and plots.

Everything is formatted from the summary dict (what ``--json`` writes), so a table can be
regenerated from a saved JSON file without replaying a deal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from evaluation.duplicate import estimate
from evaluation.ratings import fit_ratings, outcomes
from evaluation.tournament import Tournament

SCHEME = ("each deal seed is played, for every pair (A, B), with A in one seat and B in the others and with "
          "B in one seat and A in the others, rotated through every seat; a sample is the deal's mean over "
          "these seatings of (A's mean seat payoff - B's), so card luck cancels; 95% t intervals over deal seeds")


LEGEND = {
    "payoff": "each agent's mean payoff per seat and episode, in the game's units (Toepen: minus lives lost; "
              "pot games: chips), over all its games",
    "field": "each agent's advantage per episode averaged over its opponents (each opponent weighs the same)",
    "matrix": "matrix[i][j]: agent i's advantage per episode over agent j; win_share: share of deal seeds i won",
    "session_win_rate": "each agent's share of session wins per seat (ties split); a fair share is 1/players",
    "ratings": "Bradley-Terry on duplicate-deal wins, Elo scale, anchor = 0, bootstrap over deal seeds",
    "estimates": "mean, ci95 (half-width), low, high, n (deal seeds)",
}


def _signed(t: Tournament, i: int, j: int) -> np.ndarray:
    """Per-deal advantage of agent ``i`` over agent ``j``."""
    p = t.pairs.index((min(i, j), max(i, j)))
    return t.advantage[:, p] if i < j else -t.advantage[:, p]


def field_samples(t: Tournament, i: int) -> np.ndarray:
    """Per-deal advantage of ``i`` averaged over all its opponents (each opponent weighs the same)."""
    return np.mean([_signed(t, i, j) for j in range(len(t.names)) if j != i], axis=0)


def summarize(t: Tournament, bootstrap: int = 200) -> dict[str, Any]:
    """Everything a reader needs: the setting, the scheme, estimates, the pairwise matrix and ratings."""
    s, m = t.plan.setting, len(t.names)
    matrix: list[list[dict[str, Any] | None]] = [[None] * m for _ in range(m)]
    for i in range(m):
        for j in range(m):
            if i != j:
                signed = _signed(t, i, j)
                cell = estimate(signed).as_dict()
                cell["win_share"] = float(outcomes(signed).mean())
                matrix[i][j] = cell
    ratings = fit_ratings(t.names, t.advantage, t.pairs, t.plan.seed, bootstrap)
    return {
        "game": s.game, "unit": t.meta.get("unit", "points"), "players": t.num_players, "preset": s.preset,
        "rules": dict(s.rules),
        "rules_in_effect": t.meta.get("rules_in_effect"),
        "episode": s.episode, "random_carry": s.random_carry, "seed": t.plan.seed, "deals": t.plan.deals,
        "agents": t.names, "specs": list(t.plan.agents), "scheme": SCHEME, "legend": LEGEND,
        "seatings_per_pair": len(t.seatings),
        "games": t.games, "decisions": t.decisions, "seconds": t.seconds, "workers": t.workers,
        "deals_per_s": t.games / t.seconds, "deals_per_s_per_worker": t.games / t.play_seconds,
        "deals_per_cpu_s": t.games / max(t.cpu_seconds, 1e-9),
        "payoff": [estimate(t.payoff[:, i]).as_dict() for i in range(m)],
        "field": [estimate(field_samples(t, i)).as_dict() for i in range(m)],
        "session_win_rate": None if t.wins is None else [estimate(t.wins[:, i]).as_dict() for i in range(m)],
        "matrix": matrix,
        "ratings": ratings.as_dict(),
    }


def _pm(cell: dict[str, Any], digits: int = 3) -> str:
    return f"{cell['mean']:+.{digits}f} ± {cell['ci95']:.{digits}f}"


def headline(summary: dict[str, Any]) -> str:
    s = summary
    rules = ", ".join(f"{k}={v}" for k, v in s["rules"].items())
    return (f"{s['game']}, {s['players']} players, preset {s['preset'] or 'default'}"
            f"{', ' + rules if rules else ''}, episode={s['episode']}{', random carry' if s['random_carry'] else ''}: "
            f"{s['deals']} deal seeds x {s['seatings_per_pair']} seatings per pair = {s['games']} games, "
            f"seed {s['seed']}; {s['deals_per_s']:.1f} games/s on {s['workers']} worker(s), wall clock with start-up "
            f"({s['deals_per_s_per_worker']:.1f} games/s per worker while playing); scores in {s['unit']}")


def agent_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the agent table (payoff, advantage over the field, rating, session wins)."""
    unit = summary.get("unit", "points")  # summaries saved before units were recorded have none
    header = ["agent", f"payoff/{summary['episode']} ({unit}) ± 95% CI", "vs field ± 95% CI", "rating",
              "rating 95% interval"]
    wins = summary["session_win_rate"]
    if wins:
        header.append("session wins ± 95% CI")
    ratings = summary["ratings"]["agents"]
    order = sorted(range(len(summary["agents"])), key=lambda i: -ratings[i]["rating"])
    rows = []
    for i in order:
        r = ratings[i]
        interval = "—" if r["low"] is None else f"[{r['low']:+.0f}, {r['high']:+.0f}]"
        if r["agent"] == summary["ratings"]["anchor"]:
            interval = "anchor"
        row = [summary["agents"][i], _pm(summary["payoff"][i]), _pm(summary["field"][i]), f"{r['rating']:+.0f}",
               interval]
        if wins:
            row.append(f"{wins[i]['mean']:.3f} ± {wins[i]['ci95']:.3f}")
        rows.append(row)
    return header, rows


def matrix_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Row agent's mean advantage per deal over the column agent, ± the 95% half-width."""
    names = summary["agents"]
    rows = [[name] + ["—" if cell is None else _pm(cell) for cell in summary["matrix"][i]]
            for i, name in enumerate(names)]
    return ["row vs column", *names], rows


def _text_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths, strict=True)))

    return "\n".join([fmt(header), "  ".join("-" * w for w in widths), *map(fmt, rows)])


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def console(summary: dict[str, Any]) -> str:
    anchor = summary["ratings"]["anchor"]
    parts = [headline(summary), "", _text_table(*agent_rows(summary)),
             f"(ratings: Bradley-Terry on duplicate-deal wins, Elo scale, {anchor} = 0; "
             f"{summary['ratings']['bootstrap']} bootstrap resamples of the deal seeds)", "",
             f"pairwise: row agent's advantage per {summary['episode']} over the column agent, in "
             f"{summary.get('unit', 'points')}",
             _text_table(*matrix_rows(summary))]
    return "\n".join(parts)


def markdown(summary: dict[str, Any], title: str | None = None) -> str:
    anchor = summary["ratings"]["anchor"]
    parts = [f"## {title or summary['game'] + ' tournament'}", "", headline(summary) + ".", "",
             _md_table(*agent_rows(summary)), "",
             f"Ratings: Bradley-Terry fitted to duplicate-deal wins, Elo scale (400 = 10:1 odds), {anchor} = 0, "
             f"intervals from {summary['ratings']['bootstrap']} bootstrap resamples of the deal seeds.", "",
             f"Pairwise: the row agent's mean advantage per {summary['episode']} over the column agent, "
             "± the 95% half-width.", "",
             _md_table(*matrix_rows(summary)), "", f"Scheme: {summary['scheme']}.", ""]
    return "\n".join(parts)


def plot(summary: dict[str, Any], directory: str | Path) -> list[Path]:
    """``matrix.png`` (heatmap of the pairwise advantages) and ``ratings.png`` (ratings with intervals)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    names, m = summary["agents"], len(summary["agents"])
    values = np.array([[0.0 if c is None else c["mean"] for c in row] for row in summary["matrix"]])
    limit = max(float(np.abs(values).max()), 1e-9)
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * m, 1.2 + 1.0 * m))
    image = ax.imshow(values, cmap="RdBu", vmin=-limit, vmax=limit)
    for i in range(m):
        for j in range(m):
            cell = summary["matrix"][i][j]
            if cell is not None:
                dark = abs(cell["mean"]) > 0.6 * limit
                ax.text(j, i, f"{cell['mean']:+.2f}\n±{cell['ci95']:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")
    ax.set_xticks(range(m), names, rotation=30, ha="right")
    ax.set_yticks(range(m), names)
    ax.set_title(f"{summary['game']}: row's advantage per {summary['episode']} over column")
    fig.colorbar(image, ax=ax, shrink=0.8)
    fig.tight_layout()
    paths = [out / "matrix.png", out / "ratings.png"]
    fig.savefig(paths[0], dpi=110)
    plt.close(fig)
    ratings = sorted(summary["ratings"]["agents"], key=lambda a: a["rating"])  # best at the top
    fig, ax = plt.subplots(figsize=(7, 1.4 + 0.45 * m))
    y = np.arange(m)
    r = np.array([a["rating"] for a in ratings])
    low = np.array([a["rating"] if a["low"] is None else a["low"] for a in ratings])
    high = np.array([a["rating"] if a["high"] is None else a["high"] for a in ratings])
    ax.errorbar(r, y, xerr=[r - low, high - r], fmt="o", capsize=4)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, [a["agent"] for a in ratings])
    ax.set_xlabel(f"rating (Elo scale, {summary['ratings']['anchor']} = 0) with 95% bootstrap interval")
    ax.set_title(f"{summary['game']}: Bradley-Terry ratings from {summary['deals']} duplicate deals")
    fig.tight_layout()
    fig.savefig(paths[1], dpi=110)
    plt.close(fig)
    return paths
