"""How often does an agent choose otherwise than the agent it was made from, table by table?

A refresher taught at a few tables moves the network at the others too, and the strength gate plays the agents
as they are (the shipped ones greedily), so the share of positions where a fine-tuned candidate chooses
otherwise than its reference is what moved there. The fit reports that share on its own held decisions
(``rest_flips``, training/batched/imitation.py); this measures it on fresh deals, where it is higher.

Positions come from deals of the strength gate's seeds played three ways (``WAYS``): scripted players in every
seat; the reference alone among them (seat ``d % n`` in deal ``d``); the reference in every seat. At each
decision with a real choice both agents are asked and the deal goes on with the seat's own player's choice. Ask
agents that do not draw random numbers (checkpoints play greedily): asking is then free of side effects.

    python -m evaluation.agreement --game tippen --agent checkpoint:new.zip --tables meyers_1905:3 modern:4
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

import rams_env
from agents.registry import agent_factory
from agents.table import chosen, reads
from evaluation.strength import HELD_OUT_SEED
from evaluation.tournament import deal_seed, game_seeds, seat_agents
from evaluation.workers import one_torch_thread_when_imported

WAYS = ("scripted", "agent_alone", "agents")
"""Whose deals the positions come from: scripted players', the reference alone among them, references'."""


@dataclass(frozen=True)
class AgreementPlan:
    game: str
    agent: str  # the candidate (agent spec)
    reference: str = "pretrained"  # what it was made from
    opponent: str = "heuristic"  # the scripted players of the first two ways
    tables: tuple[tuple[str, int], ...] = (("", 4),)  # (preset, players); "" the default preset
    deals: int = 150
    seed: int = HELD_OUT_SEED


@dataclass(frozen=True)
class Count:
    """Decisions with a real choice, and how many of them the two agents chose differently."""

    differ: int
    asked: int

    @property
    def share(self) -> float:
        return self.differ / self.asked if self.asked else 0.0


def table_agreement(plan: AgreementPlan, table: int) -> dict[str, Count]:
    """Per way, the decisions at one table of ``plan`` where the candidate and the reference chose differently."""
    preset, n = plan.tables[table]
    game = rams_env.make_game(plan.game, n, preset=preset or None)
    scripted, own = agent_factory(plan.opponent, game), agent_factory(plan.reference, game)
    agent, reference = agent_factory(plan.agent, game)(0), own(0)  # the reference's checkpoint loaded once
    counts = {}
    for way in WAYS:
        differ = asked = 0
        for d in range(plan.deals):
            seats = [own if way == "agents" or (way == "agent_alone" and k == d % n) else scripted
                     for k in range(n)]
            players = seat_agents(seats, game_seeds(n, plan.seed, d, table))
            state = game.new_state(np.random.default_rng(deal_seed(plan.seed, d)), None)
            while not state.terminal:
                legal = game.legal_actions(state)
                if len(legal) > 1:
                    asked += 1
                    differ += chosen(game, state, agent, legal, reads(agent)) != \
                        chosen(game, state, reference, legal, reads(reference))
                player = players[state.to_act]
                game.apply(state, chosen(game, state, player, legal, reads(player)))
        counts[way] = Count(differ, asked)
    return counts


def run_agreement(plan: AgreementPlan, progress: bool = True) -> list[dict[str, Count]]:
    return [table_agreement(plan, t) for t in tqdm(range(len(plan.tables)), desc="agreement", unit="table",
                                                   disable=not progress)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.agreement", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tippen", choices=sorted(rams_env.GAMES))
    parser.add_argument("--agent", required=True, metavar="SPEC", help="the candidate, e.g. checkpoint:new.zip")
    parser.add_argument("--reference", default="pretrained", metavar="SPEC", help="what it was made from")
    parser.add_argument("--opponent", default="heuristic", metavar="SPEC", help="the scripted players")
    parser.add_argument("--tables", nargs="+", default=[], metavar="PRESET:N",
                        help="tables as preset:players (default: the default preset at 4 players)")
    parser.add_argument("--deals", type=int, default=150, help="deals per table and way (default 150)")
    parser.add_argument("--seed", type=int, default=HELD_OUT_SEED)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    one_torch_thread_when_imported()  # agents play one decision at a time: a second thread only waits
    tables = tuple((p, int(n)) for p, _, n in (t.partition(":") for t in args.tables)) or (("", 4),)
    plan = AgreementPlan(args.game, args.agent, args.reference, args.opponent, tables, args.deals, args.seed)
    results = run_agreement(plan, progress=not args.quiet)
    print(f"{args.game}: decisions with a real choice where `{args.agent}` chooses otherwise than "
          f"`{args.reference}` ({args.deals} deals a table and way)\n")
    print("| table | " + " | ".join(WAYS) + " |\n| --- |" + " ---: |" * len(WAYS))
    total = Count(0, 0)
    for (preset, n), counts in zip(tables, results, strict=True):
        cells = [f"{c.share:.1%} ({c.differ} of {c.asked})" for c in counts.values()]
        print(f"| {preset or 'default'} {n}p | " + " | ".join(cells) + " |")
        total = Count(total.differ + sum(c.differ for c in counts.values()),
                      total.asked + sum(c.asked for c in counts.values()))
    print(f"\nevery table and way: {total.share:.2%} ({total.differ} of {total.asked})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
