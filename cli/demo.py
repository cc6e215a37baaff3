"""rams demo: play a batch of deals among random agents and print what happened.

    rams demo                         # 200 Toepen deals, four random agents
    rams demo --game toepen --players 5 --deals 1000 --preset siwweschroom
    rams demo --show 1                # also print the first deal step by step
"""

from __future__ import annotations

import argparse
import statistics
import time

import rams_env
from agents.random_agent import RandomAgent
from agents.table import Turn, Watcher, play, play_episode
from cli.usage import Parser, at_least, command


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = Parser("rams demo", __doc__)
    parser.add_argument("--game", default="toepen", choices=sorted(rams_env.GAMES), help="game (default toepen)")
    parser.add_argument("--players", type=int, default=None, help="table size (default: the game's usual)")
    parser.add_argument("--preset", default=None, help="named rule set of the game")
    parser.add_argument("--deals", type=int, default=200, help="number of deals (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument("--show", type=int, default=0, help="print this many deals move by move")
    args = parser.parse_args(argv)
    at_least(args.deals, 1, "--deals")
    at_least(args.show, 0, "--show")
    at_least(args.seed, 0, "--seed")
    return args


class MovePrinter(Watcher):
    """Prints each move as ``player_k: <label>``."""

    def __init__(self, game) -> None:
        self.game = game

    def acting(self, turn: Turn) -> None:
        print(f"player_{turn.seat}: {self.game.actions.label(turn.action)}")


def show_deal(game: str, players: int | None, preset: str | None, seed: int) -> None:
    """Print one deal move by move, all hands visible (a debugging table)."""
    env = rams_env.make(game, players, preset=preset, render_mode="ansi")
    env.reset(seed=seed)
    raw = env.unwrapped
    agents = [RandomAgent(seed * 31 + i) for i in range(raw.game.num_players)]
    print(env.render())
    play(raw.game, raw.game_state, agents, MovePrinter(raw.game))
    print(env.render())
    print("result:", raw.game_state.breakdown, "\n")


@command("rams demo")
def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    env = rams_env.make(args.game, args.players, preset=args.preset)  # bad rules fail here, before --show
    for i in range(args.show):
        show_deal(args.game, args.players, args.preset, args.seed + i)
    game = env.unwrapped.game
    n = game.num_players
    agents = [RandomAgent(seed=args.seed + i, name=f"random_{i}") for i in range(n)]
    start = time.perf_counter()
    results = [play_episode(env, agents, seed=args.seed + d) for d in range(args.deals)]
    elapsed = time.perf_counter() - start
    print(f"{args.game} ({game.rules.describe()}), {n} players, "
          f"{args.deals} deals in {elapsed:.1f} s ({args.deals / elapsed:.0f} deals/s); scores in {game.score_unit}")
    print(f"{'seat':8} {'agent':10} {'mean/deal':>10} {'total':>8}")
    for seat in range(n):
        scores = [r[seat] for r in results]
        print(f"player_{seat:<1} {agents[seat].name:10} {statistics.fmean(scores):10.3f} {sum(scores):8.0f}")
    return 0
