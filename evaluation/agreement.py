"""How often does an agent choose otherwise than the agent it was made from, table by table?

A refresher taught at a few tables moves the network at the others too, and the strength gate plays the agents
as they are (the shipped ones greedily), so the share of positions where a fine-tuned candidate chooses
otherwise than its reference is what moved there. The fit reports that share on its own held decisions
(``rest_flips``, training/batched/imitation.py); this measures it on fresh deals, where it is higher.

Positions come from deals of the strength gate's seeds played three ways (``WAYS``): scripted players in every
seat; the reference alone among them (seat ``d % n`` in deal ``d``); the reference in every seat. At each
decision with a real choice both agents are asked and the deal goes on with the seat's own player's choice. Ask
agents that do not draw random numbers (checkpoints play greedily): asking is then free of side effects. With the
scripted player itself as the reference (``--reference heuristic``: how closely a copy of it copies) the three
ways are the same deals, played once (the ``scripted`` way).

    python -m evaluation.agreement --game tippen --agent checkpoint:new.zip --tables meyers_1905:3 modern:4

``--kinds`` also splits the differences by kind (:func:`difference_kind`): a card followed to a trick by what
the two cards do to it (both take the lead, only one does, neither; a trump thrown where neither takes it), a
card led by suit and trump, any other difference named as ``rams departures`` names one (``pass -> tap``: the
reference passed where the agent tapped; ``discard``: both discarded, different cards). Why: a copy of a
scripted player errs in a few per cent of its choices, and which kind of choice it gets wrong says what to teach
next (docs/results.md, "The sniffing specialist taught among the styles": at 6p, besides another card that also
wins, trumps thrown under a trick already lost).

    python -m evaluation.agreement --game tippen --agent pretrained --reference heuristic \
        --tables alvensleben_sniffing:6 --deals 1000 --kinds
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

import rams_env
from agents.registry import agent_factory
from agents.table import chosen, reads
from evaluation.departures import first_departure, kind_of
from evaluation.strength import HELD_OUT_SEED
from evaluation.tournament import deal_seed, game_seeds, seat_agents
from evaluation.workers import one_torch_thread_when_imported
from rams_env.core.actions import PLAY
from rams_env.core.cards import card

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
    kinds: bool = False  # also split the differences by kind (difference_kind)


@dataclass(frozen=True)
class Count:
    """Decisions with a real choice, and how many of them the two agents chose differently."""

    differ: int
    asked: int
    kinds: Counter = field(default_factory=Counter, compare=False)  # the differences by kind (with --kinds)

    @property
    def share(self) -> float:
        return self.differ / self.asked if self.asked else 0.0


def ways_played(plan: AgreementPlan) -> tuple[str, ...]:
    """:data:`WAYS`, or only the first where the reference is the scripted player (the three are then alike)."""
    return WAYS[:1] if plan.reference == plan.opponent else WAYS


def trick_order(game, state):
    """The card order of the deal at ``state`` (its trump's, in the games with a trump)."""
    orders = game.trick_orders
    return orders[state.trump] if len(orders) > 1 else orders[0]


def difference_kind(game, state, agent_action: int, reference_action: int) -> str:
    """What kind of choice the two agents made differently at ``state`` (see the module text)."""
    if not all(game.actions.segment(a)[0] == PLAY for a in (reference_action, agent_action)):
        return first_departure(*([(kind_of(game, state, a), game.actions.label(a))]
                                 for a in (reference_action, agent_action)))
    order, trick = trick_order(game, state), [c for _, c in state.trick]
    mine, theirs = (card(game.actions.label(a)) for a in (agent_action, reference_action))
    if not trick:
        if order.is_trump(mine) != order.is_trump(theirs):
            return "lead: a trump where the reference led a side card" if order.is_trump(mine) else \
                "lead: a side card where the reference led a trump"
        return "lead: the same suit" if order.suit[mine] == order.suit[theirs] else "lead: another suit"
    takes = [order.winning_index([*trick, c]) == len(trick) for c in (mine, theirs)]
    if all(takes):
        return "follow: another card that takes the lead"
    if takes[1]:
        return "follow: ducks where the reference takes the lead"
    if takes[0]:
        return "follow: takes the lead where the reference ducks"
    if order.is_trump(mine) and not order.is_trump(theirs):
        return "follow: a trump thrown where neither takes the lead"
    return "follow: another card thrown where neither takes the lead"


def table_agreement(plan: AgreementPlan, table: int) -> dict[str, Count]:
    """Per way, the decisions at one table of ``plan`` where the candidate and the reference chose differently."""
    preset, n = plan.tables[table]
    game = rams_env.make_game(plan.game, n, preset=preset or None)
    scripted, own = agent_factory(plan.opponent, game), agent_factory(plan.reference, game)
    agent, reference = agent_factory(plan.agent, game)(0), own(0)  # the reference's checkpoint loaded once
    counts = {}
    for way in ways_played(plan):
        differ = asked = 0
        kinds = Counter()
        for d in range(plan.deals):
            seats = [own if way == "agents" or (way == "agent_alone" and k == d % n) else scripted
                     for k in range(n)]
            players = seat_agents(seats, game_seeds(n, plan.seed, d, table))
            state = game.new_state(np.random.default_rng(deal_seed(plan.seed, d)), None)
            while not state.terminal:
                legal = game.legal_actions(state)
                if len(legal) > 1:
                    asked += 1
                    mine, theirs = (chosen(game, state, a, legal, reads(a)) for a in (agent, reference))
                    differ += mine != theirs
                    if mine != theirs and plan.kinds:
                        kinds[difference_kind(game, state, mine, theirs)] += 1
                player = players[state.to_act]
                game.apply(state, chosen(game, state, player, legal, reads(player)))
        counts[way] = Count(differ, asked, kinds)
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
    parser.add_argument("--kinds", action="store_true",
                        help="also split the differences by kind: what a followed card does to the trick, a lead's "
                             "suit, another decision's segment")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    one_torch_thread_when_imported()  # agents play one decision at a time: a second thread only waits
    tables = tuple((p, int(n)) for p, _, n in (t.partition(":") for t in args.tables)) or (("", 4),)
    plan = AgreementPlan(args.game, args.agent, args.reference, args.opponent, tables, args.deals, args.seed,
                         args.kinds)
    results = run_agreement(plan, progress=not args.quiet)
    print(f"{args.game}: decisions with a real choice where `{args.agent}` chooses otherwise than "
          f"`{args.reference}` ({args.deals} deals a table and way)\n")
    ways = ways_played(plan)
    print("| table | " + " | ".join(ways) + " |\n| --- |" + " ---: |" * len(ways))
    total = Count(0, 0)
    for (preset, n), counts in zip(tables, results, strict=True):
        cells = [f"{c.share:.1%} ({c.differ} of {c.asked})" for c in counts.values()]
        print(f"| {preset or 'default'} {n}p | " + " | ".join(cells) + " |")
        total = Count(total.differ + sum(c.differ for c in counts.values()),
                      total.asked + sum(c.asked for c in counts.values()))
    print(f"\nevery table and way: {total.share:.2%} ({total.differ} of {total.asked})")
    if args.kinds:
        print_kinds(tables, results)
    return 0


def print_kinds(tables, results: list[dict[str, Count]]) -> None:
    """The differences of each table and way by kind, the most frequent first."""
    print("\n| table | way | kind | differences |\n| --- | --- | --- | ---: |")
    for (preset, n), counts in zip(tables, results, strict=True):
        for way, count in counts.items():
            for kind, number in count.kinds.most_common():
                print(f"| {preset or 'default'} {n}p | {way} | {kind} | {number} |")


if __name__ == "__main__":
    sys.exit(main())
