"""Data-parallel self-play: the batched learner on several processes, one network, one gradient.

``batched.processes: N`` runs the learner as N processes (CleanRL's multi-GPU PPO, on CPU cores). Each plays its
share of every table's slots with its own random streams, and at every minibatch they add their gradients (and
the minibatch's advantage statistics and metrics) through shared memory (:class:`SharedSum`, every process adding
the same rows in the same order), then take the same Adam step: the weights stay equal, bit for bit, on every
process. What the N processes compute together is the update one process computes on all their decisions, to
float rounding: each minibatch holds about ``minibatch_size / N`` decisions of each process, and its advantages
are normalised over all of them (tests/test_batched_parallel.py). Why processes and not torch's threads: two
threads share only the products, and spin while the other works (docs/training.md measures it); two processes
each keep a core busy with their own rollout and their half of every product.

Process 0 is the run (training/batched/run.py): it alone logs, evaluates, checkpoints and prints. The others are
workers (:func:`worker_main`), spawned when training starts with the run's weights, Adam's state and, on a resume,
their own saved deals; they follow process 0's commands (:class:`Command`), one per iteration: iterate (and freeze
a league snapshot where process 0 does, at the same step counts), hand over their state for a checkpoint, or stop.
A worker ignores Ctrl-C (process 0 finishes the iteration and saves everyone's state); it exits when process 0
is gone, because every collective then fails.
"""

from __future__ import annotations

import enum
import hashlib
import math
import multiprocessing
import os
import pickle
import signal
import tempfile
import time
import traceback
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import torch

STREAM_STRIDE = 1_000_000_007
"""Process k's random streams (deals, league, sampling) are those of seed + k x this (process 0: the seed's own)."""
TIMEOUT = timedelta(hours=12)
"""How long a collective waits: process 0 may evaluate or save for a long while as the workers wait."""
PLACE_WORKER = "worker"


def stream_seed(seed: int, rank: int) -> int:
    """The seed of process ``rank``'s deals, league draws and action sampling (process 0 keeps ``seed``, so a run of
    one process deals as it always has)."""
    return int(seed) + rank * STREAM_STRIDE


def share(count: int, rank: int, size: int) -> int:
    """Process ``rank``'s part of ``count`` slots among ``size`` processes (the first ones take the remainder)."""
    return count // size + (rank < count % size)


def minibatch_parts(counts: list[int], minibatch_size: int, rank: int) -> tuple[int, int, list[int]]:
    """How an epoch splits every process's decisions into the same number of minibatches.

    ``counts``: each process's decisions. Returns (minibatches per epoch, this process's rows per minibatch, the
    decisions of each minibatch over all processes). One process: minibatches of ``minibatch_size`` and the rest,
    as always; several: ``ceil(total / minibatch_size)`` minibatches, each process's decisions cut into that many
    near-equal parts (the last ones may be empty where a process has few)."""
    total = sum(counts)
    count = math.ceil(total / minibatch_size) if total else 0
    rows = [minibatch_size if len(counts) == 1 else math.ceil(n / count) if count else 0 for n in counts]
    parts = [[max(0, min(r, n - k * r)) for k in range(count)] for r, n in zip(rows, counts, strict=True)]
    return count, rows[rank], [sum(column) for column in zip(*parts, strict=True)] if count else []


def weights_digest(policy: torch.nn.Module) -> str:
    """A digest of the network's weights, bit for bit: the learner processes' must agree at every checkpoint."""
    digest = hashlib.sha256()
    for tensor in policy.state_dict().values():
        digest.update(tensor.detach().contiguous().numpy().tobytes())
    return digest.hexdigest()


class Command(enum.IntEnum):
    """What process 0 asks the workers to do next."""

    ITERATE = 0  # one rollout and update (then a snapshot if the steps crossed snapshot_every)
    STATE = 1  # hand over SelfPlay.state() for process 0's checkpoint
    STOP = 2  # training is over: leave


class Solo:
    """One process: every collective is this process's own value (the learner's code reads the same either way)."""

    rank, size = 0, 1

    def counts(self, count: int) -> list[int]:
        return [int(count)]

    def add(self, values: torch.Tensor) -> torch.Tensor:
        """The sum of ``values`` over the processes, in place."""
        return values

    def add_all(self, tensors: list[torch.Tensor]) -> None:
        """Each of ``tensors`` replaced by its sum over the processes, in place."""


SOLO = Solo()


class SharedSum:
    """Sums over the learner processes through shared memory: every process writes its values into its row, says
    so, waits until every process has, and adds the rows in rank order, so every process gets the same bits.

    Why not gloo's ``all_reduce``: on one machine it sends the gradient through TCP, 3 ms for a general network's
    2.3 MB of float32 (6 ms in float64), a tenth of a minibatch's work; here it is one copy and one sum. Two sets of
    rows take turns, so a process may write the next values while a slower one still reads the last: to write
    round r it has seen every process publish round r - 1, which each does only after reading round r - 2. A wait
    that lasts checks ``alive`` every second (process 0: are the workers running; a worker: is process 0)."""

    def __init__(self, size: int, length: int) -> None:
        self.length = int(length)
        self.rows = torch.zeros((2, size, self.length), dtype=torch.float64).share_memory_()
        self.published = torch.zeros(size, dtype=torch.int64).share_memory_()  # the last round each has written
        self.rank, self.round, self.alive = 0, 0, None

    def bind(self, rank: int, alive) -> SharedSum:
        """This process's side: its rank and how to tell that the others are still there."""
        self.rank, self.round, self.alive = rank, 0, alive
        return self

    def add(self, *tensors: torch.Tensor) -> None:
        """Each of ``tensors`` replaced by its sum over the processes (written once into this process's row, read
        once back from the rows' sum)."""
        sizes = [t.numel() for t in tensors]
        if sum(sizes) > self.length:
            raise ValueError(f"{sum(sizes)} values to add, the shared rows hold {self.length}")
        self.round += 1
        rows = self.rows[self.round % 2, :, :sum(sizes)]
        for tensor, part in zip(tensors, rows[self.rank].split(sizes), strict=True):
            part.copy_(tensor.reshape(-1))
        self.published[self.rank] = self.round
        self._wait(self.round)
        for tensor, part in zip(tensors, rows.sum(0).split(sizes), strict=True):
            tensor.copy_(part.view_as(tensor))

    def _wait(self, round_: int) -> None:
        published, spins, checked = self.published.numpy(), 0, time.monotonic()
        while published.min() < round_:
            spins += 1
            if spins > SPINS:
                time.sleep(NAP)
                if time.monotonic() - checked > 1.0:
                    self.alive()
                    checked = time.monotonic()


SUM_SLACK = 256
"""Values the shared rows hold beyond the network's weights: the minibatch's metrics, counts, the finished deals'."""
SPINS, NAP = 200, 1e-4
"""A wait polls this many times, then naps this long between polls (a minibatch's gradients take tens of ms)."""


class Group(Solo):
    """This process's place among the run's learner processes: sums through shared memory (:class:`SharedSum`), the
    commands and the states for a checkpoint through ``torch.distributed`` (gloo)."""

    def __init__(self, rank: int, size: int, rendezvous: str, shared: SharedSum, alive) -> None:
        import torch.distributed as dist

        self.rank, self.size, self.dist = rank, size, dist
        self.shared = shared.bind(rank, alive)
        dist.init_process_group("gloo", init_method=f"file://{rendezvous}", rank=rank, world_size=size,
                                timeout=TIMEOUT)

    def counts(self, count: int) -> list[int]:
        values = torch.zeros(self.size, dtype=torch.int64)
        values[self.rank] = int(count)
        return [int(v) for v in self.add(values)]

    def add(self, values: torch.Tensor) -> torch.Tensor:
        self.shared.add(values)
        return values

    def add_all(self, tensors: list[torch.Tensor]) -> None:
        """Each of ``tensors`` (a network's gradients, say) replaced by its sum over the processes, in place."""
        self.shared.add(*tensors)

    def command(self, command: Command | None = None) -> Command:
        """Process 0 sends ``command``; every worker receives it."""
        value = torch.tensor([int(command) if command is not None else -1], dtype=torch.int64)
        self.dist.broadcast(value, src=0)
        return Command(int(value))

    def gather(self, payload: Any) -> list[Any] | None:
        """Every process's ``payload`` at process 0 (others: None)."""
        out = [None] * self.size if self.rank == 0 else None
        self.dist.gather_object(payload, out, dst=0)
        return out

    def close(self) -> None:
        if self.dist.is_initialized():
            self.dist.destroy_process_group()


class WorkerFailed(RuntimeError):
    """A learner process other than 0 stopped; the message says which and why."""


@dataclass
class Start:
    """What a worker needs to join the run: the config, the weights and Adam's state to start from, and its saved
    state on a resume (None: it deals afresh from its own stream)."""

    config: Any  # training.config.TrainConfig
    tables: list
    weights: dict[str, torch.Tensor]
    optimizer: dict[str, Any]
    league: dict[str, Any]  # process 0's League.state(): its snapshots (a worker's saved state leaves them out)
    steps: int = 0
    iterations: int = 0
    anchor: dict[str, torch.Tensor] | None = None
    state: dict[str, Any] | None = None  # the worker's own SelfPlay.worker_state() of a resumed run


class Workers:
    """Process 0's side: spawn the workers, join the group, tell them what to do, stop them."""

    def __init__(self, size: int, starts: list[Start]) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="rams-learners-")
        rendezvous = str(Path(self.folder.name) / "rendezvous")
        context = multiprocessing.get_context("spawn")
        self.errors = [context.SimpleQueue() for _ in starts]
        shared = SharedSum(size, sum(t.numel() for t in starts[0].weights.values()) + SUM_SLACK)
        # the starts pickled here, by value: handed to the Process as they are, torch would pass their tensors as
        # shared memory (as it passes ``shared``, on purpose), and a worker's Adam moments would be process 0's own
        self.processes = [context.Process(target=worker_main,
                                          args=(rank, size, rendezvous, shared, pickle.dumps(start), errors),
                                          name=f"rams-learner-{rank}", daemon=True)
                          for rank, (start, errors) in enumerate(zip(starts, self.errors, strict=True), start=1)]
        for process in self.processes:
            process.start()
        self.group = self.guard(lambda: Group(0, size, rendezvous, shared, self.check))

    def check(self) -> None:
        """Raise :class:`WorkerFailed` if a worker has stopped (what a long wait for the others asks)."""
        failed = self.failures()
        if failed:
            raise WorkerFailed(failed)

    def guard(self, call):
        """``call()``, turning a collective that failed because a worker stopped into :class:`WorkerFailed`."""
        try:
            return call()
        except (RuntimeError, ValueError) as err:
            failed = self.failures()
            if failed:
                raise WorkerFailed(failed) from err
            raise

    def failures(self) -> str:
        """What the stopped workers said (or how they ended), '' while every one runs."""
        said = []
        for rank, (process, errors) in enumerate(zip(self.processes, self.errors, strict=True), start=1):
            process.join(timeout=0 if process.is_alive() else 5)
            if not process.is_alive() and (process.exitcode or not errors.empty()):
                why = errors.get() if not errors.empty() else ended(process.exitcode)
                said.append(f"learner process {rank} stopped: {why}")
        return "; ".join(said)

    def iterate(self, selfplay) -> dict[str, float]:
        """Every learner process's iteration at once (``selfplay``: process 0's learner); its metrics."""
        def both() -> dict[str, float]:
            self.group.command(Command.ITERATE)
            return selfplay.iterate()
        return self.guard(both)

    def states(self) -> list[dict[str, Any]]:
        """Every worker's SelfPlay state, in rank order."""
        self.guard(lambda: self.group.command(Command.STATE))
        return self.guard(lambda: self.group.gather(None))[1:]

    def stop(self, orderly: bool) -> None:
        """``orderly``: tell the workers training is over and wait for them; else (an error or a second Ctrl-C on
        process 0, perhaps in the middle of a collective) end them at once."""
        try:
            if orderly:
                self.guard(lambda: self.group.command(Command.STOP))
                for process in self.processes:
                    process.join(timeout=60)
        finally:
            for process in self.processes:
                if process.is_alive():
                    process.kill()
                    process.join()
            self.group.close()
            self.folder.cleanup()


def ended(exitcode: int | None) -> str:
    """How a process ended, in words."""
    if exitcode is not None and exitcode < 0:
        return f"it was killed by {signal.Signals(-exitcode).name}"
    return f"it ended with exit code {exitcode}"


def parent_alive(parent: int):
    """A worker's check in a long wait: process 0 (its parent) is still there, else leave."""
    def check() -> None:
        if os.getppid() != parent:
            raise SystemExit(f"learner process 0 ({parent}) is gone")
    return check


def worker_main(rank: int, size: int, rendezvous: str, shared: SharedSum, payload: bytes, errors) -> None:
    """A worker: its share of the slots, the same network, process 0's commands until STOP. ``payload``: its
    :class:`Start`, pickled by process 0 (which wrote it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is process 0's to handle: it saves everyone's state
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    start: Start = pickle.loads(payload)
    os.environ.setdefault("OMP_NUM_THREADS", str(start.config.torch_threads))
    group = None
    try:
        torch.set_num_threads(start.config.torch_threads)
        from training.batched.learner import SelfPlay
        from training.batched.run import crossed

        cfg = start.config
        selfplay = SelfPlay(cfg.game, start.tables, cfg.batched, cfg.seed,
                            cfg.batched_table_specs("scripted_tables"),
                            cfg.batched_table_specs("scripted_alone_tables"), rank=rank)
        selfplay.join(start)
        group = Group(rank, size, rendezvous, shared, parent_alive(os.getppid()))
        selfplay.group = group
        while (command := group.command()) is not Command.STOP:
            if command is Command.STATE:
                group.gather(selfplay.worker_state())
                continue
            before = selfplay.steps
            selfplay.iterate()
            if crossed(before, selfplay.steps, cfg.snapshot_every):
                selfplay.snapshot()
    except BaseException:  # noqa: BLE001 - anything, told to process 0 before leaving
        errors.put(traceback.format_exc(limit=4).strip().splitlines()[-1])
        raise SystemExit(1) from None
    finally:
        if group is not None:
            group.close()
