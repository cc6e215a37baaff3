"""Where the learner's decisions come from: tables of the batched engine, seen through the general space.

A source owns ``num_slots`` deals (slots) side by side and presents, for every slot, the pending
decision as a general observation and mask (``rams_env.core.general``: one observation and action
space for every table size and preset of a game), the seat to act, and after each step every
seat's reward and the slots whose deal ended (auto-reset, as the batched engine). Seats are
numbered per table; arrays are padded to the largest table (``max_players``), and a seat at or
beyond a slot's ``num_players`` never acts and never earns.

:class:`VectorTables` is the batched engine (``rams_env.vector``); a source of Python-engine
tables whose scripted seats are played by ``agents.registry`` agents would present the same
arrays for the seats the learner's league plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import rams_env.vector as vector
from rams_env.core.general import GeneralSpace
from training.batched.aec_tables import AecTables
from training.batched.tables import TableSpec


def make_batch(game: str, spec: TableSpec, num_envs: int, thedinghausen_carry: bool = True):
    """The batched engine for one table, one deal per episode from random carried-over state (lives, pots,
    Thedinghausen's race), as ``rams train``'s ``random_carry``. ``thedinghausen_carry=False`` starts every
    Fipsen Thedinghausen deal at a race's start instead (``batched.thedinghausen_carry``: how the Fipsen stages
    trained before the batched engine drew a race under way)."""
    from_start = not thedinghausen_carry and getattr(spec.make_game(game), "thedinghausen", False)
    return vector.make(game, num_envs, spec.num_players, preset=spec.preset, episode="deal",
                       random_carry=not from_start, **spec.rules)


@dataclass(frozen=True)
class ScriptedSlots:
    """Python-engine slots whose scripted seats registry agents play (aec_tables.py), the other seats the league's:
    ``slots[spec]`` of them at each table that gets some (``BatchedConfig.slots_by_table``: one number at each of
    the listed tables, or a count of its own at each). Each seat is drawn by ``shares`` (``batched.scripted``: the
    learner mostly alone among scripted players), or with ``lone`` exactly one seat per deal, its style by those
    shares as weights (``batched.scripted_alone``: the strength gate's ``scripted_alone`` way round)."""

    shares: dict[str, float]
    slots: dict[TableSpec, int]
    lone: bool = False

    def build(self, game: str, tables: list[TableSpec]) -> list[AecTables]:
        """The slots at the run's ``tables`` that these are for, in the run's order (none without shares or
        slots)."""
        if not self.shares:
            return []
        return [AecTables(game, spec, count, self.shares, self.lone)
                for spec in tables if (count := self.slots.get(spec, 0))]


class VectorTables:
    """``deals[i]`` slots of table spec ``tables[i]``, stepped by the batched engine, in one set of arrays, then
    each of ``scripted``'s Python-engine slots (:class:`ScriptedSlots`). ``thedinghausen_carry``: see
    :func:`make_batch`."""

    def __init__(self, game: str, tables: list[TableSpec], deals: Sequence[int],
                 scripted: Sequence[ScriptedSlots] = (), thedinghausen_carry: bool = True) -> None:
        self.space = GeneralSpace(game)
        self.envs = [make_batch(game, spec, count, thedinghausen_carry)
                     for spec, count in zip(tables, deals, strict=True)]
        for slots in scripted:
            self.envs += slots.build(game, tables)
        self.tables = [self.space.table(env.game) for env in self.envs]
        sizes = [env.num_envs for env in self.envs]
        self.bounds = list(zip(np.cumsum([0, *sizes[:-1]]).tolist(), np.cumsum(sizes).tolist(), strict=True))
        self.num_slots = sum(sizes)
        self.num_players = np.repeat([env.num_players for env in self.envs], sizes)  # (B,) seats of each slot
        self.max_players = int(self.num_players.max())
        self.table_of_slot = np.repeat(np.arange(len(self.envs)), sizes)
        self.obs = np.zeros((self.num_slots, self.space.obs_size), np.float32)
        self.mask = np.zeros((self.num_slots, self.space.num_actions), bool)
        self.to_act = np.zeros(self.num_slots, np.int64)
        self.rewards = np.zeros((self.num_slots, self.max_players), np.float32)
        self.done = np.zeros(self.num_slots, bool)
        self.fixed = np.zeros((self.num_slots, self.max_players), bool)  # seats a source plays itself (scripted)

    def reset(self, seed: int) -> None:
        """A new deal in every slot; each table's deals get their own stream of ``seed``."""
        streams = np.random.SeedSequence(seed).generate_state(len(self.envs), np.uint32)
        for index, (env, stream) in enumerate(zip(self.envs, streams, strict=True)):
            obs, mask, to_act = env.reset(seed=int(stream))
            self._present(index, obs, mask, to_act)
        self.rewards[:] = 0
        self.done[:] = False

    def step(self, actions: np.ndarray) -> None:
        """One general action per slot for its seat to act; fills ``rewards``, ``done`` and the next decisions."""
        for index, (env, table, (lo, hi)) in enumerate(zip(self.envs, self.tables, self.bounds, strict=True)):
            obs, mask, to_act, rewards, done = env.step(np.asarray(table.native_actions(actions[lo:hi]), np.int64))
            self._present(index, obs, mask, to_act)
            self.rewards[lo:hi, :env.num_players] = rewards
            self.done[lo:hi] = done

    def state(self) -> list[dict[str, np.ndarray]] | None:
        """Every table's deals in progress (``BatchEnv.state``: records, random streams, pending decisions), or
        None when a table cannot save them (the Python-engine tables of aec_tables.py)."""
        if not all(hasattr(env, "state") for env in self.envs):
            return None
        return [env.state() for env in self.envs]

    def load_state(self, states: list[dict[str, np.ndarray]]) -> None:
        """Continue the deals of :meth:`state` (a ValueError if they are not of these tables)."""
        if not isinstance(states, list) or len(states) != len(self.envs):
            raise ValueError(f"saved deals of {len(states) if isinstance(states, list) else '?'} tables, "
                             f"this run has {len(self.envs)}")
        for index, (env, saved) in enumerate(zip(self.envs, states, strict=True)):
            env.load_state(saved)
            self._present(index, env.obs, env.mask, env.to_act)
        self.rewards[:] = 0
        self.done[:] = False

    def _present(self, index: int, obs: np.ndarray, mask: np.ndarray, to_act: np.ndarray) -> None:
        lo, hi = self.bounds[index]
        table = self.tables[index]
        table.obs(obs, out=self.obs[lo:hi])
        table.mask(mask, out=self.mask[lo:hi])
        self.to_act[lo:hi] = to_act
        fixed = getattr(self.envs[index], "fixed", None)
        if fixed is not None:
            self.fixed[lo:hi, :fixed.shape[1]] = fixed
