"""The general space (rams_env/core/general.py): every table of a game in one observation and action space.

Checked over every game x preset x table size: the native observation is recoverable exactly from the
general one, the other slots are zeros or the table's features, masks and actions map both ways, and
random play (the AEC env and the batched engine) maps without error.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rams_env
from rams_env.core.card_features import FEW_ROWS
from rams_env.core.general import GeneralSpace, reference_tables
from rams_env.registry import GAMES
from tests import tiers
from tests.conformance import every_table_size
from tests.test_card_features import numpy_path


@cache
def space(game: str) -> GeneralSpace:
    return GeneralSpace(game)


def _table(game: str, preset: str, n: int):
    g = rams_env.make_game(game, n, preset=preset)
    return g, space(game).table(g)


@pytest.mark.parametrize(("game", "preset", "n"), every_table_size())
def test_native_observation_recovered_exactly_the_rest_zero_or_features(game, preset, n):
    g, table = _table(game, preset, n)
    s = space(game)
    assert len(table.obs_index) == g.observation.size
    assert len(np.unique(table.obs_index)) == len(table.obs_index), "two native floats share a slot"
    assert table.obs_index.min() >= 0 and table.obs_index.max() < s.padded_size
    native = np.random.default_rng(n).random((5, g.observation.size), dtype=np.float32)
    general = table.obs(native)
    assert general.shape == (5, s.obs_size) and general.dtype == np.float32
    np.testing.assert_array_equal(general[..., table.obs_index], native)
    rest = np.delete(general[:, :s.padded_size], table.obs_index, axis=1)
    assert not rest.any()
    np.testing.assert_array_equal(general[:, s.padded_size:s.card_features.start],
                                  np.broadcast_to(table.features, (5, len(table.features))))
    # the card-play features after them are the fields' (tests/test_card_features.py)


@pytest.mark.parametrize(("game", "preset", "n"), every_table_size())
def test_masks_and_actions_map_both_ways(game, preset, n):
    g, table = _table(game, preset, n)
    size = g.actions.size
    np.testing.assert_array_equal(table.native_actions(table.action_of_native), np.arange(size))
    assert len(np.unique(table.action_of_native)) == size
    native = np.random.default_rng(n).random((4, size)) < 0.5
    general = table.mask(native)
    assert general.shape == (4, space(game).num_actions) and general.dtype == bool
    np.testing.assert_array_equal(general[:, table.action_of_native], native)
    assert general.sum() == native.sum()
    for row, mask in zip(general, native, strict=True):
        np.testing.assert_array_equal(np.sort(table.native_actions(np.flatnonzero(row))), np.flatnonzero(mask))
    labels = space(game).labels
    assert [labels[i] for i in table.action_of_native] == list(g.actions.labels)


@pytest.mark.parametrize("game", GAMES)
def test_every_table_the_same_sizes_and_the_default_ids_unchanged(game):
    s, again = space(game), GeneralSpace(game)
    assert (s.obs_size, s.num_actions, s.labels) == (again.obs_size, again.num_actions, again.labels)
    default = rams_env.make_game(game)
    assert s.labels[:default.actions.size] == default.actions.labels
    assert s.obs_size >= max(g.observation.size for g in reference_tables(game)) + len(s.feature_names)
    features = {space(game).table(g).features.tobytes() for g in reference_tables(game)}
    assert len(features) == len(reference_tables(game)), "two tables of a game share their features"


def _other_values(value, kind):
    """Values of an option's type that differ from ``value`` (a validator may refuse some)."""
    if kind is bool:
        return [not value]
    if isinstance(kind, type) and issubclass(kind, Enum):
        return [m for m in kind if m is not value]
    if kind in (int, float):
        return [value + 1, value - 1, value * 2]
    return [tuple(reversed(value)), value[:-1], (*value, "K"), (*value, "c")]


@pytest.mark.parametrize("game", GAMES)
def test_every_option_reaches_the_features(game):
    """From every preset's rules, each other value of each option the rules accept changes the features."""
    s = space(game)
    presets = [g.rules for g in reference_tables(game)]
    hints = typing.get_type_hints(type(presets[0]))
    for f in dataclasses.fields(presets[0]):
        changed = 0
        for rules in dict.fromkeys(presets):
            current, base = getattr(rules, f.name), s.rules.encode(rules)
            for value in (v for v in _other_values(current, hints[f.name]) if v != current):
                try:
                    other = dataclasses.replace(rules, **{f.name: value})
                except (ValueError, TypeError):  # the rules refuse this value
                    continue
                assert not np.array_equal(s.rules.encode(other), base), f"{game}: {f.name}={value!r} is not seen"
                changed += 1
        assert changed, f"{game}: no other value of {f.name} tried"


def test_bad_input_is_refused_clearly():
    toepen, tippen = space("toepen"), rams_env.make_game("tippen")
    with pytest.raises(ValueError, match="does not fit the general space of toepen"):
        toepen.table(tippen)
    table = toepen.table(rams_env.make_game("toepen", 3))
    with pytest.raises(ValueError, match="observation of length 428"):
        table.obs(np.zeros(428, dtype=np.float32))
    with pytest.raises(ValueError, match="out must be float32"):
        table.obs(np.zeros(348, dtype=np.float32), out=np.zeros(toepen.obs_size))
    tippen_space = space("tippen")
    small = tippen_space.table(tippen)
    large_only = int(np.flatnonzero(small.native_of_action < 0)[0])
    with pytest.raises(ValueError, match="not actions of this table"):
        small.native_actions(np.array([0, large_only]))


def test_a_reused_buffer_takes_any_table():
    s = space("toepen")
    big, small = (s.table(rams_env.make_game("toepen", n)) for n in (8, 3))
    out = big.obs(np.ones((2, 748), dtype=np.float32))
    small.obs(np.ones((2, 348), dtype=np.float32), out=out)
    np.testing.assert_array_equal(out, small.obs(np.ones((2, 348), dtype=np.float32)))
    assert s.table(rams_env.make_game("toepen", 3)) is small, "tables are cached by (size, rules)"


@cache
def every_table() -> list:
    return [space(g.name).table(g) for game in GAMES for g in reference_tables(game)]


def numpy_obs(table, native: np.ndarray) -> np.ndarray:
    """``table.obs`` by numpy's vectorised path (card_features.write), whether or not the compiled pass is there:
    each row taken ``FEW_ROWS`` times, so that even one row is not computed one by one (a path that asks the trick
    order's own methods, equal on the rows a game deals, tests/test_card_features.py, not on any rows)."""
    with numpy_path(table):
        many = table.obs(np.repeat(native.reshape(-1, native.shape[-1]), FEW_ROWS, axis=0))[::FEW_ROWS]
    return many.reshape(native.shape[:-1] + (table.obs_size,))


def test_the_compiled_pass_is_on_where_numba_is():
    """Every table builds its observations in one compiled pass (general_kernel.py) when numba is installed, so the
    equality below compares two paths, not one with itself."""
    pytest.importorskip("numba")
    assert all(table.compiled is not None for table in every_table())


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_compiled_pass_gives_numpys_observations_on_any_rows(data):
    """Rows of random values, mostly 0 and 1 as the card fields hold them (several cards a seat on the table, a
    trump one-hot with two hot, none led: whatever the rows say), at every table of every game: the compiled
    pass writes numpy's observation to the bit, in a new array, into a dirty buffer, one row or many."""
    pytest.importorskip("numba")
    tables = every_table()
    table = tables[data.draw(st.integers(0, len(tables) - 1), label="table")]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    rows, ones = data.draw(st.integers(1, 9), label="rows"), data.draw(st.floats(0.0, 0.6), label="ones")
    native = (rng.random((rows, len(table.obs_index))) < ones).astype(np.float32)
    odd = rng.random(native.shape) < 0.05
    native[odd] = rng.uniform(-1, 2, int(odd.sum())).astype(np.float32)
    expected = numpy_obs(table, native)
    np.testing.assert_array_equal(table.obs(native), expected)
    dirty = np.full((rows, table.obs_size), 7.0, np.float32)
    np.testing.assert_array_equal(table.obs(native, out=dirty), expected)
    np.testing.assert_array_equal(table.obs(native[0]), expected[0])


def test_an_out_that_is_not_contiguous_is_filled_too():
    """A strided ``out`` (a view of every second row) takes numpy's path, with the same observations."""
    table = space("toepen").table(rams_env.make_game("toepen", 4))
    native = (np.random.default_rng(0).random((FEW_ROWS, len(table.obs_index))) < 0.2).astype(np.float32)
    buffer = np.full((2 * FEW_ROWS, table.obs_size), 7.0, np.float32)
    table.obs(native, out=buffer[::2])
    np.testing.assert_array_equal(buffer[::2], numpy_obs(table, native))
    assert not buffer[::2].flags.c_contiguous
    np.testing.assert_array_equal(buffer[1::2], 7.0)


@tiers.parametrize(("game", "preset", "n"), every_table_size(), tiers.usual_table)
def test_random_aec_play_maps(game, preset, n):
    env = rams_env.make(game, num_players=n, preset=preset)
    table = space(game).table(env.unwrapped.game)
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    for _ in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        general = table.obs(obs["observation"])
        np.testing.assert_array_equal(general[table.obs_index], obs["observation"])
        legal = np.flatnonzero(table.mask(obs["action_mask"]))
        env.step(int(table.native_actions(rng.choice(legal))))


@tiers.parametrize(("game", "preset", "n"), every_table_size(), tiers.reference_table)
def test_batched_engine_maps(game, preset, n):
    """The batched engine's observations (the AEC layout) map into the space, its actions back, for a few steps."""
    vector = pytest.importorskip("rams_env.vector")
    env = vector.make(game, num_envs=16, num_players=n, preset=preset)
    table = space(game).table(env.game)
    obs, mask, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    general_obs = np.zeros((16, space(game).obs_size), np.float32)
    general_mask = np.zeros((16, table.num_actions), bool)
    for _ in range(30):
        table.obs(obs, out=general_obs)
        table.mask(mask.astype(bool), out=general_mask)
        np.testing.assert_array_equal(general_obs[:, table.obs_index], obs)
        chosen = (rng.random(general_mask.shape) + general_mask).argmax(1)
        actions = table.native_actions(chosen)
        assert mask[np.arange(16), actions].all()
        obs, mask, *_ = env.step(actions)
