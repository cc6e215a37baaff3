"""Who plays each seat of each deal: the learner, a frozen snapshot of it, or uniform random play.

When a deal starts, every seat draws a kind independently with the config's ``league`` weights
(``self``, ``snapshots``, ``random``); ``snapshots`` falls back to ``self`` until the first snapshot
exists, and a deal without a learner seat gets one (a random seat): every deal teaches the
learner something. A snapshot seat draws one of the last ``snapshots_kept`` snapshots by the
``snapshot_sampling`` rule, shared with the SB3 trainer (training/pool.py):

- ``recent``: weight 1 / (age + 1). The newest snapshots are the opponents the learner meets
  next (self-play's moving target); older ones keep it from forgetting how to beat them, the
  cheapest guard against the strategy cycles of plain self-play.
- ``prioritized`` (prioritised fictitious self-play, AlphaStar): weight = the snapshot's win rate
  against the learner + a floor, so time goes to the opponents not yet mastered.

A deal's outcome for a snapshot (kept under both rules, metrics ``league/winrate_<id>``): 1 if its
seats earned more on average than the learner's seats, 0 if less, 1/2 on a tie; the win rate is
the running mean that becomes an average over the last ``RATE_MEMORY`` deals (pool.py's rule,
applied to each step's finished deals at once).

Exploiters (``batched.exploiters``: best responses to an earlier agent, written by ``rams exploit --export``)
are the league's third kind of frozen member, seated as the probe seats its best response: in a share
``exploiter_deals`` of the new self-play deals (not the source's deals with scripted seats), one seat draws an
exploiter uniformly and every other seat is the learner's. The learner meets what beat it, in the deal the probe
measures (AlphaStar's league keeps its main exploiters' best responses for this: Vinyals et al. 2019; PSRO adds
each best response to the population, Lanctot et al. 2017). They are loaded from their files, never saved in the
state, and never retire.

Policies are ids: :data:`LEARNER`, :data:`RANDOM`, snapshots from :data:`FIRST_SNAPSHOT` up, exploiters from
:data:`FIRST_EXPLOITER` down; :data:`SCRIPTED` marks the seats the source plays itself (``fixed``: scripted agents,
aec_tables.py). A snapshot dropped from the kept list still plays the deals it sits in until they end.
"""

from __future__ import annotations

import numpy as np
import torch

from training.batched.network import ActorCritic
from training.pool import DRAW, PRIOR_DRAWS, RATE_MEMORY, SnapshotSampling, prioritized_weights, snapshot_weights

FIRST_EXPLOITER, SCRIPTED, LEARNER, RANDOM, FIRST_SNAPSHOT = -2, -1, 0, 1, 2
KINDS = ("self", "snapshots", "random")
"""The league's kinds, the keys of the config's ``league`` weights."""


class League:
    """The seat -> policy table of every slot, the frozen snapshots and their results against the learner."""

    def __init__(self, weights: dict[str, float], num_players: np.ndarray, fixed: np.ndarray, snapshots_kept: int,
                 sampling: str, rng: np.random.Generator, exploiter_deals: float = 0.0) -> None:
        unknown = sorted(set(weights) - set(KINDS))
        if unknown or not all(weights.get(kind, 0) >= 0 for kind in KINDS) or sum(weights.values()) <= 0:
            raise ValueError(f"league weights {weights}: kinds {', '.join(KINDS)}, not negative, not all 0")
        total = sum(weights.values())
        self.kind_p = np.array([weights.get(kind, 0.0) / total for kind in KINDS])
        if not 0.0 <= exploiter_deals <= 1.0:
            raise ValueError(f"exploiter_deals={exploiter_deals!r}: a share of the deals, from 0 to 1")
        self.exploiter_deals = float(exploiter_deals)
        self.exploiters: dict[int, torch.nn.Module] = {}  # the config's best responses by id, FIRST_EXPLOITER down
        self.sampling = SnapshotSampling(sampling)
        self.snapshots_kept = int(snapshots_kept)
        self.rng = rng
        self.seat_valid = np.arange(fixed.shape[1])[None, :] < np.asarray(num_players)[:, None]  # (B, n)
        self.fixed = fixed  # (B, n) the source's own seats, read when a deal starts
        self.seat_policy = np.full(self.seat_valid.shape, LEARNER, np.int64)
        self.score = np.zeros(self.seat_valid.shape, np.float64)  # each seat's score in the deal so far
        self.snapshots: dict[int, ActorCritic] = {}  # every snapshot still seated, kept or not
        self.kept: list[int] = []  # snapshots drawn for new deals, oldest first
        self.rates: dict[int, float] = {}
        self.deals: dict[int, int] = {}
        self.next_id = FIRST_SNAPSHOT
        self.start_deals(np.arange(len(self.seat_policy)))

    # ------------------------------------------------------------ snapshots
    def add_snapshot(self, net: ActorCritic) -> int:
        """Freeze ``net`` (already a copy) into the league; the oldest beyond ``snapshots_kept`` is no longer drawn."""
        ident, self.next_id = self.next_id, self.next_id + 1
        self.snapshots[ident], self.rates[ident], self.deals[ident] = net.eval().requires_grad_(False), DRAW, 0
        self.kept = [*self.kept, ident][-self.snapshots_kept:]
        self._forget_unseated()
        return ident

    def add_exploiter(self, net) -> int:
        """Seat the frozen ``net`` (a best response: training/batched/target.py) in the exploiter deals from now on."""
        ident = FIRST_EXPLOITER - len(self.exploiters)
        self.exploiters[ident] = net.eval().requires_grad_(False)
        return ident

    def net_of(self, ident: int) -> torch.nn.Module:
        """The frozen network that plays policy ``ident``: a snapshot or an exploiter."""
        return self.snapshots[ident] if ident >= FIRST_SNAPSHOT else self.exploiters[ident]

    def snapshot_p(self) -> np.ndarray:
        """Probabilities of the kept snapshots by the sampling rule."""
        if self.sampling is SnapshotSampling.PRIORITIZED:
            return prioritized_weights([self.rates[ident] for ident in self.kept])
        return snapshot_weights(len(self.kept))

    def _forget_unseated(self) -> None:
        seated = set(np.unique(self.seat_policy).tolist())
        for ident in [i for i in self.snapshots if i not in self.kept and i not in seated]:
            del self.snapshots[ident], self.rates[ident], self.deals[ident]

    # ---------------------------------------------------------------- deals
    def start_deals(self, slots: np.ndarray) -> None:
        """Draw every seat's policy for the deals starting in ``slots``."""
        kinds = self.rng.choice(len(KINDS), size=(len(slots), self.seat_policy.shape[1]), p=self.kind_p)
        policy = np.where(kinds == KINDS.index("random"), RANDOM, LEARNER)
        drawn = kinds == KINDS.index("snapshots")
        if self.kept:
            policy[drawn] = self.rng.choice(np.array(self.kept), size=int(drawn.sum()), p=self.snapshot_p())
        valid = self.seat_valid[slots] & ~self.fixed[slots]
        policy[~self.seat_valid[slots]] = RANDOM  # seats beyond the table never act
        policy[self.fixed[slots]] = SCRIPTED
        lonely = ~((policy == LEARNER) & valid).any(1)
        policy[np.flatnonzero(lonely), self._any_valid_seat(valid[lonely])] = LEARNER
        if self.exploiters:  # only then a draw: a run without exploiters deals as before, bit for bit
            self._seat_exploiters(policy, valid, self.fixed[slots].any(1))
        self.seat_policy[slots] = policy
        self.score[slots] = 0.0

    def _seat_exploiters(self, policy: np.ndarray, valid: np.ndarray, scripted: np.ndarray) -> None:
        """In a share ``exploiter_deals`` of the deals without scripted seats, one free seat an exploiter (drawn
        uniformly), the learner in every other free seat: the probe's deal."""
        rows = np.flatnonzero((self.rng.random(len(policy)) < self.exploiter_deals) & ~scripted)
        policy[rows] = np.where(valid[rows], LEARNER, policy[rows])
        drawn = self.rng.choice(np.array(list(self.exploiters)), size=len(rows))
        policy[rows, self._any_valid_seat(valid[rows])] = drawn

    def _any_valid_seat(self, valid: np.ndarray) -> np.ndarray:
        """One seat per row of ``valid`` (B, n), uniform among its True seats: the ``k``-th valid seat for a
        uniform ``k``, so the learner joins a seat the source left free, never a scripted one."""
        pick = (self.rng.random(len(valid)) * valid.sum(1)).astype(np.int64)
        return np.argmax(np.cumsum(valid, axis=1) > pick[:, None], axis=1)

    def end_step(self, rewards: np.ndarray, done: np.ndarray) -> dict[str, np.ndarray]:
        """Count this step's rewards; score the finished deals and draw their next ones.

        Returns per finished deal: ``learner``, the mean score of the learner's seats; for the deals
        with other seats, ``edge``, that minus the other seats' mean; for the deals whose other seats
        all play random, ``vs_random``, the learner's mean score."""
        self.score += rewards
        ended = np.flatnonzero(done)
        policy, score, valid = self.seat_policy[ended], self.score[ended], self.seat_valid[ended]
        learner = mean_where(score, policy == LEARNER)
        others = (policy != LEARNER) & valid
        mixed = others.any(1)
        only_random = mixed & ~(others & (policy != RANDOM)).any(1)
        scripted = policy == SCRIPTED
        with_scripted = scripted.any(1)
        results = {"learner": learner, "edge": learner[mixed] - mean_where(score[mixed], others[mixed]),
                   "vs_random": learner[only_random],
                   "edge_scripted": learner[with_scripted] - mean_where(score[with_scripted], scripted[with_scripted])}
        exploiter = policy <= FIRST_EXPLOITER
        exploited = exploiter.any(1)
        results["vs_exploiter"] = learner[exploited] - mean_where(score[exploited], exploiter[exploited])
        if len(ended):
            self._record(policy, score, learner)
            self.start_deals(ended)
            self._forget_unseated()
        return results

    def _record(self, policy: np.ndarray, score: np.ndarray, learner: np.ndarray) -> None:
        """Each seated snapshot's outcomes against the learner in these deals, folded into its win rate."""
        for ident in np.unique(policy[policy >= FIRST_SNAPSHOT]).tolist():
            seats = policy == ident
            present = seats.any(1)
            lead = mean_where(score[present], seats[present]) - learner[present]
            outcome = float(np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, DRAW)).mean())
            count = int(present.sum())
            self.deals[ident] += count
            weight = min(1.0, count / min(self.deals[ident] + PRIOR_DRAWS, RATE_MEMORY))
            self.rates[ident] += weight * (outcome - self.rates[ident])

    # ---------------------------------------------------------------- acting
    def policy_of_slot(self, to_act: np.ndarray) -> np.ndarray:
        """The policy id that plays each slot's seat to act."""
        return self.seat_policy[np.arange(len(to_act)), to_act]

    def state(self) -> dict:
        """Every snapshot still held (kept or seated), their results, and who sits where in the deals in play."""
        return {"kept": list(self.kept), "rates": {str(i): r for i, r in self.rates.items()},
                "deals": {str(i): d for i, d in self.deals.items()}, "next_id": self.next_id,
                "weights": {str(i): net.state_dict() for i, net in self.snapshots.items()},
                "seat_policy": self.seat_policy.copy(), "score": self.score.copy()}

    def load_state(self, state: dict, make_net, seats: bool = True) -> None:
        """The snapshots of :meth:`state` (``make_net()`` builds an empty network for each) and its seats. With
        ``seats=False`` (the source dealt afresh: the saved seats were the dropped deals', their scripted seats
        too), or a state without seats, every seat is drawn afresh. The exploiters stay the config's."""
        self.snapshots, self.rates, self.deals = {}, {}, {}
        for key, weights in state["weights"].items():
            net = make_net()
            net.load_state_dict(weights)
            ident = int(key)
            self.snapshots[ident] = net.eval().requires_grad_(False)
            self.rates[ident], self.deals[ident] = float(state["rates"][key]), int(state["deals"][key])
        self.kept, self.next_id = [int(i) for i in state["kept"]], int(state["next_id"])
        if not seats or "seat_policy" not in state:
            self.start_deals(np.arange(len(self.seat_policy)))
            return
        seats, score = np.asarray(state["seat_policy"]), np.asarray(state["score"])
        if seats.shape != self.seat_policy.shape or score.shape != self.score.shape:
            raise ValueError(f"saved seats {seats.shape}, this league has {self.seat_policy.shape}")
        missing = set(np.unique(seats[seats >= FIRST_SNAPSHOT]).tolist()) - set(self.snapshots)
        if missing:
            raise ValueError(f"saved seats name snapshots {sorted(missing)} the state does not hold")
        if (seats <= FIRST_EXPLOITER).any() and not set(np.unique(seats[seats <= FIRST_EXPLOITER]).tolist()) <= \
                set(self.exploiters):
            raise ValueError(f"saved seats name exploiters the config does not list (it lists "
                             f"{len(self.exploiters)}): resume with the run's own batched.exploiters")
        self.seat_policy[:], self.score[:] = seats, score


def snapshot_id(steps: int, every: int) -> int:
    """The id of the snapshot frozen when a run crossed ``steps`` learner decisions, ``every`` being its
    ``snapshot_every`` (the league freezes one on each crossing of a multiple, ids counting up from
    :data:`FIRST_SNAPSHOT`)."""
    count, rest = divmod(int(steps), int(every))
    if rest or count < 1:
        raise ValueError(f"snapshots are frozen on crossing multiples of snapshot_every ({every:,}); "
                         f"{steps:,} is not one")
    return FIRST_SNAPSHOT + count - 1


def snapshot_steps(ident: int, every: int) -> int:
    """The crossing at which snapshot ``ident`` was frozen: :func:`snapshot_id` inverted."""
    return (ident - FIRST_SNAPSHOT + 1) * every


def mean_where(values: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Row means of ``values`` over the ``where`` entries (rows with none give 0)."""
    return (values * where).sum(1) / np.maximum(where.sum(1), 1)
