"""``rams departures``: where does an agent's edge over a scripted player (or its loss) come from?

One cell of ``rams strength`` (one table, one scripted player, one way round), split by the first decision
at which the agent and the scripted player, in the same seat of the same deal, chose differently
(evaluation/departures.py). Until then the two games are move for move the same, so the parts add up to the
cell exactly:

  lead, trick 2        the first difference was the card led to the second trick
  follow, trick 1      a card played to someone else's lead
  tap -> pass          the scripted player tapped where the agent passed (any other decision)
  card -> knock        the scripted player played a card where the agent knocked
  discard              both discarded, different cards
  same                 they never chose differently (a part of zero)

A part's interval is over deal seeds, as the cell's. It shows where a difference starts, not that the
first departure alone made it: what both players do afterwards belongs to it.

    rams departures --game tippen --agent pretrained --against heuristic --table loup:5 --deals 100
    rams departures --game mauscheln --table knocking:3 --way scripted_alone --deals 400
    rams departures --game toepen --against heuristic:bluffer --json departures.json
"""

from __future__ import annotations

import argparse
import sys

import rams_env
from cli.strength import add_deal_seed_options, add_output_options, measure_and_publish, parse_tables
from cli.usage import Parser, at_least, command
from evaluation.departures import DeparturePlan, markdown, run_departures
from evaluation.strength import WAYS, every_table
from evaluation.workers import one_torch_thread_when_imported


def build_parser() -> argparse.ArgumentParser:
    parser = Parser("rams departures", __doc__)
    parser.add_argument("--game", default="toepen", choices=sorted(rams_env.GAMES), help="game (default toepen)")
    parser.add_argument("--agent", default="pretrained", metavar="SPEC", help="the agent measured (default pretrained)")
    parser.add_argument("--against", default="heuristic", metavar="SPEC",
                        help="the scripted player (default heuristic; any agent spec works)")
    parser.add_argument("--table", metavar="PRESET:N",
                        help="the table as preset:players (default: the game's default preset at 4 players)")
    parser.add_argument("--way", default=WAYS[0], choices=WAYS,
                        help="agent_alone: the agent in one seat among scripted players (default); "
                             "scripted_alone: one scripted player among agents")
    parser.add_argument("--deals", type=int, default=200, help="deal seeds (default 200)")
    add_deal_seed_options(parser)
    add_output_options(parser, "the total and every part", "the table")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def plan_from(args: argparse.Namespace) -> DeparturePlan:
    at_least(args.deals, 2, "--deals")
    table = args.table or f"{every_table(args.game)[0][0]}:4"
    (preset_players,) = parse_tables(args.game, [table])
    return DeparturePlan(args.game, args.agent, args.against, preset_players, args.deals, args.way, args.seed,
                         args.carry)


@command("rams departures")
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    one_torch_thread_when_imported()  # agents play one decision at a time: a second thread only waits
    plan = plan_from(args)
    measure_and_publish(args, lambda: run_departures(plan, progress=not args.quiet), markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
