"""Files never seen half-written: checkpoints, ``results.json``, run configs.

:func:`atomic_file` writes a temporary file beside the target named ``.<target name>.<random>.tmp``, then
renames it over the target. A process killed mid-write leaves only such a temporary file;
:func:`remove_partial_files` deletes them (and only them: the pattern is :data:`PARTIAL`) when a run starts
or resumes. It lives with the checkpoint format, the lowest floor that writes files this way
(training/ and cli/ use it from here).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

PARTIAL = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")
"""The names :func:`atomic_file` gives its temporary files (``tempfile.mkstemp``: 8 random characters)."""


@contextmanager
def atomic_file(path: str | Path, mode: str = "wb") -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` in one rename, else it is removed."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode) as out:
            yield out
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; results and checkpoints are shared files, not secrets
        os.replace(tmp, path)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError) and err.filename in (None, tmp):  # name the file the user knows
            err.filename = str(path)
        raise


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically."""
    with atomic_file(path, "w") as out:
        out.write(text)
    return Path(path)


def remove_partial_files(*folders: str | Path) -> list[Path]:
    """Delete the temporary files an interrupted :func:`atomic_file` left in ``folders``; the paths removed."""
    removed = []
    for folder in map(Path, folders):
        if folder.is_dir():
            for path in folder.iterdir():
                if path.is_file() and PARTIAL.fullmatch(path.name):
                    path.unlink(missing_ok=True)
                    removed.append(path)
    return removed
