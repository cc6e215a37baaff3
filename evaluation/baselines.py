"""The tables of docs/baselines.md (``rams baselines``, cli/baselines.py): duplicate-deal tournaments anyone
can rerun. The numbers are deterministic under the seed; only the speeds depend on the machine.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from tqdm import tqdm

import rams_env
from evaluation.report import agent_rows, matrix_rows, summarize
from evaluation.throughput import random_play
from evaluation.tournament import Plan, Setting, TournamentRunner, run_tournament
from evaluation.workers import run_tasks
from rams_env.registry import game_class

PERSONALITIES = ("heuristic", "heuristic:cautious", "heuristic:honest", "heuristic:bluffer", "heuristic:caller",
                 "random")


def _md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def unavailable(plan: Plan) -> str | None:
    """Why ``plan`` cannot run here (a heuristic not written yet, an unknown style), or None."""
    try:
        TournamentRunner(plan)
    except (ImportError, ValueError) as err:
        return str(err)
    return None


def _play(plan: Plan) -> dict[str, Any]:
    """One preset's heuristic-vs-random tournament in a worker (single process: deterministic anyway)."""
    return summarize(run_tournament(plan, workers=1, progress=False), bootstrap=0)


def preset_plans(games: list[str], deals: int, seed: int) -> list[Plan]:
    """Every game and preset at its default table size, its deals started as the strength gate starts them
    (evaluation/carry.py: a Lupfen round from a carried pot, a Thedinghausen deal inside a race)."""
    plans = []
    for game in games:
        for preset in game_class(game).rules_type.preset_names():
            plans.append(Plan(Setting(game, None, preset).dealt("gate"), ("heuristic", "random"), deals, seed))
    return plans


def heuristic_table(games: list[str], deals: int, seed: int, workers: int) -> str:
    """Table 1: heuristic vs random for every game and preset; presets run in parallel, one per worker."""
    plans = preset_plans(games, deals, seed)
    missing = {p: unavailable(p) for p in plans}
    todo = [p for p in plans if missing[p] is None]
    with tqdm(total=len(todo), unit="preset", desc="heuristic vs random") as bar:
        summaries = run_tasks(todo, _play, workers if len(todo) >= 2 else 1, done=lambda *_: bar.update())
    results: dict[Plan, dict[str, Any]] = dict(zip(todo, summaries, strict=True))
    rows = []
    for plan in plans:
        s = plan.setting
        if plan not in results:
            rows.append([s.game, s.preset, "—", "not available: " + str(missing[plan]).replace("|", "/"), "", "", ""])
            continue
        r = results[plan]
        edge = r["matrix"][0][1]
        verdict = "yes" if edge["low"] > 0 else ("**no: worse**" if edge["high"] < 0 else "**no**")
        preset = f"{s.preset} (carried)" if s.random_carry else s.preset
        rows.append([s.game, preset, str(r["players"]), f"{edge['mean']:+.3f} ± {edge['ci95']:.3f}",
                     f"{edge['win_share']:.3f}", verdict, f"{r['deals_per_cpu_s']:.0f}"])
    units = " or ".join(sorted({game_class(game).score_unit for game in games}))
    header = ["game", "preset", "players", f"advantage/deal ± 95% CI ({units}: the game's unit)", "deals won",
              "beats random", "deals/CPU s"]
    return _md(header, rows)


def personality_table(deals: int, seed: int, workers: int) -> str:
    """Table 2: ratings and the pairwise matrix of the Toepen personalities."""
    plan = Plan(Setting("toepen"), PERSONALITIES, deals, seed)
    why = unavailable(plan)
    if why:
        return f"Not available: {why}"
    summary = summarize(run_tournament(plan, workers=workers, progress=True))
    return "\n\n".join([
        f"Toepen, {summary['players']} players, default rules: {deals} deal seeds, {summary['games']} games, "
        f"seed {seed}. Ratings: Bradley-Terry on duplicate-deal wins, Elo scale (400 = 10:1 odds), random = 0, "
        f"95% intervals from {summary['ratings']['bootstrap']} bootstrap resamples of the deal seeds.",
        _md(*agent_rows(summary)),
        "The row agent's mean advantage per deal over the column agent, ± the 95% half-width:",
        _md(*matrix_rows(summary))])


def env_deals_per_s(game: str, players: int, seconds: float, seed: int = 0) -> float:
    """Uniform random play through the AEC environment (the loop of benchmarks/env_throughput.py), per CPU second."""
    return random_play(rams_env.make(game, players), seconds, seed, clock=time.process_time)[1]


def throughput_table(deals: int, seed: int, workers: int, env_seconds: float = 3.0) -> str:
    """Table 3: evaluation speed on Toepen 4p beside the raw environment, measured in one process."""
    print(f"throughput: {env_seconds:g} s of random play, then {deals} deal seeds of evaluation twice per row "
          f"(1 and {workers} workers)", file=sys.stderr, flush=True)
    raw = env_deals_per_s("toepen", 4, seconds=env_seconds, seed=seed)
    rows = [["raw environment, random play (AEC loop)", f"{raw:.0f}", "1.00", "—"]]
    for agents in (("random", "random"), ("heuristic", "random")):
        plan = Plan(Setting("toepen", 4), agents, deals, seed)
        why = unavailable(plan)
        if why:
            rows.append([f"evaluation {' vs '.join(agents)}", "not available", "", why.replace("|", "/")])
            continue
        one = run_tournament(plan, workers=1, progress=False)
        both = run_tournament(plan, workers=workers, progress=False)
        per_worker = one.games / one.cpu_seconds
        rows.append([f"evaluation {' vs '.join(agents)}", f"{per_worker:.0f}", f"{per_worker / raw:.2f}",
                     f"{both.games / both.seconds:.0f}"])
    header = ["Toepen, 4 players", "deals per CPU second", "vs raw env", f"deals/s, {workers} workers (wall clock)"]
    return _md(header, rows)
