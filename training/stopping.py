"""Ctrl-C and SIGTERM during ``rams train``: stop where a resume continues exactly, save, say how to resume.

The first SIGINT (Ctrl-C) or SIGTERM while PPO trains asks the run to stop: the rollout under way (``ppo.n_steps``
steps per env, seconds) is finished and learned from, ``last.zip`` is saved at that boundary, where a
checkpoint holds everything a resume needs (training/streams.py), and :class:`Interrupted` ends the run. The
exit code is the shell's convention, 128 + the signal: 130 for SIGINT, 143 for SIGTERM.

A second signal, or one outside PPO's loop (warm start, final evaluation), stops at once
(``KeyboardInterrupt``). That is safe too: every file is written atomically (training/outputs.py), so
``last.zip`` is then the previous checkpoint, whole, and a temporary file cut short is removed at the next
start.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(Exception):
    """Training stopped on request after saving ``path`` at ``steps``."""

    def __init__(self, steps: int, path: Path) -> None:
        super().__init__(f"stopped at step {steps}, saved {path}")
        self.steps, self.path = steps, path


class StopRequest:
    """Catches SIGINT and SIGTERM while in a ``with`` block; see the module docstring."""

    def __init__(self) -> None:
        self.signum: int | None = None  # the last signal received
        self.armed = False  # True while PPO trains: the first signal then waits for the rollout's end
        self._previous: dict[int, object] = {}

    def __enter__(self) -> StopRequest:
        self._previous = {s: signal.signal(s, self._handle) for s in SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    @property
    def requested(self) -> bool:
        return self.signum is not None

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or signal.SIGINT)

    def _handle(self, signum: int, frame) -> None:
        first = self.signum is None
        self.signum = signum
        if not (first and self.armed):
            raise KeyboardInterrupt
        sys.stderr.write(f"\nrams train: {signal.Signals(signum).name}: finishing this rollout to save last.zip "
                         f"(a few seconds); again to stop at once, keeping the previous checkpoint\n")


@contextmanager
def armed(stop: StopRequest | None) -> Iterator[None]:
    """While training: a first signal waits for the boundary instead of stopping at once."""
    if stop is not None:
        stop.armed = True
    try:
        yield
    finally:
        if stop is not None:
            stop.armed = False


def save_at_end(stop: StopRequest | None, checkpoint: Callable[[], Path], steps: Callable[[], int]) -> None:
    """``last.zip`` at the end of training; then :class:`Interrupted` if a signal asked for the stop."""
    path = checkpoint()
    if stop is not None and stop.requested:
        raise Interrupted(steps(), path)
