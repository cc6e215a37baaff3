"""What the search agent (agents/search.py) costs a decision, beside the agent it improves upon, in every game.

For each game's default table, the same deals are played twice through the deal loop users run
(agents/table.py): once with ``--agent`` (a ``search:`` spec) in seat 0 and the heuristic elsewhere, once with
its base in seat 0. The process time of seat 0's choices, and of nothing else, is divided by their number;
printed: both costs and their ratio, the price of a stronger opponent. It pins itself to one core and one torch
thread (README, "Speed"):

    python benchmarks/search_agent_cost.py
    python benchmarks/search_agent_cost.py --agent search,worlds=16:pretrained --deals 10
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import rams_env
from agents.registry import agent_factory
from agents.search import parse_search_spec
from agents.table import play
from evaluation.throughput import measured_code, pin_one_core


class Timed:
    """Seat 0's agent, its process time counted over its own choices (the other seats' play left out)."""

    def __init__(self, agent) -> None:
        self.agent, self.name, self.seconds, self.decisions = agent, agent.name, 0.0, 0
        self.searches = getattr(agent, "searches", False)
        self.reads_observation = getattr(agent, "reads_observation", True)
        self.reads_view = getattr(agent, "reads_view", True)

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act_at(self, state) -> int:
        return self._timed(self.agent.act_at, state)

    def act(self, observation, mask, view) -> int:
        return self._timed(self.agent.act, observation, mask, view)

    def _timed(self, choose, *args) -> int:
        start = time.process_time()  # os.times counts in clock ticks (10 ms), longer than a base's choice
        action = choose(*args)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return action


def seconds_per_decision(game, spec: str, deals: int) -> float:
    """Process seconds per choice of ``spec`` in seat 0 over ``deals`` deals (the heuristic elsewhere)."""
    factory, heuristic = agent_factory(spec, game), agent_factory("heuristic", game)
    seconds, decisions = 0.0, 0
    for deal in range(deals):
        timed = Timed(factory(deal))
        agents = [timed] + [heuristic(deal * 10 + seat) for seat in range(1, game.num_players)]
        play(game, game.new_state(np.random.default_rng(deal), None), agents)
        seconds, decisions = seconds + timed.seconds, decisions + timed.decisions
    return seconds / max(1, decisions)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="search:pretrained", help="the search agent's spec")
    parser.add_argument("--games", nargs="+", default=sorted(rams_env.GAMES))
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args(argv)
    pin_one_core()
    import torch

    torch.set_num_threads(1)  # the rollouts batch the base network's decisions: one thread, as every worker runs
    print(measured_code())
    base = parse_search_spec(args.agent).base
    print(f"{'game':<10} {args.agent + ' ms':>24} {base + ' ms':>16} {'ratio':>8}")
    for name in args.games:
        game = rams_env.make_game(name)
        searched, plain = (seconds_per_decision(game, spec, args.deals) for spec in (args.agent, base))
        print(f"{name:<10} {searched * 1e3:>24.2f} {plain * 1e3:>16.3f} {searched / plain:>8.0f}")


if __name__ == "__main__":
    main()
