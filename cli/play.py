"""``rams play``: play a whole session in the terminal against scripted or trained agents.

    rams play toepen                                  # you at seat 0 against three heuristic players
    rams play toepen --rules lives=5 --seat 2 --seed 7
    rams play tippen --preset loup --players 5 --opponents random heuristic heuristic random
    rams play fipsen --opponents checkpoint:runs/fipsen/final.zip --deals 3

Each turn shows the table from your seat and your legal choices, numbered; type a label
(``Ah``, ``knock``, ``pass``; case does not matter) or its number. The session starts with a primer
of the game's terms; ``help`` repeats it with the commands, ``hand`` and ``table`` show them again,
``quit`` (or end of input) stops with the score of the complete deals.
Every other player's move is printed as it happens (a face-down discard as "discards a card");
each deal ends with its result and the running scores, the session with its winner. Opponents:
one spec for all of them or one per seat (random, heuristic, heuristic:<style>,
checkpoint:<path.zip>, pretrained; default: the game's heuristic player if it has one, else random).
``--deals N`` stops after N deals even if the session's own rule (lives, number of deals, a race)
has not ended it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

import rams_env
from agents.base import Agent
from agents.breakdown import format_breakdown
from agents.human import HumanAgent, QuitSession, primer
from agents.registry import AgentFactory, AgentSpecError, agent_factories, heuristic_class
from agents.table import Turn, Watcher, play
from cli.usage import Parser, UsageError, command, parse_rules
from rams_env.core.cards import code


class SetupError(UsageError):
    """A command line that cannot set up a table (bad rules, seat, opponent spec)."""


@dataclass
class SessionTable:
    """Everything a session needs: the env, the human's seat, an agent per seat, display names."""

    env: Any
    seat: int
    agents: list[Agent]
    names: list[str]
    seed: int
    max_deals: int | None = None
    out: TextIO = field(default=sys.stdout)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)


# ---------------------------------------------------------------------------- set-up
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = Parser("rams play", __doc__)
    parser.add_argument("game", choices=sorted(rams_env.GAMES), help="the game to play")
    parser.add_argument("--preset", default=None, help="named rule set of the game (see docs/rules/<game>.md)")
    parser.add_argument("--players", type=int, default=None, help="table size (default: the game's usual)")
    parser.add_argument("--rules", nargs="+", default=[], metavar="KEY=VALUE",
                        help="rule options, e.g. lives=5 or session_deals=3")
    parser.add_argument("--opponents", nargs="+", default=None, metavar="SPEC",
                        help="one agent spec for every opponent, or one per opponent seat in seat order")
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0 = first (default 0)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals and agents (default: fresh)")
    parser.add_argument("--deals", type=int, default=None, help="stop after this many deals")
    return parser.parse_args(argv)


def default_opponent(game: str) -> str:
    """The game's heuristic player if it exists yet, else the random agent."""
    try:
        heuristic_class(game)
    except (ImportError, AttributeError, AgentSpecError):
        return "random"
    return "heuristic"


def opponent_specs(args: argparse.Namespace, n: int) -> list[str]:
    """One spec per opponent seat, in seat order."""
    specs = args.opponents or [default_opponent(args.game)]
    if len(specs) == 1:
        return specs * (n - 1)
    if len(specs) != n - 1:
        raise SetupError(f"--opponents takes one spec or {n - 1} (one per opponent), got {len(specs)}")
    return specs


def build_factories(specs: list[str], game) -> dict[str, AgentFactory]:
    """One factory per distinct spec (a checkpoint is loaded once, however many seats play it)."""
    if any(spec.startswith(("checkpoint:", "pretrained")) or spec.endswith(".zip") for spec in specs):
        print("loading the trained agents (torch takes a few seconds to import)...", flush=True)
        import torch

        torch.set_num_threads(1)
    factories = {}
    for spec in dict.fromkeys(specs):
        try:
            factories.update(agent_factories([spec], game))
        except (ImportError, AttributeError) as err:
            raise SetupError(f"agent {spec!r} is not available for {game.name}: {err}") from None
    return factories


def build_table(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> SessionTable:
    """The env (one session, rendered from the human's seat) and an agent in every seat."""
    if args.deals is not None and args.deals < 1:
        raise SetupError(f"--deals {args.deals}: give at least 1")
    if args.seed is not None and args.seed < 0:
        raise SetupError(f"--seed {args.seed}: give 0 or more")
    env = rams_env.make(args.game, args.players, preset=args.preset, episode="session", illegal_action="raise",
                        render_mode="ansi", render_seat=args.seat, **parse_rules(args.rules))
    game = env.unwrapped.game
    n = game.num_players
    if not 0 <= args.seat < n:
        raise SetupError(f"--seat {args.seat}: this table has seats 0 to {n - 1}")
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
    specs = opponent_specs(args, n)
    factories = build_factories(specs, game)
    remaining = iter(specs)
    agents: list[Agent] = []
    names: list[str] = []
    for s in range(n):
        if s == args.seat:
            agents.append(HumanAgent(game, stdin, stdout, table=env.render))
            names.append(f"player_{s} (you)")
        else:
            spec = next(remaining)
            agents.append(factories[spec](seed * 1009 + s))
            names.append(f"player_{s} ({spec})")
    return SessionTable(env, args.seat, agents, names, seed, args.deals, stdout)


# ---------------------------------------------------------------------------- reports
def format_scores(table: SessionTable, deal: list[int] | None, scores: list[int] | None = None) -> str:
    """One line per seat: this deal's result (if any) and the running score (``scores``, default the state's)."""
    scores = scores if scores is not None else table.env.unwrapped.game_state.scores
    width = max(len(name) for name in table.names)
    lines = []
    for s, name in enumerate(table.names):
        this = f"  deal {deal[s]:+5d}" if deal is not None else ""
        lines.append(f"  {name:{width}}{this}  total {scores[s]:+5d}")
    return "\n".join(lines)


def leaders(scores: list[int]) -> list[int]:
    best = max(scores)
    return [s for s, x in enumerate(scores) if x == best]


def format_trick(table: SessionTable, trick: list[tuple[int, str]]) -> str:
    """``player_0 Ah, player_1 Kh (you), ...``: a trick's cards in play order (played face up: public)."""
    return ", ".join(f"{table.names[s].split(' ')[0]} {card}" for s, card in trick)


def report_deal(table: SessionTable, final_table: str, breakdown: dict[str, Any], last_trick: str | None) -> None:
    """The deal's last table (from the human's seat), its last trick, its settlement and the running scores."""
    raw = table.env.unwrapped
    table.say(f"\n--- Deal {raw.game_state.deals_played} over ---")
    table.say(final_table)
    if last_trick:
        table.say(f"Last trick: {last_trick}")
    table.say("Result:")
    table.say(format_breakdown(breakdown, raw.game.num_players))
    table.say("Scores:")
    table.say(format_scores(table, raw.game_state.deal_results[-1]))


def report_end(table: SessionTable, reason: str) -> None:
    """The session's end: who won (or who leads, when it was cut short: over the complete deals only)."""
    state = table.env.unwrapped.game_state
    cut = reason in ("quit", "eof") and state.deal_start_scores  # the unfinished deal does not count
    scores = list(state.deal_start_scores) if cut else state.scores
    top = leaders(scores)
    who = ", ".join(table.names[s] for s in top)
    if reason == "over":
        table.say(f"\n=== Session over after {state.deals_played} deal(s) ===")
        verdict = f"Winner: {who}" if len(top) == 1 else f"Tied for first: {who}"
    else:
        why = {"quit": "You quit", "eof": "Input ended",
               "limit": "Stopped at the --deals limit"}[reason]
        table.say(f"\n=== {why} after {state.deals_played} complete deal(s) ===" +
                  ("  (totals of the complete deals)" if cut else ""))
        verdict = f"Leading: {who}"
    table.say(format_scores(table, None, scores))
    table.say(f"{verdict} ({scores[top[0]]:+d} {table.env.unwrapped.game.score_unit})")


# ---------------------------------------------------------------------------- the session
def start_deal(table: SessionTable, number: int) -> None:
    """Announce a deal; opponents start it fresh (they are written for deal episodes)."""
    table.say(f"\n=== Deal {number} ===")
    for s, agent in enumerate(table.agents):
        if s != table.seat:
            agent.reset(table.seed * 1009 + number * 31 + s)


class SessionWatcher(Watcher):
    """Prints every move as it happens, who took each trick, and each deal's result (agents/table.py's hooks)."""

    def __init__(self, table: SessionTable) -> None:
        self.table = table
        self.raw = table.env.unwrapped
        self.tricks_before: list[int] = []
        self.trick: list[tuple[int, str]] = []  # the trick under way with this move's card: public
        self.last_trick: str | None = None  # the deal's last complete trick, shown with its result
        self.final: tuple[str, dict[str, Any]] | None = None  # a settled deal's last table and breakdown
        self.reason = "over"

    def acting(self, turn: Turn) -> None:
        table, raw, state, seat = self.table, self.raw, turn.state, turn.seat
        self.tricks_before = list(getattr(state, "tricks_won", ()))
        self.trick = [(s, code(c)) for s, c in getattr(state, "trick", ())] + [(seat, raw.action_label(turn.action))]
        shown = raw.action_label(turn.action) if seat == table.seat else raw.game.actions.public_label(turn.action)
        table.say(f"  {table.names[seat]}: {shown}")  # another player's face-down discard names no card

    def settled(self, state) -> None:
        """The deal's last table, from the human's seat (the render shows a settled deal as over)."""
        self._trick_taken(state)
        self.final = (self.raw.game.render(state, self.table.seat), state.breakdown)

    def acted(self, turn: Turn) -> bool:
        if self.final is None:
            self._trick_taken(turn.state)
            return False
        report_deal(self.table, *self.final, self.last_trick)
        self.final, self.last_trick = None, None
        state = turn.state
        if state.terminal:
            return True
        if self.table.max_deals is not None and state.deals_played >= self.table.max_deals:
            self.reason = "limit"
            return True
        start_deal(self.table, state.deals_played + 1)
        return False

    def _trick_taken(self, state) -> None:
        """Who took the trick the move completed, if it did (public: said before the cards leave the table)."""
        for s, (before, after) in enumerate(zip(self.tricks_before, getattr(state, "tricks_won", ()), strict=False)):
            if after > before:
                self.last_trick = f"{format_trick(self.table, self.trick)} -> {self.table.names[s]}"
                self.table.say(f"  -> trick to {self.table.names[s]}")


def play_session(table: SessionTable) -> str:
    """Play until the session ends, the deal limit, or the human quits; returns why it ended."""
    env, raw = table.env, table.env.unwrapped
    env.reset(seed=table.seed)
    start_deal(table, 1)
    watcher = SessionWatcher(table)
    try:
        play(raw.game, raw.game_state, table.agents, watcher)
    except QuitSession as stop:
        return stop.reason
    return watcher.reason


@command("rams play")
def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    try:
        args = parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the error (or --help)
        return int(exit_.code or 0)
    table = build_table(args, stdin, stdout)
    game = table.env.unwrapped.game
    preset = f"preset {args.preset}: " if args.preset else ""
    table.say(f"{args.game} ({preset}{game.rules.describe()}), {game.num_players} players, seed {table.seed}")
    table.say("At the table: " + ", ".join(table.names) + ".")
    table.say(primer(game))
    report_end(table, play_session(table))
    return 0
