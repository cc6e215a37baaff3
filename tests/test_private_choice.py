"""The private decision asked of every seat in turn (rams_env/core/private_choice.py), on its own."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rams_env.core.private_choice import PrivateChoice

SCRAP, KEEP = 7, 3


@dataclass
class Table:
    holders: set[int]
    queue: list[int] = field(default_factory=list)
    to_act: int | None = None


CHOICE = PrivateChoice((SCRAP, KEEP), KEEP, lambda state, seat: seat in state.holders)


def test_every_seat_is_asked_in_turn_and_only_a_holder_has_a_choice():
    table = Table(holders={2})
    assert CHOICE.begin(table, [1, 2, 3, 0])
    asked = []
    while True:
        asked.append((table.to_act, CHOICE.legal(table)))
        if not CHOICE.ask_next(table):
            break
    assert asked == [(1, [KEEP]), (2, [KEEP, SCRAP]), (3, [KEEP]), (0, [KEEP])]


def test_nobody_to_ask_changes_nothing():
    table = Table(holders=set(), queue=[5], to_act=5)
    assert not CHOICE.begin(table, [])
    assert table.queue == [5] and table.to_act == 5


def test_a_holder_must_be_able_to_decline():
    with pytest.raises(ValueError, match="decline"):
        PrivateChoice((SCRAP,), KEEP, lambda state, seat: True)
