"""The one worker pool: tasks run in this process or on spawned worker processes, results in task order.

Used by the tournament (evaluation/tournament.py: chunks of deal seeds) and the bluff study
(evaluation/bluff/runner.py: chunks of deals per agent). A task's result depends only on the task and
what ``setup`` built from its picklable argument, never on which process ran it, so one worker or two
give the same numbers. Each worker builds its game and agents once (``setup``), then runs one thread of
torch (the processes already fill the cores); the calling process does the same while it plays.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")


def one_torch_thread() -> int | None:
    """One torch thread in this process; the previous count, if torch is in (only checkpoint agents import it)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    return before


def restore_torch_threads(count: int | None) -> None:
    """Give the calling process its torch thread count back (a trainer evaluates in its own process)."""
    if count is not None:
        sys.modules["torch"].set_num_threads(count)


def one_torch_thread_when_imported() -> None:
    """One torch thread also for a torch this process imports later: a worker imports it only when it builds its
    first network, after it started, and torch takes its thread count from ``OMP_NUM_THREADS`` at import. Without
    it each worker ran torch's default of one thread per core, and two workers of two threads on two cores waited
    on each other at every batch-1 forward: 4x the CPU time of one thread each, and no faster than one worker
    (``rams strength`` at modern 4p, 200 deals: 59 s of CPU against 24 s)."""
    os.environ["OMP_NUM_THREADS"] = "1"
    one_torch_thread()


def _start_worker(setup: Callable[[Any], None] | None, argument: Any) -> None:
    one_torch_thread_when_imported()
    if setup is not None:
        setup(argument)
    one_torch_thread()


def run_tasks(tasks: Sequence[Task], work: Callable[[Task], Result], workers: int = 1,
              setup: Callable[[Any], None] | None = None, argument: Any = None,
              in_process: Callable[[Task], Result] | None = None,
              done: Callable[[Task, Result], None] | None = None,
              starting: Callable[[int], None] | None = None) -> list[Result]:
    """``work(task)`` for every task, in task order; ``done(task, result)`` hears each as it arrives.

    ``workers`` > 1 spawns that many processes (at most one per task), each running ``setup(argument)``
    first (module-level functions: they are sent by name); ``starting(processes)`` is told before.
    One worker runs here: ``in_process`` if given (what the caller has already built), else ``setup`` then
    ``work``.
    """
    threads = one_torch_thread()
    try:
        if workers == 1:
            if in_process is None and setup is not None:
                setup(argument)
            return _collect(tasks, map(in_process or work, tasks), done)
        processes = min(workers, len(tasks))
        if starting is not None:
            starting(processes)
        with multiprocessing.get_context("spawn").Pool(processes, initializer=_start_worker,
                                                       initargs=(setup, argument)) as pool:
            results = _collect(tasks, pool.imap(work, tasks), done)
            pool.close()  # let the workers exit normally (terminate() would leak their locks)
            pool.join()
        return results
    finally:
        restore_torch_threads(threads)


def _collect(tasks: Sequence[Task], results, done: Callable[[Task, Result], None] | None) -> list[Result]:
    out = []
    for task, result in zip(tasks, results, strict=True):
        out.append(result)
        if done is not None:
            done(task, result)
    return out
