"""The batched environment every compiled game shares: buffers, checks, seeding, policy groups.

A game is a package beside this module holding a subclass (``toepen/__init__.py``) and three
modules: ``spec.build_spec`` (its rule data for the kernels), ``state.allocate`` (one numpy record
per deal) and ``kernels.KERNELS`` (``reset_all``, ``step_all``, ``step_random_all``,
``observe_all``: rams_env/vector/kernels.py compiled with the game's pieces). This class owns
what is the same for every game: building those, argument checks, the illegal-action policy,
preallocated outputs, deals queued from outside, and grouping deals by which policy plays the
seat to act.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from enum import Enum
from typing import Any

import numpy as np

from rams_env.core.game import Game, OptionError
from rams_env.core.observation import OBS_DTYPE
from rams_env.vector.bits import count_illegal, sample_all, seed_streams
from rams_env.vector.records import with_tables

MASK_DTYPE = np.int8
REWARD_DTYPE = np.float32
MAX_LISTED = 5
"""Illegal deals described one by one in an error message; the rest are counted."""


class IllegalActionsError(ValueError):
    """Actions out of range, or masked out, in some deals of the batch (nothing was changed)."""


class Episode(Enum):
    DEAL = "deal"  # one deal per episode (carried-over state fresh, or random with random_carry)
    SESSION = "session"  # deals until the game's session rule ends it


class IllegalMode(Enum):
    RAISE = "raise"  # refuse the whole batch, change nothing
    PENALTY = "penalty"  # end the offending deals with illegal_reward for the offender, play the others


class BatchEnv:
    """``num_envs`` deals of one game stepped together by compiled kernels; see docs/vector.md.

    ``reset(seed) -> (obs, mask, to_act)``; ``step(actions) -> (obs, mask, to_act, rewards, done)``.
    ``obs[b]`` is what the seat ``to_act[b]`` of deal ``b`` may know (the AEC env's observation,
    bit for bit), ``mask[b]`` its legal actions. ``rewards[b, s]`` is seat ``s``'s score change
    caused by this step; ``done[b]`` marks a finished episode, already replaced by a new one
    (auto-reset: ``obs``, ``mask`` and ``to_act`` are then the new episode's). The arrays returned
    are the environment's own buffers, overwritten by the next call: copy what you keep.
    """

    def __init__(self, game: Game, num_envs: int, *, episode: str | Episode = Episode.DEAL,
                 random_carry: bool = False, illegal_action: str | IllegalMode = IllegalMode.RAISE,
                 illegal_reward: float = -1.0) -> None:
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.episode = Episode(episode)
        self.random_carry = bool(random_carry)
        self.illegal_mode = IllegalMode(illegal_action)
        self.illegal_reward = float(illegal_reward)
        package = type(self).__module__
        self.kernels = importlib.import_module(f"{package}.kernels").KERNELS
        record, tables = importlib.import_module(f"{package}.spec").build_spec(
            game, session=self.episode is Episode.SESSION, random_carry=self.random_carry)
        self.spec = (with_tables(record, tables), tables)
        self.deals = importlib.import_module(f"{package}.state").allocate(
            num_envs, game.player_range()[1], len(game.pack()))
        self.num_actions = game.actions.size
        self.obs_size = game.observation.size
        self.obs = np.zeros((num_envs, self.obs_size), OBS_DTYPE)
        self.mask = np.zeros((num_envs, self.num_actions), MASK_DTYPE)
        self.to_act = np.zeros(num_envs, np.int8)
        self.rewards = np.zeros((num_envs, self.num_players), REWARD_DTYPE)
        self.done = np.zeros(num_envs, np.bool_)
        self._out = (self.obs, self.mask, self.to_act, self.rewards, self.done)
        self.actions = np.zeros(num_envs, np.int64)  # the last actions step_random() drew
        self._flags = np.zeros(num_envs, np.int8)
        self._started = False

    # -------------------------------------------------------------- stepping
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start a new episode in every deal; ``seed`` fixes every deal's random stream."""
        if seed is not None or not self._started:
            self.deals["rng"] = seed_streams(seed, self.num_envs)
        self.kernels.reset_all(self.deals, self.spec, self._out)
        self._started = True
        return self.obs, self.mask, self.to_act

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per deal (ids of the AEC env's action space), for the seat to act in each."""
        chosen = self._checked(actions)
        self.kernels.step_all(self.deals, self.spec, chosen, self._out, self.illegal_reward)
        return self._outputs()

    def step_random(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every deal plays a uniformly random legal action (drawn in the kernel; kept in ``self.actions``)."""
        self._require_started()
        self.kernels.step_random_all(self.deals, self.spec, self._out, self.actions)
        return self._outputs()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per deal, from each deal's own stream (a new array)."""
        self._require_started()
        out = np.empty(self.num_envs, np.int64)
        sample_all(self.deals, self.mask, out)
        return out

    def observe(self, seats: Any) -> np.ndarray:
        """A new ``(B, obs_size)`` array: what seat ``seats[b]`` (or one seat for all) may know in deal ``b``."""
        self._require_started()
        wanted = np.broadcast_to(np.asarray(seats), (self.num_envs,))
        if wanted.dtype.kind not in "iu" or wanted.min() < 0 or wanted.max() >= self.num_players:
            raise ValueError(f"seats must be whole numbers 0..{self.num_players - 1}, one or one per deal")
        out = np.empty((self.num_envs, self.obs_size), OBS_DTYPE)
        self.kernels.observe_all(self.deals, self.spec, np.ascontiguousarray(wanted, np.int64), out)
        return out

    # ------------------------------------------------------------- inference
    def policy_groups(self, seat_policy: Any) -> dict[int, np.ndarray]:
        """Deal indices by the policy that plays the seat to act: ``{policy id: deals}``.

        ``seat_policy`` gives a policy id per seat, ``(num_players,)`` for every deal or
        ``(B, num_players)`` per deal. Each policy then runs once on ``obs[deals]``.
        """
        table = np.asarray(seat_policy)
        if table.dtype.kind not in "iu" or table.shape not in ((self.num_players,), (self.num_envs, self.num_players)):
            raise ValueError(f"seat_policy must be integer ids of shape ({self.num_players},) or "
                             f"({self.num_envs}, {self.num_players}), got {table.dtype} {table.shape}")
        seats = self.to_act.astype(np.int64)
        policy = table[seats] if table.ndim == 1 else table[np.arange(self.num_envs), seats]
        order = np.argsort(policy, kind="stable")
        ids, starts = np.unique(policy[order], return_index=True)
        return dict(zip(ids.tolist(), np.split(order, starts[1:]), strict=True))

    # ------------------------------------------------------------ fixed deals
    def queue_deals(self, indices: Sequence[int], orders: Any, dealers: Any = None, lives_lost: Any = None) -> None:
        """The next deal started in each of ``indices`` (by reset, auto-reset or the session) uses these cards.

        ``orders[i]`` is a permutation of the pack indices 0..cards-1: hands are dealt from its
        front seat by seat (as the reference engine deals), the rest is the stock, top first.
        ``dealers`` and ``lives_lost`` apply when that deal starts a new episode (None: drawn).
        Used for duplicate deals and to replay the reference engine's deals.
        """
        idx, order, dealer = self._checked_orders(indices, orders, dealers)
        _, lives = self._checked_carry(len(idx), None, lives_lost, "lives_lost")
        if lives is None:
            lives = np.full((len(idx), self.num_players), -1)
        self._queue(idx, order, dealer, pending_lives=lives)

    def _queue(self, idx: np.ndarray, order: np.ndarray, dealer: np.ndarray, **pending: Any) -> None:
        """Write checked queued deals into the records: the cards, the dealers, each ``pending`` field (per-seat
        fields as rows of n), then mark the slots pending."""
        d = self.deals
        d["pending_order"][idx] = order
        d["pending_dealer"][idx] = dealer
        for name, values in pending.items():
            values = np.asarray(values)
            if values.ndim == 2:
                d[name][idx, :values.shape[1]] = values
            else:
                d[name][idx] = values
        d["pending"][idx] = True

    def _checked_orders(self, indices: Sequence[int], orders: Any, dealers: Any) -> tuple[np.ndarray, ...]:
        """``queue_deals``' deal indices, pack permutations and dealers (-1: drawn) as arrays, checked."""
        idx = np.asarray(indices, np.int64).reshape(-1)
        cards = self.deals["order"].shape[1]
        order = np.asarray(orders).reshape(len(idx), cards)
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_envs):
            raise ValueError(f"deal indices must be 0..{self.num_envs - 1}")
        if (np.sort(order, axis=1) != np.arange(cards)).any():
            raise OptionError(f"each order must be a permutation of the pack indices 0..{cards - 1}")
        dealer = np.full(len(idx), -1) if dealers is None else np.asarray(dealers, np.int64).reshape(len(idx))
        if ((dealer < -1) | (dealer >= self.num_players)).any():
            raise OptionError(f"dealers must be seats 0..{self.num_players - 1} (or -1: drawn)")
        return idx, order, dealer

    def _checked_carry(self, count: int, pots: Any, seats: Any, option: str) -> tuple[np.ndarray, np.ndarray | None]:
        """``queue_deals``' carried-over pots (-1: not given) and per-seat rows (``count`` x n, or None) as arrays,
        each checked as the reference checks its reset options ``pot`` and ``option``."""
        pot = np.full(count, -1) if pots is None else np.asarray(pots).reshape(count)
        rows = None if seats is None else np.asarray(seats).reshape(count, self.num_players)
        for i in range(count):
            carry = {} if pots is None else {"pot": pot[i].item()}
            if rows is not None:
                carry[option] = rows[i].tolist()
            self.game.new_session(np.random.default_rng(0), 0, carry)
        return pot, rows

    # ----------------------------------------------------------------- saving
    def state(self) -> dict[str, np.ndarray]:
        """Copies of everything the next ``step`` reads: the deal records (as raw bytes, each deal's random
        stream included) and the pending observations, masks and seats. ``load_state`` of it into an
        environment of the same game, table and size continues every deal exactly (a training checkpoint's
        deals in progress, training/batched/learner.py)."""
        self._require_started()
        return {"deals": self.deals.view(np.uint8).copy(), "obs": self.obs.copy(), "mask": self.mask.copy(),
                "to_act": self.to_act.copy(), "num_players": np.array(self.num_players, np.int64)}

    def load_state(self, state: dict[str, np.ndarray]) -> None:
        """Restore :meth:`state`; a state of another game, table or size is a ValueError and changes nothing."""
        arrays = {"deals": self.deals.view(np.uint8), "obs": self.obs, "mask": self.mask, "to_act": self.to_act}
        saved = state if isinstance(state, dict) else {}
        for name, mine in arrays.items():
            theirs = np.asarray(saved.get(name))
            if theirs.shape != mine.shape or theirs.dtype != mine.dtype:
                raise ValueError(f"saved {name} is {theirs.dtype} {theirs.shape}, this environment's "
                                 f"{mine.dtype} {mine.shape}: another game, table or number of deals")
        if np.asarray(saved.get("num_players")).tolist() != self.num_players:
            raise ValueError(f"saved deals are of {saved.get('num_players')} players, "
                             f"this table has {self.num_players}")
        for name, mine in arrays.items():
            mine[...] = state[name]
        self._started = True

    # ---------------------------------------------------------------- labels
    def action_label(self, action: int) -> str:
        return self.game.actions.label(int(action))

    def action_id(self, label: str) -> int:
        return self.game.actions.parse(label)

    # --------------------------------------------------------------- helpers
    def _outputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.obs, self.mask, self.to_act, self.rewards, self.done

    def _require_started(self) -> None:
        if not self._started:
            raise RuntimeError("call reset() before stepping or observing")

    def _checked(self, actions: Any) -> np.ndarray:
        """``actions`` as contiguous int64, or an error naming every offending deal (nothing changed)."""
        self._require_started()
        if not isinstance(actions, np.ndarray) or actions.dtype.kind not in "iu":
            kind = actions.dtype if isinstance(actions, np.ndarray) else type(actions).__name__
            raise TypeError(f"actions must be a numpy array of integer action ids, got {kind}")
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per deal, got {actions.shape}")
        chosen = np.ascontiguousarray(actions, np.int64)
        if count_illegal(chosen, self.mask, self._flags):
            fatal = self._flags == 1 if self.illegal_mode is IllegalMode.PENALTY else self._flags != 0
            if fatal.any():
                raise IllegalActionsError(self._describe(np.flatnonzero(fatal), chosen))
        return chosen

    def _describe(self, bad: np.ndarray, chosen: np.ndarray) -> str:
        lines = [f"illegal actions in {len(bad)} of {self.num_envs} deals (deals {_ranges(bad)}); nothing changed:"]
        for b in bad[:MAX_LISTED]:
            a, seat = int(chosen[b]), int(self.to_act[b])
            legal = ", ".join(f"{x}={self.action_label(x)}" for x in np.flatnonzero(self.mask[b]))
            what = (f"out of range 0..{self.num_actions - 1}" if self._flags[b] == 1
                    else f"({self.action_label(a)}) is not legal now")
            lines.append(f"  deal {b}: player_{seat} action {a} {what}; legal: {legal}")
        if len(bad) > MAX_LISTED:
            lines.append(f"  ... and {len(bad) - MAX_LISTED} more")
        return "\n".join(lines)


def _ranges(indices: np.ndarray) -> str:
    """``[1, 2, 3, 7]`` -> ``"1-3, 7"``, for error messages."""
    parts, start = [], None
    for i, x in enumerate(indices):
        if start is None:
            start = x
        if i + 1 == len(indices) or indices[i + 1] != x + 1:
            parts.append(f"{start}" if start == x else f"{start}-{x}")
            start = None
    return ", ".join(parts)
