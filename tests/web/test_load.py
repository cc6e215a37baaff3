"""A small run of the load test (benchmarks/web_load.py): tables at once on loopback, no error, no crossed state,
every record replays and adds up to what its page was shown. Slow tier."""

from __future__ import annotations

import pytest

from tests.tiers import slow

pytestmark = slow


def test_concurrent_tables_on_loopback():
    pytest.importorskip("websockets")
    pytest.importorskip("uvicorn")
    from benchmarks.web_load import main

    report = main(["--tables", "10", "--deals", "1", "--timeout", "120"])
    assert report["tables"] == 10 and report["moves"] >= 10
