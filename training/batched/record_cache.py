"""Recorded chunks kept on disk (``warm_start.cache``): record once, fit many times, and resume a recording.

A searching teacher's recording is the costly half of a refresher (160,000 searched decisions at Loup: 26 min on
two cores, the fit 6), and it does not depend on the learner: the teacher plays every seat, and the held tables'
targets are taken from the learner only in the fit. So each chunk (training/batched/chunks.py) can be kept, and a
later run that records the same chunk reads it instead: a fit tried with other weights, more chunks added to a
recording (chunk c's deals depend on c alone), or a recording killed half way and started again.

A chunk's file is named by a hash of everything its records depend on: the recording's settings, its seed and
share of decisions, and the source of the code that plays and records the deals (rams_env, agents, evaluation,
training): after any change to that code nothing kept before is read. The files hold plain arrays (numpy's
``.npz``, read with ``allow_pickle=False``): nothing in them is unpickled. A file that is unreadable or not
what its name promises is an error, never silently recorded again.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import numpy as np
import torch

from training.batched.imitation import CompactRows
from training.batched.sparse import SparseObs
from training.imitation import Demonstrations

CODE_PACKAGES = ("rams_env", "agents", "evaluation", "training")
"""The packages whose source decides what a chunk records."""
PARTS = ("taught", "rest")
COLUMNS = ("index", "value", "size", "masks", "actions", "returns")
NAME = "chunk"
"""The entry holding the file's own name (its key), so a file copied or renamed is refused, not fitted."""


class CacheError(RuntimeError):
    """A kept chunk cannot be read or is not the chunk its name says."""


@functools.cache
def code_fingerprint() -> str:
    """A hash of the source of :data:`CODE_PACKAGES` (paths and contents, in path order)."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for package in CODE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def chunk_key(recording, seed: int, decisions: int) -> str:
    """The name of one chunk's file: what it records, from which deals, by which code."""
    text = f"{recording!r}|seed={seed}|decisions={decisions}|code={code_fingerprint()}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def chunk_path(directory: str | Path, recording, seed: int, decisions: int) -> Path:
    return Path(directory) / f"{recording.game_name}-{chunk_key(recording, seed, decisions)}.npz"


def save_chunk(path: Path, parts: tuple[Demonstrations, Demonstrations | None]) -> None:
    """Write one chunk's (taught, rest) atomically (a killed run leaves no half file behind)."""
    arrays = {}
    for name, part in zip(PARTS, parts, strict=True):
        if part is not None:
            rows = part.observations
            columns = (rows.rows.index, rows.rows.value, torch.tensor(rows.size), part.masks, part.actions,
                       part.returns)
            arrays.update({f"{name}_{column}": tensor.numpy() for column, tensor in zip(COLUMNS, columns,
                                                                                        strict=True)})
    arrays[NAME] = np.frombuffer(path.stem.encode(), np.uint8)  # read back to check the file is this chunk's
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    with open(partial, "wb") as out:
        np.savez(out, **arrays)
    os.replace(partial, path)


def load_chunk(path: Path) -> tuple[Demonstrations, Demonstrations | None]:
    """One chunk's (taught, rest) as :func:`save_chunk` wrote them."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError) as error:
        raise CacheError(f"{path}: not a readable recorded chunk ({error}); delete it to record it again") from error
    if NAME not in arrays or arrays[NAME].tobytes() != path.stem.encode():
        raise CacheError(f"{path}: not the chunk its name says (a file copied or renamed?); delete it to record it "
                         "again")
    parts = []
    for name in PARTS:
        keys = [f"{name}_{column}" for column in COLUMNS]
        if not any(key in arrays for key in keys):
            parts.append(None)
            continue
        if not all(key in arrays for key in keys):
            raise CacheError(f"{path}: the {name} records are incomplete; delete it to record it again")
        index, value, size, masks, actions, returns = (torch.from_numpy(arrays[key]) for key in keys)
        parts.append(Demonstrations(CompactRows(SparseObs(index, value), int(size)), masks, actions, returns))
    if parts[0] is None:
        raise CacheError(f"{path}: no taught records; delete it to record it again")
    return parts[0], parts[1]
