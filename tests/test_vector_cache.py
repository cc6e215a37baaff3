"""Where the batched engine's compiled kernels are cached (rams_env/vector/cache.py): a directory per state of the
sources, so an edited kernel never runs from a stale cache."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("numba")

import numba  # noqa: E402

from rams_env.vector import cache  # noqa: E402


def _sources(root, text: str) -> None:
    (root / "game").mkdir(exist_ok=True)
    (root / "kernels.py").write_text("def step(): pass\n")
    (root / "game" / "flow.py").write_text(text)


def test_any_edit_of_any_source_names_another_cache(tmp_path):
    _sources(tmp_path, "def deal(): return 1\n")
    before = cache.sources_digest(tmp_path)
    assert cache.sources_digest(tmp_path) == before
    _sources(tmp_path, "def deal(): return 2\n")  # a game's piece, compiled into kernels.py's loops
    assert cache.sources_digest(tmp_path) != before


def test_older_caches_are_removed_but_the_most_recent_few(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    old = []
    for age in range(5):
        folder = tmp_path / "__pycache__" / f"{cache.PREFIX}old{age}"
        folder.mkdir(parents=True)
        os.utime(folder, (1e9 - age, 1e9 - age))  # old0 the most recent
        old.append(folder)
    _sources(tmp_path, "def deal(): return 1\n")
    target = cache.use_cache_of_these_sources(tmp_path)
    assert str(target) == numba.config.CACHE_DIR and target.name == cache.PREFIX + cache.sources_digest(tmp_path)
    kept = sorted(p.name for p in (tmp_path / "__pycache__").iterdir())
    assert kept == sorted([f"{cache.PREFIX}old0", f"{cache.PREFIX}old1"])  # the new one is made by numba on use


def test_a_cache_directory_the_user_chose_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", "unchanged")
    assert cache.use_cache_of_these_sources(tmp_path) is None and numba.config.CACHE_DIR == "unchanged"


def test_the_engine_caches_under_its_sources_digest():
    if os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("NUMBA_CACHE_DIR decides here")
    assert str(cache.ROOT / "__pycache__" / (cache.PREFIX + cache.sources_digest())) == numba.config.CACHE_DIR
