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


def test_code_is_generated_under_one_lock_and_games_build_in_threads(monkeypatch):
    """``rams serve`` builds games in worker threads; CPython 3.11's AST constructor is not safe for that (a
    SystemError, "AST constructor recursion depth mismatch", seen under load), so every parse and compile of
    generated code holds ``_PARSING``; and games built in eight threads at once encode as one built alone."""
    import ast
    import builtins
    from concurrent.futures import ThreadPoolExecutor

    import rams_env
    from rams_env.core import straight_line

    parse, compile_ = ast.parse, builtins.compile
    unlocked = []

    def checked(real):
        def call(*args, **kwargs):
            if not straight_line._PARSING.locked():
                unlocked.append(real.__name__)
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(straight_line.ast, "parse", checked(parse))
    monkeypatch.setattr(straight_line, "compile", checked(compile_), raising=False)
    names = list(rams_env.GAMES)
    with ThreadPoolExecutor(8) as pool:
        games = list(pool.map(lambda k: rams_env.make_game(names[k % len(names)], None), range(4 * len(names))))
    assert not unlocked
    for game in games[:len(names)]:
        alone = rams_env.make_game(game.name, None)
        state = game.new_state(np.random.default_rng(0))
        ours, theirs = np.zeros(game.observation.size, np.float32), np.zeros(alone.observation.size, np.float32)
        game.encode(state, state.to_act, ours)
        alone.encode(state, state.to_act, theirs)
        assert ours.tolist() == theirs.tolist()
