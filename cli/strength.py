"""``rams strength``: does an agent beat every scripted player at every table, both ways round?

For every table (preset x size the rules allow, or those given) and every scripted opponent (random and
each style and personality of the game's heuristic player, or those given), duplicate deals measure the
agent two ways by substitution, same cards (evaluation/strength.py):

  agent_alone     the agent in one seat among scripted players, minus the scripted player in that seat
  scripted_alone  an agent's seat at a table of agents, minus one scripted player put in that seat

A cell passes when its 95% interval lies above zero. Prints one table per way; exit code 1 with --check
when a cell fails (a gate for shipped agents).

--compare SPEC measures a second agent on the same deals and seat seeds and prints, per cell, the first
agent's result minus the second's with the 95% interval of that paired difference: "better" or "worse" where
it excludes zero. The deals' luck cancels, so it shows which of two agents is stronger, and where, far more
sharply than comparing the two tables of cells (a cell just above zero can fall just below it by chance).
It ends with the project's ship rule on those cells: the first agent would replace the second when it is better
in more cells against the scripted styles (random aside) than it is worse (docs/results.md, "Choosing between
two agents"; the JSON's compare.ship_rule). --samples FILE keeps the agent's per-deal samples; a later run's
--compare-samples FILE reads that agent's half back instead of playing it again, for any run whose tables,
opponents and deals the file covers (it refuses a file whose agent now plays other weights). --kept FILE reports
such a file's cells without playing (every shipped agent's gate is kept in docs/results/strength/<game>.npz), and
--plot PNG draws the cells coloured by verdict, one panel per way round.

    rams strength --game toepen --agent pretrained --deals 200
    rams strength --game tippen --agent checkpoint:runs/tippen/final.zip --tables modern:4 loup:5 --check
    rams strength --game toepen --agent pretrained --opponents heuristic:bluffer --tables standard:4
    rams strength --game tippen --agent checkpoint:runs/x/final.zip --compare pretrained --tables loup:5 --deals 400
    rams strength --game toepen --agent pretrained --deals 400 --samples shipped.npz     # once
    rams strength --game toepen --agent checkpoint:new.zip --deals 400 --compare-samples shipped.npz
    rams strength --kept docs/results/strength/tippen.npz --plot tippen_gate.png        # the shipped gate, drawn
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import rams_env
from cli.usage import Parser, UsageError, at_least, command
from evaluation.carry import add_carry_option
from evaluation.kept_samples import kept_plan, load_samples, save_samples
from evaluation.strength import (
    HELD_OUT_SEED,
    StrengthPlan,
    StrengthReport,
    every_table,
    markdown,
    paired,
    paired_markdown,
    run_strength,
    scripted_opponents,
    ship_rule,
)
from training.outputs import check_outputs


def build_parser() -> argparse.ArgumentParser:
    parser = Parser("rams strength", __doc__)
    parser.add_argument("--game", default="toepen", choices=sorted(rams_env.GAMES), help="game (default toepen)")
    parser.add_argument("--agent", default="pretrained", metavar="SPEC", help="the agent measured (default pretrained)")
    compare = parser.add_mutually_exclusive_group()
    compare.add_argument("--compare", metavar="SPEC",
                         help="also measure this agent on the same deals and report the agent minus it, cell by "
                              "cell, with paired intervals (e.g. --agent checkpoint:new.zip --compare pretrained)")
    compare.add_argument("--compare-samples", metavar="FILE",
                         help="as --compare, the other agent's samples read from a --samples FILE of an earlier run "
                              "(its tables, opponents and deals must cover this run's)")
    parser.add_argument("--opponents", nargs="+", metavar="SPEC",
                        help="scripted opponents (default: random and every heuristic style of the game)")
    parser.add_argument("--tables", nargs="+", metavar="PRESET:N",
                        help="tables as preset:players (default: every preset and size the rules allow)")
    parser.add_argument("--deals", type=int, default=200, help="deal seeds per table (default 200)")
    add_deal_seed_options(parser)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes (default: up to 2); results do not depend on it")
    add_output_options(parser, "every cell", "the tables")
    parser.add_argument("--samples", metavar="FILE",
                        help="keep the agent's per-deal samples (.npz) for a later run's --compare-samples")
    parser.add_argument("--kept", metavar="FILE",
                        help="report a --samples FILE's cells without playing: its game, agent, deals, seed and "
                             "deals' start; --tables / --opponents choose among its own (e.g. "
                             "docs/results/strength/tippen.npz, a shipped agent's gate)")
    parser.add_argument("--plot", metavar="PNG",
                        help="draw every cell coloured by its verdict (with --compare: the paired difference)")
    parser.add_argument("--check", action="store_true", help="exit with code 1 unless every cell is above zero")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def add_deal_seed_options(parser: argparse.ArgumentParser) -> None:
    """``--seed`` and ``--carry``: which deals a substitution measurement plays (rams departures too)."""
    parser.add_argument("--seed", type=int, default=HELD_OUT_SEED,
                        help=f"tournament seed of the deal seeds (default {HELD_OUT_SEED}, held out from training)")
    add_carry_option(parser)


def add_output_options(parser: argparse.ArgumentParser, json_what: str, markdown_what: str) -> None:
    parser.add_argument("--json", metavar="PATH", help=f"write {json_what} as JSON")
    parser.add_argument("--markdown", metavar="PATH", help=f"write {markdown_what} as markdown")


def measure_and_publish(args: argparse.Namespace, run: Callable[[], Any], markdown: Callable[[Any], str]) -> Any:
    """Check the output paths first (before any deal is played), run the measurement, publish its report."""
    check_outputs(files=[args.json, args.markdown], folders=[])
    report = run()
    publish(markdown(report), report.as_dict(), args)
    return report


def publish(text: str, data: dict, args: argparse.Namespace) -> None:
    """Print a report's markdown and write it (``--markdown``) and its data (``--json``) where asked."""
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    if args.markdown:
        Path(args.markdown).write_text(text)


def parse_tables(game: str, given: list[str] | None) -> tuple[tuple[str, int], ...]:
    """``preset:players`` strings (checked against the game's presets and sizes), or every table."""
    if not given:
        return tuple(every_table(game))
    tables = []
    for text in given:
        preset, _, players = text.partition(":")
        if not players.isdigit():
            raise UsageError(f"--tables: {text!r} is not preset:players (e.g. {every_table(game)[0][0]}:4)")
        rams_env.make_game(game, int(players), preset=preset)  # RulesError names a bad preset or size
        tables.append((preset, int(players)))
    return tuple(tables)


def plan_from(args: argparse.Namespace) -> StrengthPlan:
    at_least(args.deals, 2, "--deals")
    at_least(args.workers, 1, "--workers")
    opponents = tuple(args.opponents or scripted_opponents(args.game))
    return StrengthPlan(args.game, args.agent, opponents, parse_tables(args.game, args.tables), args.deals, args.seed,
                        args.carry)


@command("rams strength")
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.kept:
        report = _kept_report(args)
        publish(markdown(report), report.as_dict(), args)
        _plot(args, report, source=args.kept)
        return 1 if args.check and not report.passed() else 0
    plan = plan_from(args)

    kept = load_samples(Path(args.compare_samples), plan) if args.compare_samples else None  # checked first

    def measured(agent: str) -> StrengthReport:
        report = run_strength(replace(plan, agent=agent), workers=args.workers, progress=not args.quiet)
        if args.samples and agent == args.agent:
            save_samples(report, Path(args.samples))
        return report

    check_outputs(files=[args.samples, args.plot], folders=[])
    if args.compare is None and kept is None:
        report = measure_and_publish(args, lambda: measured(args.agent), markdown)
        _plot(args, report)
    else:
        report = measure_and_publish(args, lambda: Compared(measured(args.agent), kept or measured(args.compare)),
                                     Compared.markdown)
        _plot(args, report.difference, paired=True)
    return 1 if args.check and not report.passed() else 0


def _kept_report(args: argparse.Namespace) -> StrengthReport:
    """``--kept FILE``: the file's own plan, cut to ``--tables`` / ``--opponents`` where given."""
    if args.compare or args.compare_samples or args.samples:
        raise UsageError("--kept reports a kept file as it is: it takes no --compare, --compare-samples or --samples")
    plan = kept_plan(Path(args.kept))
    if args.tables:
        plan = replace(plan, tables=parse_tables(plan.game, args.tables))
    if args.opponents:
        plan = replace(plan, opponents=tuple(args.opponents))
    check_outputs(files=[args.json, args.markdown, args.plot], folders=[])
    return load_samples(Path(args.kept), plan)


def _plot(args: argparse.Namespace, report: StrengthReport, paired: bool = False, source: str | None = None) -> None:
    """``--plot``: the report's cells drawn (a kept file's picture names the file and its SHA-256 inside)."""
    if args.plot:
        from evaluation.strength_plot import kept_source, plot_gate

        print(f"plot: {plot_gate(report, args.plot, paired, kept_source(source) if source else None)}")


class Compared:
    """``--compare``: the agent's report, the other agent's on the same deals, and their paired difference."""

    def __init__(self, report: StrengthReport, baseline: StrengthReport) -> None:
        self.report, self.baseline, self.difference = report, baseline, paired(report, baseline)

    def passed(self) -> bool:
        return self.report.passed()

    def markdown(self) -> str:
        return "\n".join([markdown(self.report), markdown(self.baseline), paired_markdown(self.difference)])

    def as_dict(self) -> dict[str, Any]:
        return {**self.report.as_dict(), "compare": {"baseline": self.baseline.as_dict(),
                                                     "difference": self.difference.as_dict(),
                                                     "ship_rule": ship_rule(self.difference)}}


if __name__ == "__main__":
    sys.exit(main())
