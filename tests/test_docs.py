"""Docs that cannot drift: generated tables match the code, every game has a cited rules page."""

from __future__ import annotations

import pytest

from rams_env.registry import GAMES
from tests import doctables


@pytest.mark.parametrize("game", list(GAMES))
def test_generated_tables_are_current(game):
    text = (doctables.DOCS / f"{game}.md").read_text()
    assert doctables.render_doc(text, doctables.tables(game)) == text, (
        "run: python -m tests.doctables")


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_page_cites_its_source_and_decisions(game):
    text = (doctables.DOCS / f"{game}.md").read_text()
    assert ".txt" in text and "Decisions" in text
