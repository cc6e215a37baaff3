"""The bluff report: a console summary, JSON, markdown tables and plots, from the same metrics."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

from evaluation.bluff.metrics import Thresholds, agent_metrics, bin_labels
from evaluation.bluff.runner import Results

SUMMARY = [  # (column, path into the metrics, kind)
    ("knock", ("knocks", "knock_rate"), "rate"),
    ("bluff", ("knocks", "bluff_rate"), "rate"),
    ("bluff share", ("knocks", "bluff_share"), "rate"),
    ("value knock", ("knocks", "value_knock_rate"), "rate"),
    ("bluff success", ("knocks", "bluff_success"), "rate"),
    ("bluff EV", ("knocks", "bluff_ev"), "mean"),
    ("value EV", ("knocks", "value_ev"), "mean"),
    ("fold", ("folds", "fold_rate"), "rate"),
    ("fold right", ("folds", "fold_right"), "rate"),
    ("stay right", ("folds", "stay_right"), "rate"),
    ("false dirty (weak hands)", ("dirty", "self_false_claim_rate"), "rate"),  # the rate docs/bluffing.md quotes
    ("false dirty (any hand)", ("dirty", "false_claim_rate"), "rate"),
    ("challenge", ("dirty", "challenge_rate"), "rate"),
    ("chall. success", ("dirty", "challenge_success"), "rate"),
    ("self-bluff", ("knocks", "self_bluff_rate"), "rate"),
]


def build(results: Results, thresholds: Thresholds) -> dict[str, Any]:
    """The JSON document: the study's settings, thresholds and every agent's metrics."""
    s = results.study
    return {
        "study": {"agents": list(s.agents), "opponents": s.opponents, "players": s.players, "preset": s.preset,
                  "deals": s.deals, "seed": s.seed, "samples": s.samples, "exact_limit": s.exact_limit,
                  "reference_policy": s.policy, "random_carry": s.random_carry},
        "thresholds": vars(thresholds),
        "seconds": round(results.seconds, 1), "workers": results.workers,
        "agents": {a: agent_metrics(rows, thresholds) for a, rows in results.records.items()},
    }


def _get(metrics: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for key in path:
        metrics = metrics[key]
    return metrics


def fmt_rate(r: dict[str, Any], ci: bool = True) -> str:
    if r["rate"] is None:
        return "-"
    text = f"{r['rate']:.3f}"
    return f"{text} [{r['lo']:.2f},{r['hi']:.2f}]" if ci else text


def fmt_mean(m: dict[str, Any]) -> str:
    if m["mean"] is None:
        return "-"
    return f"{m['mean']:+.2f}" + (f" ±{m['ci95']:.2f}" if m["ci95"] is not None else "")


def _cell(metrics: dict[str, Any], path: tuple[str, ...], kind: str, ci: bool = True) -> str:
    value = _get(metrics, path)
    return fmt_rate(value, ci) if kind == "rate" else fmt_mean(value)


UNITS = {"rate": "share of the decisions it counts", "mean": "lives per knock, relative to an average opponent"}


def console(doc: dict[str, Any], width: int | None = None) -> str:
    """One row per measure, one column per agent, Wilson 95% intervals; agents that do not fit the terminal's
    width go on to the next block of columns."""
    width = width or max(80, shutil.get_terminal_size().columns)
    labels = [c + (" (lives)" if k == "mean" else "") for c, _, k in SUMMARY]
    left = max(len(label) for label in labels)
    columns = {a: [_cell(m, p, k) for _, p, k in SUMMARY] for a, m in doc["agents"].items()}
    sizes = {a: max(len(a), *map(len, cells)) for a, cells in columns.items()}
    blocks: list[list[str]] = [[]]
    for agent in columns:
        used = left + sum(sizes[a] + 2 for a in blocks[-1])
        if blocks[-1] and used + sizes[agent] + 2 > width:
            blocks.append([])
        blocks[-1].append(agent)
    lines: list[str] = []
    for block in blocks:
        lines += ["", f"{'':{left}}" + "".join(f"  {a:>{sizes[a]}}" for a in block)]
        lines += [f"{label:{left}}" + "".join(f"  {columns[a][i]:>{sizes[a]}}" for a in block)
                  for i, label in enumerate(labels)]
    s, t = doc["study"], doc["thresholds"]
    seating = "every seat measured" if s["opponents"] == "self" else "measured seat rotating"
    notes = (f"{s['deals']} deals per agent at a {s['players']}-player table of {s['opponents']} ({seating}, preset "
             f"{s['preset'] or 'standard'}), {doc['seconds']} s. Rates: {UNITS['rate']}, with Wilson 95% intervals; "
             f"EV: {UNITS['mean']}, ± its 95% half-width. Bluff = knock with winning chance p < {t['bluff_below']}, "
             f"value knock p >= {t['value_from']}; self-bluff and false dirty (weak hands): the heuristic's strength "
             f"< {t['weak_below']}. Definitions: docs/bluffing.md.")
    return "\n".join(lines[1:] + ["", textwrap.fill(notes, width)])


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    return lines + ["| " + " | ".join(r) + " |" for r in rows]


def markdown(doc: dict[str, Any]) -> str:
    """Summary, fold curves, splits and estimator calibration, as markdown tables."""
    s, t = doc["study"], doc["thresholds"]
    agents = doc["agents"]
    out = [f"# Bluff report: {', '.join(agents)}", "",
           f"{s['deals']} deals per agent, {s['players']} players, opponents `{s['opponents']}`, preset "
           f"`{s['preset'] or 'standard'}`, seed {s['seed']}; winning chance: {s['samples']} sampled worlds "
           f"(exact at most {s['exact_limit']} worlds), reference play `{s['reference_policy']}`. Rates with "
           "Wilson 95% intervals; EV in lives per knock relative to an average opponent.", "", "## Summary", ""]
    out += _table(["agent", *[c for c, _, _ in SUMMARY]],
                  [[f"`{a}`", *[_cell(m, p, k) for _, p, k in SUMMARY]] for a, m in agents.items()])
    labels = bin_labels(t["bins"])
    out += ["", "## Fold rate facing a knock, by the folder's winning chance", ""]
    out += _table(["agent", *labels],
                  [[f"`{a}`", *[f"{fmt_rate(b, False)} (n={b['n']})" for b in m["folds"]["fold_curve"]]]
                   for a, m in agents.items()])
    for key, title in (("by_trick", "trick number"), ("by_knock", "knock number")):
        out += ["", f"## Knock, bluff and fold rates by {title}", ""]
        rows = []
        for a, m in agents.items():
            for value, r in m[key].items():
                rows.append([f"`{a}`", str(value), fmt_rate(r["knock_rate"]), fmt_rate(r["bluff_rate"]),
                             fmt_rate(r["fold_rate"])])
        out += _table(["agent", title, "knock", "bluff", "fold"], rows)
    out += ["", "## Estimator: calibration against the hindsight play-out of the true hands", ""]
    out += _table(["agent", "decisions", "exact", "mean se", *labels],
                  [[f"`{a}`", str(e["decisions"]), str(e["exact"]), f"{e['mean_se']:.3f}" if e["mean_se"] else "-",
                    *[(f"{c['mean_p']:.2f}/{c['hindsight']:.2f}" if c["n"] else "-") for c in e["calibration"]]]
                   for a, m in agents.items() for e in [m["estimator"]]])
    return "\n".join(out) + "\n"


def write_json(doc: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(doc, indent=2, default=str) + "\n")
