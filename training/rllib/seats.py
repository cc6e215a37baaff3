"""Who plays each seat of an RLlib deal: the learning policy, a frozen snapshot or a scripted agent (no Ray here).

RLlib asks its policy mapping function which module plays an agent. In a rams deal the answer must hold
one rule for the whole table (at least one learning seat per deal, the other seats drawn from the
config's ``opponents`` weights, as the SB3 pool does), and a scripted seat is not an RLlib module at all: the
registry's heuristics read the game's structured view, which an RLModule never sees. So the env draws the
seats when a deal starts, plays the scripted ones itself, and names each other seat's agent after the module
that plays it: ``learner@player_2``, ``snapshot_1@player_0``. The mapping function only reads that name
(:func:`module_of`); it is the same in every env runner and needs no shared state.

Snapshots are ``snapshots_kept`` frozen modules, ``snapshot_0`` the newest: every refresh shifts each one's
weights to the next older slot and copies the learner into ``snapshot_0`` (training/rllib/run.py), so a
slot's age is its index and rams train's ``recent`` rule (weight ``1 / (age + 1)``) is a fixed weight per
slot. Before the first refresh every slot holds the initial network.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEARNER = "learner"
SNAPSHOT = "snapshot_{}"
SEP = "@"
SELF, SNAPSHOTS = "self", "snapshots"


def module_ids(snapshots: int) -> list[str]:
    """Every module of a run: the learner, then the snapshot slots, newest first."""
    return [LEARNER, *(SNAPSHOT.format(i) for i in range(snapshots))]


def agent_id(module: str, seat: int) -> str:
    """The RLlib agent of ``seat`` when ``module`` plays it."""
    return f"{module}{SEP}player_{seat}"


def module_of(agent: str, *args, **kwargs) -> str:
    """The policy mapping function: the module an agent id names (RLlib passes the episode too; unused)."""
    return agent.split(SEP, 1)[0]


@dataclass(frozen=True)
class SeatDraw:
    """Draws the seats of a deal: one learner seat, the others by ``opponents`` (``self``, ``snapshots`` or an
    agent spec, played by the env); a snapshot seat picks a slot by the recent rule."""

    opponents: dict[str, float]
    snapshots: int

    def __post_init__(self) -> None:
        if any(w < 0 for w in self.opponents.values()) or sum(self.opponents.values()) <= 0:
            raise ValueError(f"opponents {self.opponents}: weights >= 0, not all zero")
        if self.opponents.get(SNAPSHOTS, 0) > 0 and self.snapshots < 1:
            raise ValueError("opponents draw snapshots, but no snapshot slot is kept")

    @property
    def scripted(self) -> list[str]:
        """The agent specs among the opponents (the env plays them)."""
        return [kind for kind in self.opponents if kind not in (SELF, SNAPSHOTS)]

    def draw(self, num_players: int, rng: np.random.Generator) -> list[str]:
        """Per seat a module id (played through RLlib) or an agent spec (played by the env)."""
        kinds = list(self.opponents)
        p = np.array([self.opponents[k] for k in kinds], dtype=np.float64)
        learner_seat = int(rng.integers(num_players))
        seats = []
        for seat in range(num_players):
            kind = LEARNER if seat == learner_seat else kinds[rng.choice(len(kinds), p=p / p.sum())]
            seats.append(self.slot(rng) if kind == SNAPSHOTS else LEARNER if kind == SELF else kind)
        return seats

    def slot(self, rng: np.random.Generator) -> str:
        """A snapshot slot, weight ``1 / (age + 1)`` (slot ``i`` is ``i`` refreshes old)."""
        weights = 1.0 / np.arange(1, self.snapshots + 1)
        return SNAPSHOT.format(int(rng.choice(self.snapshots, p=weights / weights.sum())))
