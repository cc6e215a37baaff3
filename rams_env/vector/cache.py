"""Where numba keeps the compiled kernels: a directory named by a digest of every source of the batched engine.

numba keys a cached kernel by the file its function is written in and checks only that file's
timestamp. A kernel compiled into a caller in another file (a game's flow inlined into the shared
loops of ``kernels.py``, ``bits.py`` into every game) would keep running the old code after an
edit, and tests would pass on code that no longer exists. Naming the cache directory by a digest of
all the engine's sources makes any edit start from an empty cache. The directories of older
sources are removed, all but the most recent few (another process may still be running them).
``NUMBA_CACHE_DIR``, when set, is the user's choice and left alone.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba

ROOT = Path(__file__).parent
PREFIX = "numba-"
KEEP = 3
"""Cache directories kept: the current sources' and the two used most recently before them."""


def sources_digest(root: Path = ROOT) -> str:
    """A digest of every Python source under ``root`` (names and contents): any edit changes it."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def use_cache_of_these_sources(root: Path = ROOT) -> Path | None:
    """Point numba's on-disk cache at ``root/__pycache__/numba-<digest>`` (before any kernel is defined) and
    remove older ones; returns the directory, or None when ``NUMBA_CACHE_DIR`` decides."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    base = root / "__pycache__"
    target = base / f"{PREFIX}{sources_digest(root)}"
    numba.config.CACHE_DIR = str(target)
    older = sorted((p for p in base.glob(PREFIX + "*") if p != target), key=lambda p: p.stat().st_mtime,
                   reverse=True)
    for stale in older[KEEP - 1:]:
        shutil.rmtree(stale, ignore_errors=True)
    return target
