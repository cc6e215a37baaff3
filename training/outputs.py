"""Where commands write: checked before the work starts (atomic writes: agents/checkpoint/atomic.py).

Every subcommand that writes (``rams train``, ``evaluate``, ``baselines``, ``exploit``, ``bluff``) calls
:func:`check_outputs` with its output files and folders before it plays a single deal, so a typo, a read-only
mount, a path under a regular file or a full disk costs one clear line (:class:`OutputError`, exit code 2) and
not an hour of work followed by a traceback. The check is real, not a guess from permission bits (root
ignores those): it creates the missing folders, writes a byte into a probe file there and removes it, and
asks the file system for the free space.

Files that must never be seen half-written (checkpoints, ``results.json``) go through
agents/checkpoint/atomic.py.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

MIN_FREE = 16 * 2**20
"""Bytes a command needs free in each output folder (a training checkpoint is 1-3 MB, a report much less)."""

PROBE_PREFIX = ".rams-probe-"
"""Name prefix of the probe file written and removed by :func:`check_outputs`."""


class OutputError(OSError):
    """An output path that cannot be written; the message names it and says why."""


def check_outputs(files: Iterable[str | Path | None] = (), folders: Iterable[str | Path | None] = (),
                  min_free: int = MIN_FREE) -> None:
    """Make sure every file (its folder) and every folder can be written and has ``min_free`` bytes free.

    Missing folders are created (as the command would); ``None`` entries (an option not given) are skipped.
    Raises :class:`OutputError` naming the first path that fails.
    """
    targets = [(Path(f).parent, Path(f)) for f in files if f is not None]
    targets += [(Path(d), Path(d)) for d in folders if d is not None]
    for folder, shown in targets:
        if shown != folder and shown.is_dir():
            raise OutputError(f"cannot write {shown}: it is a folder")
        blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        if blocker is not None:
            raise OutputError(f"cannot write {shown}: {blocker} is a file, not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=PROBE_PREFIX) as probe:
                probe.write(b"x")
                probe.flush()
                os.fsync(probe.fileno())
            free = shutil.disk_usage(folder).free
        except OSError as err:
            raise OutputError(f"cannot write {shown}: {err.strerror or err}") from None
        if free < min_free:
            raise OutputError(f"cannot write {shown}: only {free / 2**20:.1f} MiB free in {folder}, "
                              f"{min_free / 2**20:.0f} MiB needed")
