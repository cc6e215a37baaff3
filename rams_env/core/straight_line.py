"""Writers compiled to straight-line code: one statement block per part instead of a loop over the parts.

An observation's batched writers (the cards a seat sees, the numbers, the one-hots) each write several
parts of one kind. A loop over ``(where, getter)`` items unpacks a tuple and calls a different getter at
the same call site each turn, which CPython's specializing interpreter cannot specialize and the CPU's
branch predictor guesses badly. Written out, one block per part, each getter call has a site of its own
and the places written are constants (Tippen 3p: 206,188 -> 196,055 instructions a decision). The writers of
one observation are then fused into one function (:func:`fused`), their blocks one after another, with no
call per writer. The code is built from the parts' declarations when the game is built, never from input,
and each function's source is kept on it (``write.source``) for reading and debugging.
"""

from __future__ import annotations

import ast
import builtins
import threading
from collections.abc import Callable, Sequence
from typing import Any

ARGS = ("game", "state", "seat", "out")
"""A writer's arguments (``observation_core.Writer``)."""
GETTER_ARGS = ", ".join(ARGS[:-1])
"""A getter's arguments (``observation_core.Getter``), as they are spelled in generated code."""


_PARSING = threading.Lock()
"""Held around ``ast.parse`` and ``compile``: CPython 3.11's AST constructor keeps its recursion depth in
interpreter-wide state, and two threads building games at once (``rams serve`` opens tables in worker
threads) made it raise ``SystemError: AST constructor recursion depth mismatch`` (2 of 17 runs of the web tests
under xdist; 0 of 16 with the lock; reported upstream around CPython gh-106905)."""


def compiled(name: str, body: Sequence[str], constants: dict[str, Any],
             args: Sequence[str] = ARGS) -> Callable[..., None]:
    """``def write(game, state, seat, out)`` (or ``args``) with ``body`` (lines, unindented), ``constants`` its
    globals; ``write.block`` keeps both, for :func:`fused` (which prefixes every name but the arguments and
    builtins: a constant may be neither)."""
    clashing = [key for key in constants if key in ARGS or hasattr(builtins, key)]
    if clashing:
        raise ValueError(f"{name} writer: constants {clashing} shadow an argument or a builtin")
    write = _function(name, "write", [*body], constants, args)
    write.block = (tuple(body), dict(constants))
    return write


def fused(name: str, writers: Sequence[Callable[..., None]]) -> Callable[..., None]:
    """One function doing what ``writers`` do in turn, ``out`` a numpy vector (the writers get a memoryview of
    it): the body of each :func:`compiled` writer written in, its names prefixed to keep them apart; any other
    writer called."""
    body, constants = ["out = memoryview(out)"], {}
    for k, write in enumerate(writers):
        block = getattr(write, "block", None)
        if block is None:
            constants[f"write{k}"] = write
            body.append(f"write{k}({', '.join(ARGS)})")
            continue
        lines, names = block
        body += _prefixed(lines, f"w{k}_")
        constants.update({f"w{k}_{key}": value for key, value in names.items()})
    return _function(name, "encode", body, constants)


def capped(at: int, value: str) -> list[str]:
    """Write the number ``value`` (a local name) at ``at`` if it is not 0, capped at 1 with a comparison
    (``min`` is a builtin call, dearer than the rest): ``out`` is zeros."""
    return [f"if {value}:", f"    out[{at}] = {value} if {value} < 1.0 else 1.0"]


def _function(name: str, function: str, body: Sequence[str], constants: dict[str, Any],
              args: Sequence[str] = ARGS) -> Callable[..., None]:
    source = f"def {function}({', '.join(args)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    namespace = dict(constants)
    with _PARSING:
        code = compile(source, f"<{name}>", "exec")
    exec(code, namespace)  # noqa: S102 - source built from declarations
    made = namespace[function]
    made.source = source
    return made


class _Prefix(ast.NodeTransformer):
    """Every name but the arguments and builtins gets ``prefix`` (attribute names are not names: kept)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id not in ARGS and not hasattr(builtins, node.id):
            node.id = self.prefix + node.id
        return node


def _prefixed(lines: Sequence[str], prefix: str) -> list[str]:
    """``lines`` (a block of statements) with their names prefixed."""
    with _PARSING:
        tree = ast.parse("\n".join(lines))
    tree = _Prefix(prefix).visit(tree)
    return ast.unparse(tree).splitlines()
