"""Play Toepen deals among agents and record every bluff-relevant decision with its context.

A decision is recorded for the measured seats at: a knock, a ``check`` (a turn where knocking was
legal and the player did not knock: a card played instead, or ``pass`` in an any-time window), a
``stay`` / ``fold`` (against a knock, or the poverty raise: knock number 0), a dirty-hand claim
(``dirty``; ``honest`` says whether the hand really held only A/K/Q/J), a ``keep``, and a
``challenge`` / ``accept`` of another's claim (``honest``: was the claim true). Each record holds the
decider's estimated winning chance (``winchance.py``) and, once the deal is over, the hindsight:
did she win the last trick, the lives she and the others lost from that moment on, and for a knock
whether everyone folded to it.

Seating: deal ``d`` seats the measured agent at seat ``d mod n`` and the opponent spec in the
other seats (``"self"``: the measured agent everywhere, every seat measured). Deal ``d`` is dealt
from the seed ``(seed, d)`` whatever the agent, so agents are compared on the same cards.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from agents.registry import agent_factories
from agents.table import Turn, Watcher, play
from evaluation import records
from evaluation.bluff.position import position
from evaluation.bluff.winchance import WinChance
from rams_env.core.cards import rank_of
from rams_env.games.toepen.game import DIRTY_RANKS
from rams_env.games.toepen.state import Act, Phase, ToepenState

KINDS = ("knock", "check", "stay", "fold", "dirty", "keep", "challenge", "accept")
PHASE_KINDS = {Phase.PLAY: ("knock", "check"), Phase.WINDOW: ("knock", "check"), Phase.RESPOND: ("stay", "fold"),
               Phase.DIRTY: ("dirty", "keep"), Phase.CHALLENGE: ("challenge", "accept")}
SELF = "self"


@dataclass
class Decision:
    """One recorded decision; the fields from ``won_last`` on are filled in when the deal ends."""

    agent: str
    deal: int
    seat: int
    kind: str
    p: float  # estimated chance of winning the last trick (staying in, no further knocks)
    se: float  # its standard error (0 when enumerated exactly)
    exact: bool
    hindsight: float  # the same reference play-out on the true hands: 1 = would win the last trick
    trick: int  # 1..4 (0: before play: dirty hands, challenges)
    knock: int  # knock number: the one made or checked (knocks so far + 1), or the one answered (0: poverty)
    stake: int  # lives at stake before the decision
    lives_left: int
    honest: bool | None = None  # dirty/keep: the hand was really dirty; challenge/accept: the claim was
    strength: float | None = None  # the Toepen heuristic's own estimate (hand_strength) from the same view
    relaxed: bool = False  # the estimate dropped the announcement constraints (winchance.py)
    won_last: bool = False
    lost_after: int = 0  # lives the decider lost from this decision to the end of the deal
    others_lost_after: int = 0  # lives all the other players lost over the same span
    all_folded: bool = False  # a knock everyone folded to (the knocker wins the deal)
    folds: int = 0  # players who folded to this knock
    opponents: int = 3  # players at the table besides the decider

    @property
    def ev(self) -> float:
        """Lives gained from here on relative to an average opponent (others' mean loss minus own loss)."""
        return self.others_lost_after / self.opponents - self.lost_after

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _strength_fn():
    """The heuristic's hand_strength if that module is importable (it is another team's file)."""
    try:
        from agents.heuristics.toepen_strength import hand_strength
    except ImportError:
        return None
    return hand_strength


class Recorder:
    """Plays deals of one game and records the decisions of the measured seats."""

    def __init__(self, game, estimator: WinChance, seed: int = 0, random_carry: bool = False,
                 records_to: str | None = None, preset: str | None = None) -> None:
        self.game, self.estimator, self.seed, self.random_carry = game, estimator, seed, random_carry
        self.records_to, self.preset = records_to, preset  # deal records of the deals played (evaluation/records.py)
        self.knock_id = game.actions.id(Act.KNOCK)
        self.hand_strength = _strength_fn()

    def table(self, agent: str, opponents: str, deal: int) -> tuple[list[str], set[int]]:
        """Spec per seat and the measured seats of deal ``deal`` (rotating seat)."""
        n = self.game.num_players
        if opponents == SELF:
            return [agent] * n, set(range(n))
        seat = deal % n
        return [agent if s == seat else opponents for s in range(n)], {seat}

    def record_deal(self, specs: list[str], factories: dict[str, Any], measured: set[int], deal: int,
             label: str) -> list[Decision]:
        """Play deal number ``deal`` with an agent of ``specs[s]`` in each seat; return its records."""
        game = self.game
        state: ToepenState = game.new_state(np.random.default_rng([self.seed, deal]), random_carry=self.random_carry)
        agents = [factories[spec](self.seed * 100_003 + deal * 16 + s) for s, spec in enumerate(specs)]
        for s, a in enumerate(agents):
            a.reset(self.seed * 100_003 + deal * 16 + s)
        watcher = _DecisionWatcher(self, measured, np.random.default_rng([self.seed, deal, 1]), label, deal)
        watching = records.watcher(self.records_to, game, [self.seed, deal], self.random_carry, self.preset, watcher)
        play(game, state, agents, watching)
        records.write(self.records_to, f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', label)}_deal{deal:05d}", watching, specs)
        return [self.finish(rec, lost, state) for rec, lost in watcher.records]

    def kind(self, state: ToepenState, legal: list[int], action: int) -> str | None:
        """The recorded kind of ``action`` at ``state``, or None (card play without a knock option...)."""
        kinds = PHASE_KINDS.get(state.phase)
        if kinds is None:
            return None
        if kinds[0] == "knock":
            if self.knock_id not in legal:
                return None
            return "knock" if action == self.knock_id else "check"
        return kinds[0] if self.game.actions.label(action) == kinds[0] else kinds[1]

    def decision(self, state: ToepenState, seat: int, kind: str, view: dict, rng: np.random.Generator,
                 label: str, deal: int) -> Decision:
        pos = position(self.game, state, seat)
        est = self.estimator.estimate_position(pos, rng)
        before_play = state.phase in (Phase.DIRTY, Phase.CHALLENGE)
        honest = None
        if kind in ("dirty", "keep"):
            honest = all(rank_of(c) in DIRTY_RANKS for c in state.hands[seat])
        elif kind in ("challenge", "accept"):
            honest = all(rank_of(c) in DIRTY_RANKS for c in state.claim)
        knock = state.knocks if kind in ("stay", "fold") else state.knocks + 1
        strength = None if self.hand_strength is None else float(self.hand_strength(view, self.game.rules))
        return Decision(
            agent=label, deal=deal, seat=seat, kind=kind, p=est.p, se=est.se, exact=est.exact,
            hindsight=self.estimator.hindsight(pos, rng), trick=0 if before_play else state.tricks_played + 1,
            knock=knock, stake=state.stake, lives_left=self.game.rules.lives - state.lives_lost[seat],
            honest=honest, strength=strength, relaxed=est.relaxed, opponents=self.game.num_players - 1)

    def finish(self, rec: Decision, lost_before: list[int], state: ToepenState) -> Decision:
        """Fill in the hindsight once the deal is over."""
        seat = rec.seat
        rec.won_last = state.last_trick_winner == seat and not state.folded[seat]
        rec.lost_after = state.deal_lost[seat] - lost_before[seat]
        rec.others_lost_after = sum(state.deal_lost[s] - lost_before[s] for s in range(len(lost_before)) if s != seat)
        if rec.kind == "knock":
            bd = state.breakdown
            rec.all_folded = bd.get("reason") == "all_folded" and bd.get("winner") == seat and state.knocks == rec.knock
        return rec


class _DecisionWatcher(Watcher):
    """Records the measured seats' decisions as the deal loop (agents/table.py) plays them."""

    def __init__(self, recorder: Recorder, measured: set[int], rng: np.random.Generator, label: str,
                 deal: int) -> None:
        self.recorder, self.measured, self.rng, self.label, self.deal = recorder, measured, rng, label, deal
        self.records: list[tuple[Decision, list[int]]] = []  # each with the lives lost before it
        self.last_knock: Decision | None = None

    def acting(self, turn: Turn) -> None:
        state: ToepenState = turn.state
        kind = self.recorder.kind(state, turn.legal, turn.action)
        if kind == "fold" and self.last_knock is not None and state.knocks == self.last_knock.knock:
            self.last_knock.folds += 1
        if kind and turn.seat in self.measured:
            rec = self.recorder.decision(state, turn.seat, kind, turn.view, self.rng, self.label, self.deal)
            self.records.append((rec, list(state.deal_lost)))
            self.last_knock = rec if kind == "knock" else self.last_knock


def record_deals(game, agent: str, opponents: str, deals: range, estimator: WinChance, seed: int,
                 factories: dict[str, Any] | None = None, random_carry: bool = False,
                 records_to: str | None = None, preset: str | None = None) -> list[Decision]:
    """Every recorded decision of ``agent`` over the deal numbers ``deals`` (one process); ``records_to``: a
    folder for the deal records of the deals played."""
    factories = {} if factories is None else factories
    recorder = Recorder(game, estimator, seed, random_carry, records_to, preset)
    out: list[Decision] = []
    for d in deals:
        specs, measured = recorder.table(agent, opponents, d)
        factories.update(agent_factories([spec for spec in specs if spec not in factories], game))
        out.extend(recorder.record_deal(specs, factories, measured, d, agent))
    return out
