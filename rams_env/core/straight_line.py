"""Writers compiled to straight-line code: one statement block per part instead of a loop over the parts.

An observation's batched writers (the cards a seat sees, the numbers, the one-hots) each write several
parts of one kind. A loop over ``(where, getter)`` items unpacks a tuple and calls a different getter at
the same call site each turn, which CPython's specializing interpreter cannot specialize and the CPU's
branch predictor guesses badly. Written out, one block per part, each getter call has a site of its own
and the places written are constants: about 0.6 µs (7%) less for a Tippen observation. The code is built
from the parts' declarations when the game is built, never from input, and each writer's source is kept
on it (``write.source``) for reading and debugging.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

GETTER_ARGS = "game, state, seat"
"""A getter's arguments (``observation_core.Getter``); a writer's are these and ``out``."""


def compiled(name: str, body: Sequence[str], constants: dict[str, Any]) -> Callable[..., None]:
    """``def write(game, state, seat, out)`` with ``body`` (lines, unindented), ``constants`` its globals."""
    source = f"def write({GETTER_ARGS}, out):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    namespace = dict(constants)
    exec(compile(source, f"<{name} writer>", "exec"), namespace)  # noqa: S102 - source built from declarations
    write = namespace["write"]
    write.source = source
    return write


def capped(at: int, value: str) -> list[str]:
    """Write the number ``value`` (a local name) at ``at`` if it is not 0, capped at 1 with a comparison
    (``min`` is a builtin call, dearer than the rest): ``out`` is zeros."""
    return [f"if {value}:", f"    out[{at}] = {value} if {value} < 1.0 else 1.0"]
