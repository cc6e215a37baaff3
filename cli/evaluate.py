"""``rams evaluate``: a duplicate-deal tournament among agents, with a pairwise matrix and ratings.

Every pair of agents plays every deal seed with one agent alone against the other in every
seat, both ways round, so the luck of the cards cancels (evaluation/tournament.py). Prints a
table of each agent's payoff per deal, its advantage over the field, its Bradley-Terry rating
(Elo scale, random = 0) and the pairwise matrix, all with 95% intervals over deal seeds.
The same seed and agents give the same numbers, whatever the number of workers.

    rams evaluate --game toepen --agents heuristic random heuristic:cautious --deals 500
    rams evaluate --game tippen --preset loup --players 5 --agents heuristic random
    rams evaluate --game toepen --rules lives=15 --episode session --agents heuristic random --deals 100
    rams evaluate --agents checkpoint:runs/toepen/final.zip heuristic random --json out.json --plots plots/

Agents (agents/registry.py): random, heuristic, heuristic:<style>[,key=value...], checkpoint:<path.zip>,
pretrained; or py:<module>:<function> for your own (function(game) returns a factory seed -> agent).
The same spec twice is two entrants (random, random#2): a check that the intervals cover zero.

Single deals start as the strength gate deals them (--carry gate, evaluation/carry.py): from random carried-over
state where a session's first deal is not the game (Lupfen: a force round; Fipsen's Thedinghausen: a race), fresh
elsewhere; the report's first line says "random carry" where they did.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import rams_env
from cli.usage import Parser, UsageError, at_least, command, hidden_alias, parse_rules
from evaluation.carry import add_carry_option
from evaluation.report import console, markdown, plot, summarize
from evaluation.tournament import Plan, Setting, run_tournament
from training.outputs import check_outputs


def build_parser() -> argparse.ArgumentParser:
    parser = Parser("rams evaluate", __doc__)
    parser.add_argument("--game", default="toepen", choices=sorted(rams_env.GAMES), help="game (default toepen)")
    parser.add_argument("--agents", nargs="+", default=["heuristic", "random"], metavar="SPEC",
                        help="two or more agent specs (default: heuristic random)")
    parser.add_argument("--deals", type=int, default=500, help="deal seeds; each is played at every seating of "
                                                               "every pair (default 500)")
    parser.add_argument("--players", type=int, default=None, help="table size (default: the game's usual)")
    parser.add_argument("--preset", default=None, help="named rule set of the game (see docs/rules/<game>.md)")
    parser.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE", help="rule options over the preset")
    parser.add_argument("--episode", choices=["deal", "session"], default="deal",
                        help="one deal per game, or a whole session (adds session win rates; default deal)")
    add_carry_option(parser)
    parser.add_argument("--seed", type=int, default=0, help="tournament seed: deals and agents' randomness (default 0)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes (default: up to 2); results do not depend on it")
    parser.add_argument("--bootstrap", type=int, default=200, help="bootstrap resamples for rating intervals "
                                                                   "(default 200)")
    parser.add_argument("--json", metavar="PATH", help="write the full summary as JSON")
    parser.add_argument("--markdown", metavar="PATH", help="write the tables as markdown")
    parser.add_argument("--plots", metavar="DIR", help="write matrix.png and ratings.png into DIR")
    parser.add_argument("--records", metavar="DIR", help="write a deal record of every game played into DIR "
                        "(JSON, replayable step by step in rams serve; docs/web.md)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    hidden_alias(parser, "--plot", "plots", metavar="DIR")  # the spelling before --plots
    return parser


def plan_from(args: argparse.Namespace) -> Plan:
    """The tournament plan of the parsed arguments (raises UsageError on bad numbers)."""
    at_least(args.deals, 1, "--deals")
    at_least(args.workers, 1, "--workers")
    at_least(args.bootstrap, 0, "--bootstrap")
    setting = Setting(args.game, args.players, args.preset, tuple(parse_rules(args.rules).items()),
                      args.episode).dealt(args.carry)
    try:
        return Plan(setting, tuple(args.agents), args.deals, args.seed, args.records)
    except ValueError as err:
        raise UsageError(str(err)) from None


def prepare_outputs(args: argparse.Namespace) -> None:
    """Check the outputs before the run (training/outputs.py), so a bad path fails in a second, not after an hour."""
    # OutputError: bad input, one line
    check_outputs(files=[args.json, args.markdown], folders=[args.plots, args.records])


def write_outputs(summary: dict[str, Any], args: argparse.Namespace) -> list[Path]:
    written = []
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
        written.append(Path(args.json))
    if args.markdown:
        Path(args.markdown).write_text(markdown(summary))
        written.append(Path(args.markdown))
    if args.plots:
        written += plot(summary, args.plots)
    return written


@command("rams evaluate")
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    plan = plan_from(args)
    prepare_outputs(args)
    if not args.quiet:  # a checkpoint agent loads torch first: seconds before the bar can move
        print(f"rams evaluate: loading {len(plan.agents)} agents, then {plan.deals} deal seeds on {args.workers} "
              f"worker(s)", file=sys.stderr, flush=True)
    try:
        tournament = run_tournament(plan, workers=args.workers, progress=not args.quiet)
    except ModuleNotFoundError as err:  # e.g. a heuristic player not written yet for this game
        raise UsageError(f"an agent is not available: {err}") from None
    summary = summarize(tournament, bootstrap=args.bootstrap)
    print(console(summary))
    for path in write_outputs(summary, args):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
