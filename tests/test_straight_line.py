"""Generated observation writers (rams_env/core/straight_line.py): fused writers do what the writers do in turn."""

from __future__ import annotations

import numpy as np
import pytest

from rams_env.core.straight_line import compiled, fused


def _writer(at: int, attr: str):
    """Writes ``state[attr] / 4`` at ``at``, through a local named alike in every writer (``value``)."""
    return compiled(f"test {attr}", [f"value = state[{attr!r}] / scale", f"out[{at} + seat] = value"], {"scale": 4.0})


def test_fused_writers_keep_their_names_apart_and_write_what_each_writes():
    first, second = _writer(0, "a"), _writer(3, "b")

    def plain(game, state, seat, out):  # a writer that is not generated is called as it is
        out[6] = 1.0

    state = {"a": 1, "b": 2}
    expected = np.zeros(8, dtype=np.float32)
    view = memoryview(expected)
    for write in (first, second, plain):
        write(None, state, 1, view)
    got = np.zeros(8, dtype=np.float32)
    fused("test", [first, second, plain])(None, state, 1, got)
    assert got.tolist() == expected.tolist() == [0, 0.25, 0, 0, 0.5, 0, 1.0, 0]


@pytest.mark.parametrize("name", ["out", "len"])
def test_a_constant_may_not_shadow_an_argument_or_a_builtin(name):
    with pytest.raises(ValueError, match="shadow"):
        compiled("test", ["pass"], {name: 1})
