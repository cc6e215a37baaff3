"""A warm start's recording in independent chunks, on as many processes as there are cores to spare.

Recording the heuristic takes minutes, and one stream of deals is what every shipped recipe used (``chunks: 1``,
bit for bit as before). A searching teacher (``rollout:heuristic``, training/batched/imitation.py) costs some 0.04
s of one core a searched decision at Loup 5p: 160,000 decisions at Loup (forced ones included) took 26 min on two
cores. So the deals are split into ``warm_start.chunks`` streams, chunk c drawing from seed + c x
CHUNK_SEED_STRIDE (chunk 0 is the one-stream recording's), each recording its share of the decisions, and
``warm_start.workers`` processes run them (evaluation/workers.py). The chunks are joined in their order, so the
records depend on the chunk count, never on the worker count; ``warm_start.cache`` keeps them on disk
(training/batched/record_cache.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from evaluation.workers import run_tasks
from training.batched import record_cache
from training.batched.imitation import ROLLOUT_WORLDS, joined, record_refresher
from training.batched.tables import TableSpec
from training.config import Lesson
from training.imitation import Demonstrations

CHUNK_SEED_STRIDE = 1_000_003
"""Chunk c of a recording draws its deals from seed + c times this (chunk 0: the one-stream recording's)."""
LESSON_SEED_STRIDE = 1_000_000_007
"""Lesson k of a warm start (``warm_start.also``) records from seed + k times this (lesson 0, the warm start's own,
from the seed, as without more lessons): far past any chunk's offset, so no two lessons share a stream of deals."""


@dataclass(frozen=True)
class Recording:
    """What every chunk records alike (picklable: it is sent to the workers)."""

    game_name: str
    tables: tuple[TableSpec, ...]
    teacher: str
    gamma: float
    scale: float
    actions: tuple[str, ...] = ()
    hold: tuple[TableSpec, ...] = ()
    worlds: int = ROLLOUT_WORLDS
    confidence: float = 0.0  # a searching teacher's t-test (warm_start.rollout_confidence)
    among: tuple[str, ...] = ()  # styles seated beside the teacher (warm_start.among)


@dataclass(frozen=True)
class Chunk:
    """One stream of deals: its seed, its share of the decisions, and whether it shows its own progress."""

    recording: Recording
    seed: int
    decisions: int
    progress: bool


def record_chunk(chunk: Chunk) -> tuple[Demonstrations, Demonstrations | None]:
    """One chunk's (taught, rest), as :func:`record_refresher` records them."""
    r = chunk.recording
    return record_refresher(r.game_name, list(r.tables), r.teacher, chunk.decisions, r.gamma, r.scale, chunk.seed,
                            chunk.progress, actions=r.actions, hold=r.hold, worlds=r.worlds,
                            confidence=r.confidence, among=r.among)


def record_chunks(recording: Recording, decisions: int, seed: int, chunks: int = 1, workers: int = 1,
                  progress: bool = True, cache: str | Path | None = None
                  ) -> tuple[Demonstrations, Demonstrations | None]:
    """(taught, rest) of ``decisions`` split over ``chunks`` streams of deals, run on ``workers`` processes;
    ``chunks=1`` is :func:`record_refresher` itself (its own progress bar), more count whole chunks on one bar.
    With ``cache`` (a directory, training/batched/record_cache.py) a chunk kept there is read, not recorded, and
    every chunk recorded is kept there as soon as it is done."""
    if chunks < 1 or workers < 1 or decisions < chunks:
        raise ValueError(f"chunks={chunks}, workers={workers}: 1 or more, and at most one chunk per decision")
    share, extra = divmod(decisions, chunks)
    tasks = [Chunk(recording, seed + c * CHUNK_SEED_STRIDE, share + (c < extra), progress and chunks == 1)
             for c in range(chunks)]
    paths = {task.seed: _kept_at(cache, task) for task in tasks} if cache else {}
    parts = [record_cache.load_chunk(paths[task.seed]) if cache and paths[task.seed].exists() else None
             for task in tasks]
    missing = [c for c, part in enumerate(parts) if part is None]
    if len(missing) < chunks and progress:
        print(f"warm start: {chunks - len(missing)} of {chunks} chunks read from {cache}")
    if missing:
        with tqdm(total=decisions, initial=decisions - sum(tasks[c].decisions for c in missing), unit="decision",
                  disable=not progress or chunks == 1, dynamic_ncols=True,
                  desc=f"warm start: recording {recording.teacher} in {chunks} chunks on "
                       f"{_processes(workers, len(missing))}") as bar:
            def recorded(task: Chunk, part) -> None:
                if cache:
                    record_cache.save_chunk(paths[task.seed], part)
                bar.update(task.decisions)

            fresh = run_tasks([tasks[c] for c in missing], record_chunk, min(workers, len(missing)), done=recorded)
        for c, part in zip(missing, fresh, strict=True):
            parts[c] = part
    return joined([taught for taught, _ in parts]), joined([rest for _, rest in parts])


def _processes(workers: int, chunks: int) -> str:
    """How many processes record ``chunks`` chunks, in words."""
    count = min(workers, chunks)
    return f"{count} process" if count == 1 else f"{count} processes"


def _kept_at(cache: str | Path, task: Chunk) -> Path:
    return record_cache.chunk_path(cache, task.recording, task.seed, task.decisions)


def record_lessons(game_name: str, lessons: Sequence[tuple[Lesson, Sequence[TableSpec]]], hold: Sequence[TableSpec],
                   gamma: float, scale: float, seed: int, workers: int = 1, progress: bool = True,
                   cache: str | Path | None = None) -> tuple[list[Demonstrations], Demonstrations | None]:
    """Each lesson's taught decisions (in lesson order: the fit holds out a tenth of each) and all their other
    decisions joined, every lesson recorded at its tables as :func:`record_chunks` records a warm start, holding
    ``hold`` (the run's tables no lesson teaches). Lesson k draws from seed + k x :data:`LESSON_SEED_STRIDE`."""
    taught, rest = [], []
    for k, (lesson, tables) in enumerate(lessons):
        recording = Recording(game_name, tuple(tables), lesson.teacher, gamma, scale, tuple(lesson.actions),
                              tuple(hold), lesson.rollout_worlds, lesson.rollout_confidence, tuple(lesson.among))
        mine, others = record_chunks(recording, lesson.decisions, seed + k * LESSON_SEED_STRIDE, lesson.chunks,
                                     workers, progress, cache)
        taught.append(mine)
        rest.append(others)
    return taught, joined(rest)
