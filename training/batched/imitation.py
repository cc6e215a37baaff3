"""Warm start by imitation for the batched trainer: the general network copies a teacher at every table first.

The SB3 path's warm start (training/imitation.py) records a teacher in the learner's one seat of one table.
A general agent plays every table size and preset of its game, and its self-play league begins as copies of
the learner, so here the teacher sits in *every* seat of deals spread evenly over the run's tables (the
``tables`` of the config, as the trainer spreads its slots), and its decisions are stored in the general space
(rams_env/core/general.py) the network reads. Deals start from random carried-over session states, as the
trainer's do, so the teacher is also copied where a pot or lives were carried in.

Why: in the pot games, self-play PPO from a random network settled below the default heuristic (Fipsen's
general run: -0.29 chips/deal at 4p, docs/results.md), as the SB3 agents did before imitation gave them the
heuristic's card play to start from. The fit is the SB3 path's: the actor's cross-entropy to the teacher's
action under the mask, the critic's squared error to the return that followed the decision (the seat's score
change up to its next decision, the first decision also carrying what was paid before it, as the rollout
buffer books it; times ``reward_scale``), a tenth held out for the agreement figure.

A refresher (``warm_start.actions`` with ``batched.init_from``) teaches a trained agent one choice again, e.g.
Tippen's blind knock, which its self-play had let collapse: only the decisions where a listed action is legal are
taught, and the same deals' other decisions hold the agent's own policy and values where they were (a KL and a
squared error to their values before the fit, Learning without Forgetting). Taught alone, 30,000 blind knocks
moved the whole network: the refreshed Tippen agent lost to the heuristic by -0.36 chips/deal at modern 4p,
where it had won +0.16 (docs/results.md, "The blind privileges"). A choice that exists at every table, taught at a
few, moves at the others too: ``warm_start.hold_other_tables`` also holds the run's other tables (Tippen's tap,
taught where the bête is a stake, fell from 0.47 to 0.27 at the default table without it; docs/results.md, "The
tap where the bête is a stake").

A teacher ``rollout:<style>`` (e.g. ``rollout:heuristic``) is the rollout searcher of evaluation/ceiling.py over
that style: at each decision with a choice it plays every legal action out in ``warm_start.rollout_worlds`` re-deals
of the cards the seat cannot see, the style in every seat after it, and picks the best on average (one step of
policy improvement on the style). It beat the heuristic at Tippen's Loup 5p (+0.105 chips a deal, docs/results.md)
where the agent lost; copying it is expert iteration's step (Anthony, Tian and Barber 2017). It costs some 0.1 s a
decision, so a recording may be split into ``warm_start.chunks`` independent streams of deals, run on
``warm_start.workers`` processes (training/batched/chunks.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from agents.registry import agent_factories
from agents.table import chosen, reads
from evaluation.ceiling import Searcher
from rams_env.core.actions import with_plays
from rams_env.core.game import Game
from rams_env.core.general import GeneralSpace, Table
from training.batched.elementwise import exp
from training.batched.network import ActorCritic, masked_log_probs
from training.batched.sparse import SparseObs, sparse_rows
from training.batched.tables import TableSpec
from training.config import ROLLOUT_PREFIX, WarmStartConfig
from training.imitation import HELD_OUT, Demonstrations, discounted, fit_epochs, fit_generator

NO_DECISION_DEALS = 200
"""Deals per table after which a refresher whose ``actions`` were never legal stops with an error."""
REST_PER_TAUGHT = 2
"""A refresher keeps the learner's own choices on up to this many other decisions per taught one."""
SEATING_STREAM = 2
"""The seating of ``among``'s styles draws from [seed, this] (the held tables' deals draw from [seed, 1])."""
ROLLOUT_WORLDS = WarmStartConfig.rollout_worlds
"""Worlds per searched decision of a ``rollout:`` teacher (``warm_start.rollout_worlds``)."""


@dataclass
class TeacherTable:
    """One table's teachers: the reference game, its map into the general space, one teacher per seat."""

    game: Game
    general: Table  # its map into the general space
    teachers: list
    reads: tuple[bool, bool]
    kept: np.ndarray  # native action indices: a decision is recorded only if one is legal (every one: all kept)
    search: Searcher | None = None  # a rollout: teacher's searcher; the teachers are then its style's players
    strangers: list = field(default_factory=list)  # per ``among`` style, one of its players per seat

    def seated(self, rng: np.random.Generator | None) -> list:
        """The players of one deal: the teachers, with one ``among`` style (drawn from ``rng``) in 0 to n-1 seats
        drawn uniformly, so a teacher alone among strangers and a stranger alone among teachers are alike."""
        if not self.strangers:
            return self.teachers
        style = self.strangers[int(rng.integers(len(self.strangers)))]
        count = int(rng.integers(len(self.teachers)))
        taken = set(rng.choice(len(self.teachers), count, replace=False).tolist())
        return [style[seat] if seat in taken else teacher for seat, teacher in enumerate(self.teachers)]


def teacher_tables(game_name: str, tables: list[TableSpec], teacher: str, actions: Sequence[str] = (),
                   seed: int = 0, worlds: int = ROLLOUT_WORLDS, confidence: float = 0.0,
                   among: Sequence[str] = ()) -> list[TeacherTable]:
    """Each table's game, general map and teachers (a teacher per seat: agents may keep per-deal memory), and
    the actions whose decisions are recorded (``actions`` by label, ``play`` for every card; none named: every
    decision). A ``rollout:`` teacher gets a searcher per table, its re-deals drawn from ``seed``, leaving the
    style's choice only for an action clearly better by ``confidence`` (evaluation/ceiling.py). ``among``: the
    styles that may sit beside the teacher (:meth:`TeacherTable.seated`), a player of each per seat."""
    space = GeneralSpace(game_name)
    style = teacher.removeprefix(ROLLOUT_PREFIX)
    out = []
    for number, spec in enumerate(tables):
        game = spec.make_game(game_name)
        factories = agent_factories([style, *among], game)
        teachers = [factories[style](seat) for seat in range(game.num_players)]
        strangers = [[factories[name](seat) for seat in range(game.num_players)] for name in among]
        labels = [game.actions.label(a) for a in range(game.actions.size)]
        taught = set(with_plays(actions, labels, game.pack().codes))
        kept = np.array([a for a, label in enumerate(labels) if not actions or label in taught], np.int64)
        search = Searcher.teacher(game, style, worlds, np.random.default_rng([seed, number]), confidence) \
            if teacher.startswith(ROLLOUT_PREFIX) else None
        out.append(TeacherTable(game, space.table(game), teachers, reads(teachers[0]), kept, search, strangers))
    return out


class Deal(NamedTuple):
    """One recorded deal in its table's native space, a row per decision."""

    observations: np.ndarray  # float32 (n, native observation size)
    masks: np.ndarray  # bool (n, native actions)
    actions: np.ndarray  # int64 (n,)
    returns: np.ndarray  # float32 (n,)


def play_deal(table: TeacherTable, rng: np.random.Generator, deal_seed: int, gamma: float, scale: float,
              players: list | None = None) -> Deal:
    """One deal with the teacher in every seat, or ``players`` (:meth:`TeacherTable.seated`): then only the
    teachers' decisions are kept (their returns booked as every seat's are)."""
    game, players = table.game, players or table.teachers
    state = game.new_state(rng, None, random_carry=True)
    for i, player in enumerate(players):
        player.reset(deal_seed + i)
    needs = [table.reads if player is teacher else reads(player)
             for player, teacher in zip(players, table.teachers, strict=True)]
    observations, masks, actions, who, scores = [], [], [], [], []
    while not state.terminal:
        to_act, legal = state.to_act, game.legal_actions(state)
        obs = np.zeros(game.observation.size, np.float32)
        game.encode(state, to_act, obs)
        mask = np.zeros(game.actions.size, bool)
        mask[legal] = True
        if table.search is not None and players[to_act] is table.teachers[to_act]:
            action = table.search.improved(state, players)
        else:
            action = chosen(game, state, players[to_act], legal, needs[to_act])
        for column, value in ((observations, obs), (masks, mask), (actions, action), (who, to_act),
                              (scores, float(state.scores[to_act]))):
            column.append(value)
        game.apply(state, action)
    returns = np.array(seat_returns(who, scores, list(state.scores), gamma, scale), np.float32)
    deal = Deal(np.array(observations), np.array(masks), np.array(actions, np.int64), returns)
    if players is table.teachers:
        return deal
    teachers_acting = np.array([players[seat] is table.teachers[seat] for seat in who], bool)
    return Deal(*(column[teachers_acting] for column in deal))


def seat_returns(who: list[int], scores: list[float], final: list[float], gamma: float, scale: float) -> list[float]:
    """The return after each decision of a deal: per seat, its score change up to its next decision (the
    first from the deal's start, the last up to the end), discounted over the seat's own decisions."""
    returns = [0.0] * len(who)
    for seat in set(who):
        mine = [i for i, s in enumerate(who) if s == seat]
        marks = [0.0, *(scores[i] for i in mine[1:]), final[seat]]
        rewards = [(after - before) * scale for before, after in zip(marks[:-1], marks[1:], strict=True)]
        for i, value in zip(mine, discounted(rewards, gamma), strict=True):
            returns[i] = value
    return returns


def record_tables(game_name: str, tables: list[TableSpec], teacher: str, decisions: int, gamma: float,
                  scale: float, seed: int, progress: bool = True, actions: Sequence[str] = ()) -> Demonstrations:
    """Whole deals, round robin over ``tables`` (the run's, or ``warm_start.tables``), until ``decisions`` are
    recorded (in the general space); with ``actions`` (``warm_start.actions``) only the decisions where one of
    them is legal are kept and counted (:func:`record_refresher` also returns the others)."""
    return record_refresher(game_name, tables, teacher, decisions, gamma, scale, seed, progress, actions)[0]


def record_refresher(game_name: str, tables: list[TableSpec], teacher: str, decisions: int, gamma: float,
                     scale: float, seed: int, progress: bool = True, actions: Sequence[str] = (),
                     hold: Sequence[TableSpec] = (), worlds: int = ROLLOUT_WORLDS, confidence: float = 0.0,
                     among: Sequence[str] = ()) -> tuple[Demonstrations, Demonstrations | None]:
    """(taught, rest): :func:`record_tables`'s decisions, and up to ``REST_PER_TAUGHT`` times as many of the same
    deals' other decisions (None without ``actions``), where a refresher keeps the learner's own choices. With
    ``hold`` (``warm_start.hold_other_tables``: the run's other tables) half of the rest is every decision of
    deals there instead, one after each taught deal, so a choice taught at a few tables stays where it was at
    the others. With ``among`` the taught deals seat those styles beside the teacher (:meth:`TeacherTable.seated`)
    and keep only the teacher's decisions; the held tables' deals keep the teacher in every seat."""
    taught_deals = RoundRobin(teacher_tables(game_name, tables, teacher, actions, seed, worlds, confidence, among),
                              np.random.default_rng(seed), seed)
    # the held tables' deals come from a stream of their own: the taught deals are the same with or without them;
    # the learner's own choices are held there, so the teacher's are never searched for
    held_deals = RoundRobin(teacher_tables(game_name, list(hold), teacher.removeprefix(ROLLOUT_PREFIX)),
                            np.random.default_rng([seed, 1]), seed) if hold else None
    taught, rest, held = Columns(), Columns(), Columns()
    held_cap = REST_PER_TAUGHT * decisions // 2 if hold else 0
    rest_cap = REST_PER_TAUGHT * decisions - held_cap
    count = 0
    with tqdm(total=decisions, unit="decision", desc=f"warm start: recording the teacher at {len(tables)} tables",
              disable=not progress, dynamic_ncols=True) as bar:
        while count < decisions:  # whole deals: the last one may go past the count
            table, native = taught_deals.next(gamma, scale)
            kept = native.masks[:, table.kept].any(axis=1)
            taught.add(table.general, Deal(*(column[kept] for column in native)))
            if actions and len(rest) < rest_cap:  # a plain warm start keeps every decision
                rest.add(table.general, Deal(*(column[~kept] for column in native)))
            if held_deals is not None and len(held) < held_cap:
                held_table, held_deal = held_deals.next(gamma, scale)
                held.add(held_table.general, held_deal)
            count += int(kept.sum())
            bar.update(int(kept.sum()))
            if not count and taught_deals.deals >= NO_DECISION_DEALS * len(taught_deals.tables):
                raise ValueError(f"warm_start.actions {list(actions)}: never legal in {taught_deals.deals} deals of "
                                 f"the teacher at {', '.join(t.label() for t in tables[:6])}")
    rest.extend(held)
    return taught.tensors(), rest.tensors()


class RoundRobin:
    """Whole deals with the teacher in every seat (or beside ``among``'s styles), at each table in turn."""

    def __init__(self, tables: list[TeacherTable], rng: np.random.Generator, seed: int) -> None:
        self.tables, self.rng, self.seed, self.deals = tables, rng, seed, 0
        # the seating has a stream of its own: the cards dealt are those of the recording without ``among``
        self.seating = np.random.default_rng([seed, SEATING_STREAM])

    def next(self, gamma: float, scale: float) -> tuple[TeacherTable, Deal]:
        """The next deal's table and its decisions."""
        table = self.tables[self.deals % len(self.tables)]
        native = play_deal(table, self.rng, self.seed + self.deals * len(table.teachers), gamma, scale,
                           table.seated(self.seating))
        self.deals += 1
        return table, native


class CompactRows:
    """Recorded observations as their non-zero entries (training/batched/sparse.py), made dense a batch at a time.

    A general observation is a few percent non-zero (Tippen's 1,521 floats hold about forty, at most ninety), so
    dense float32 records of a refresher cost 6 KB a decision: Loup's 400,000 taught decisions and their held ones
    took 12.5 GB at the peak (docs/results.md). Kept as entries they take an eighth of that, and :meth:`dense` gives
    back the same floats exactly (each entry is added once to a zero), so a fit reads what it read before, bit for
    bit.
    """

    def __init__(self, rows: SparseObs, size: int) -> None:
        self.rows, self.size = rows, size

    @classmethod
    def of(cls, pieces: list[SparseObs], size: int) -> CompactRows:
        """Parts kept by :func:`compact`, stacked (each padded to the widest row)."""
        width = max(piece.index.shape[1] for piece in pieces)
        index = torch.cat([F.pad(piece.index, (0, width - piece.index.shape[1])) for piece in pieces])
        value = torch.cat([F.pad(piece.value, (0, width - piece.value.shape[1])) for piece in pieces])
        return cls(SparseObs(index, value), size)

    def __getitem__(self, rows) -> CompactRows:
        return CompactRows(self.rows[rows], self.size)

    def __len__(self) -> int:
        return len(self.rows)

    def dense(self) -> torch.Tensor:
        return SparseObs(self.rows.index.long(), self.rows.value).dense(self.size)


def compact(observations: np.ndarray) -> SparseObs:
    """One deal's dense ``(n, size)`` rows as their entries: recorded deals are kept so, never all dense. The
    column indices are kept as int16 (every general observation is shorter than 32,768)."""
    if observations.shape[1] > np.iinfo(np.int16).max:
        raise ValueError(f"an observation of {observations.shape[1]} floats: too long for int16 column indices")
    rows = sparse_rows(torch.from_numpy(observations))
    return SparseObs(rows.index.to(torch.int16), rows.value)


def dense(observations: torch.Tensor | CompactRows) -> torch.Tensor:
    """Observations as the network reads them here: dense float32 rows."""
    return observations.dense() if isinstance(observations, CompactRows) else observations


class Columns:
    """Recorded decisions in the general space, gathered deal by deal."""

    def __init__(self) -> None:
        self.parts: tuple[list, ...] = ([], [], [], [])
        self.rows = 0
        self.size = 0  # the observation's length

    def __len__(self) -> int:
        return self.rows

    def add(self, general: Table, deal: Deal) -> None:
        observations = general.obs(deal.observations)
        self.size = observations.shape[1]
        for part, value in zip(self.parts, (compact(observations), general.mask(deal.masks),
                                            general.action_of_native[deal.actions], deal.returns), strict=True):
            part.append(value)
        self.rows += len(deal.actions)

    def extend(self, other: Columns) -> None:
        """``other``'s decisions after these."""
        for mine, theirs in zip(self.parts, other.parts, strict=True):
            mine.extend(theirs)
        self.rows += other.rows
        self.size = self.size or other.size

    def tensors(self) -> Demonstrations | None:
        """The decisions as tensors, the observations compact (None: none recorded)."""
        if not self.rows:
            return None
        observations, *rest = self.parts
        return Demonstrations(CompactRows.of(observations, self.size),
                              *(torch.from_numpy(np.concatenate(part)) for part in rest))


def joined(parts: Sequence[Demonstrations | None]) -> Demonstrations | None:
    """Recorded decisions one after another (None: none recorded)."""
    parts = [part for part in parts if part is not None]
    if len(parts) <= 1:
        return parts[0] if parts else None
    observations = CompactRows.of([part.observations.rows for part in parts], parts[0].observations.size)
    return Demonstrations(observations, *(torch.cat([getattr(part, name) for part in parts])
                                          for name in ("masks", "actions", "returns")))


def losses(policy: ActorCritic, data: Demonstrations) -> tuple[torch.Tensor, torch.Tensor]:
    """(actor cross-entropy, critic squared error) of ``policy`` on ``data``."""
    logits, values = policy(dense(data.observations))
    log_prob = masked_log_probs(logits, data.masks).gather(1, data.actions[:, None]).squeeze(1)
    return -log_prob.mean(), torch.nn.functional.mse_loss(values, data.returns)


def agreement(policy: ActorCritic, data: Demonstrations) -> float:
    """Share of ``data``'s real choices (two or more legal actions) where the greedy action is the teacher's."""
    choices = data.batch(torch.nonzero(data.masks.sum(dim=1) > 1).flatten())
    if not len(choices):
        return 1.0
    with torch.no_grad():
        greedy = masked_log_probs(policy.logits(dense(choices.observations)), choices.masks).argmax(-1)
    return float((greedy == choices.actions).float().mean())


class OwnChoices(NamedTuple):
    """The learner's own policy and values at decisions a refresher does not teach, before the fit."""

    observations: CompactRows | torch.Tensor
    masks: torch.Tensor
    log_probs: torch.Tensor  # (n, actions), masked
    values: torch.Tensor

    @classmethod
    def of(cls, policy: ActorCritic, rest: Demonstrations, chunk: int = 4096) -> OwnChoices:
        with torch.no_grad():
            parts = [policy(dense(rest.observations[i:i + chunk])) for i in range(0, len(rest), chunk)]
        logits = torch.cat([p[0] for p in parts])
        return cls(rest.observations, rest.masks, masked_log_probs(logits, rest.masks),
                   torch.cat([p[1] for p in parts]))

    def drift(self, policy: ActorCritic, index: torch.Tensor, value_coef: float) -> torch.Tensor:
        """KL(own choices before || policy now) plus ``value_coef`` times the values' squared change, at ``index``:
        Learning without Forgetting (Li and Hoiem, 2016) on the decisions the teacher does not teach."""
        logits, values = policy(dense(self.observations[index]))
        now, before, mask = masked_log_probs(logits, self.masks[index]), self.log_probs[index], self.masks[index]
        kl = torch.where(mask, exp(before) * (before - now), torch.zeros_like(now)).sum(-1).mean()
        return kl + value_coef * torch.nn.functional.mse_loss(values, self.values[index])

    def flips(self, policy: ActorCritic, index: torch.Tensor) -> float:
        """Share of the real choices (two or more legal actions) at ``index`` whose greedy action has changed."""
        with torch.no_grad():
            now = masked_log_probs(policy.logits(dense(self.observations[index])), self.masks[index])
        choices = self.masks[index].sum(-1) > 1
        changed = now.argmax(-1) != self.log_probs[index].argmax(-1)
        return float(changed[choices].float().mean()) if bool(choices.any()) else 0.0


def fit(policy: ActorCritic, data: Demonstrations | Sequence[Demonstrations], epochs: int, batch_size: int,
        learning_rate: float, value_coef: float, progress: bool = True, rest: Demonstrations | None = None,
        hold_coef: float = 1.0, fit_seed: int = 0) -> dict[str, float]:
    """Supervised fit of actor and critic with an Adam of its own (PPO's starts afresh after it); metrics on
    the held-out share. ``data``: the taught decisions, or a list of several lessons' (``warm_start.also``), fitted
    together, each lesson's last tenth held out and its agreement reported as ``lesson<k>_agreement``. ``rest``
    (a refresher's other decisions): each step also holds the policy and values there where they were before the
    fit, on a random batch of them as large as the taught one, that term weighted by ``hold_coef``. ``fit_seed``
    seeds the minibatches' order and the held batches (training/imitation.py, ``fit_generator``; 0: as every
    shipped recipe was fitted), so one recording fitted with 1, 2, ... shows how far a recipe's fits scatter."""
    lessons = [data] if isinstance(data, Demonstrations) else list(data)
    splits = [lesson.split(HELD_OUT) for lesson in lessons]
    train, held_out = joined([head for head, _ in splits]), joined([tail for _, tail in splits])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate, eps=1e-5)
    own = OwnChoices.of(policy, rest) if rest is not None else None
    order, generator = fit_generator(fit_seed), torch.Generator().manual_seed(fit_seed)

    def loss(batch: Demonstrations) -> torch.Tensor:
        actor, critic = losses(policy, batch)
        total = actor + value_coef * critic
        if own is not None:
            total = total + hold_coef * own.drift(
                policy, torch.randint(len(own.values), (len(batch),), generator=generator), value_coef)
        return total

    fit_epochs(loss, train, optimizer, policy.parameters, epochs, batch_size, progress, order)
    with torch.no_grad():
        actor, critic = losses(policy, held_out)
        metrics = {"decisions": sum(len(lesson) for lesson in lessons), "agreement": agreement(policy, held_out),
                   "actor_loss": float(actor), "value_loss": float(critic)}
        if len(lessons) > 1:
            metrics.update({f"lesson{k}_agreement": agreement(policy, tail) for k, (_, tail) in enumerate(splits)})
        if own is not None:
            sample = torch.arange(min(len(own.values), 20_000))
            metrics["rest_drift"] = float(own.drift(policy, sample, 0.0))
            metrics["rest_flips"] = own.flips(policy, sample)
    return metrics
