"""``rams baselines``: regenerate docs/baselines.md from duplicate-deal tournaments anyone can rerun.

Three tables: (1) for every game and every preset at the default table size, the heuristic
player (default style) against the random agent: its advantage per deal with the 95%
interval, and the evaluation's speed; (2) ratings of the Toepen personalities (heuristic,
cautious, honest, bluffer, caller, random); (3) the evaluator's throughput on Toepen with
4 players beside the raw environment's. The numbers are deterministic under --seed; only
the speeds depend on the machine.

    rams baselines                                   # the committed tables (a few minutes on two cores)
    rams baselines --deals 40 --rating-deals 20 --out /tmp/baselines.md    # a quick look
    rams baselines --games toepen fipsen --out -     # print instead of writing
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

import rams_env
from cli.usage import Parser, UsageError, at_least, command
from evaluation.report import SCHEME, agent_rows, matrix_rows, summarize
from evaluation.throughput import random_play
from evaluation.tournament import Plan, Setting, Table, run_tournament
from rams_env.registry import game_class
from training.outputs import OutputError, check_outputs

DOC = Path(__file__).resolve().parent.parent / "docs" / "baselines.md"
PERSONALITIES = ("heuristic", "heuristic:cautious", "heuristic:honest", "heuristic:bluffer", "heuristic:caller",
                 "random")


def _md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def unavailable(plan: Plan) -> str | None:
    """Why ``plan`` cannot run here (a heuristic not written yet, an unknown style), or None."""
    try:
        Table(plan)
    except (ImportError, ValueError) as err:
        return str(err)
    return None


def _play(plan: Plan) -> dict[str, Any]:
    """One preset's heuristic-vs-random tournament in a worker (single process: deterministic anyway)."""
    return summarize(run_tournament(plan, workers=1, progress=False), bootstrap=0)


def preset_plans(games: list[str], deals: int, seed: int) -> list[Plan]:
    plans = []
    for game in games:
        for preset in game_class(game).rules_type.preset_names():
            plans.append(Plan(Setting(game, None, preset), ("heuristic", "random"), deals, seed))
    return plans


def heuristic_table(games: list[str], deals: int, seed: int, workers: int) -> str:
    """Table 1: heuristic vs random for every game and preset; presets run in parallel, one per worker."""
    plans = preset_plans(games, deals, seed)
    missing = {p: unavailable(p) for p in plans}
    todo = [p for p in plans if missing[p] is None]
    results: dict[Plan, dict[str, Any]] = {}
    with tqdm(total=len(todo), unit="preset", desc="heuristic vs random") as bar:
        if workers == 1 or len(todo) < 2:
            for plan in todo:
                results[plan] = _play(plan)
                bar.update()
        else:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                for plan, summary in zip(todo, pool.imap(_play, todo), strict=True):
                    results[plan] = summary
                    bar.update()
                pool.close()  # let the workers exit normally (terminate() would leak their locks)
                pool.join()
    rows = []
    for plan in plans:
        s = plan.setting
        if plan not in results:
            rows.append([s.game, s.preset, "—", "not available: " + str(missing[plan]).replace("|", "/"), "", "", ""])
            continue
        r = results[plan]
        edge = r["matrix"][0][1]
        verdict = "yes" if edge["low"] > 0 else ("**no: worse**" if edge["high"] < 0 else "**no**")
        rows.append([s.game, s.preset, str(r["players"]), f"{edge['mean']:+.3f} ± {edge['ci95']:.3f}",
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


def document(args: argparse.Namespace, command: str) -> str:
    return "\n".join([
        "# Baselines", "",
        f"Generated by `{command}`: do not edit by hand, rerun the command.", "",
        f"Duplicate deals: {SCHEME}. A 'deal' in the speed columns is one played game (one seating of one deal seed).",
        "", "## The heuristic player against the random agent", "",
        f"Every game and preset at its default table size; {args.deals} deal seeds each, seed {args.seed}. "
        "'deals won': share of deal seeds on which the heuristic's seats earned more (ties count half); "
        "'deals/CPU s': games played per CPU second of the worker (both agents' thinking included).", "",
        heuristic_table(args.games, args.deals, args.seed, args.workers), "",
        "## Toepen personalities", "", personality_table(args.rating_deals, args.seed, args.workers), "",
        "## Throughput", "",
        "Deals played per CPU second by the evaluator (it drives the game engine directly and builds the "
        "structured view only for agents that read it) beside uniform random play through the AEC "
        "environment, in the same process. CPU time is used because the machine may be shared; the last "
        "column is the wall-clock rate of a parallel run, worker start-up included.", "",
        throughput_table(args.throughput_deals, args.seed, args.workers, args.env_seconds), ""])


def command_line(args: argparse.Namespace) -> str:
    """The command that regenerates these numbers (the output path left out)."""
    games = "" if args.games == list(rams_env.GAMES) else " --games " + " ".join(args.games)
    return (f"rams baselines --deals {args.deals} --rating-deals {args.rating_deals} "
            f"--throughput-deals {args.throughput_deals} --seed {args.seed}{games}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser("rams baselines", __doc__)
    parser.add_argument("--deals", type=int, default=300, help="deal seeds per game and preset (default 300)")
    parser.add_argument("--rating-deals", type=int, default=200, help="deal seeds of the Toepen personality "
                                                                      "tournament (default 200)")
    parser.add_argument("--throughput-deals", type=int, default=200, help="deal seeds per speed measurement "
                                                                          "(default 200)")
    parser.add_argument("--env-seconds", type=float, default=3.0, help="CPU seconds of raw environment play "
                                                                        "timed for the comparison (default 3)")
    parser.add_argument("--games", nargs="+", default=list(rams_env.GAMES), choices=list(rams_env.GAMES),
                        help="games of the first table (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--out", default=str(DOC), help="where to write the markdown, '-' for stdout "
                                                        "(default docs/baselines.md)")
    return parser


@command("rams baselines")
def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser().parse_args(argv)
    for name in ("deals", "rating_deals", "throughput_deals"):
        at_least(getattr(args, name), 2, f"--{name.replace('_', '-')}")
    at_least(args.workers, 1, "--workers")
    at_least(args.seed, 0, "--seed")
    if not args.env_seconds > 0:
        raise UsageError(f"--env-seconds must be above 0, got {args.env_seconds}")
    try:  # fail now, not after minutes of play
        check_outputs(files=[None if args.out == "-" else args.out])
    except OutputError as err:
        raise UsageError(str(err)) from None
    text = document(args, command_line(args))
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
