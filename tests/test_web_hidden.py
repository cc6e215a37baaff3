"""The web table sends each seat only what it may know: swap two cards the seat cannot see, play the same moves,
and every message it is sent stays the same until one of the two cards comes into its sight (or the rules
themselves tell the worlds apart: an action no longer legal, a compulsory reveal). As tests/conformance.py does
for observations and views, here for the messages of web/messages.py, sessions and settlements included."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette")

import rams_env  # noqa: E402
from rams_env.core.cards import code  # noqa: E402
from tests.conformance import card_codes, deal_relabelled  # noqa: E402
from web.messages import table_message  # noqa: E402
from web.table import LiveTable, Setup, open_table  # noqa: E402

MAX_STEPS = 3000


def shown_cards(message: str, codes: frozenset[str]) -> set[str]:
    """The cards a message shows (its set-up lists the whole pack: not shown cards)."""
    data = json.loads(message)
    data.pop("setup")
    return card_codes(data, codes)


class Script:
    """An agent that plays the moves of another world, in order, whatever it is shown."""

    name = "script"
    reads_observation = False
    reads_view = False

    def __init__(self, moves: list[int]) -> None:
        self.moves = moves

    def reset(self, seed=None) -> None:
        del seed

    def act(self, observation, mask, view) -> int:
        return self.moves.pop(0)


def step(table: LiveTable, rng: np.random.Generator | None, script: list[int] | None) -> None:
    """One step of the table: the next deal, the person's move (random, or the script's), or an agent's."""
    if table.settlement is not None:
        table.next_deal()
    elif table.waiting_for_person():
        legal = table.game.legal_actions(table.state)
        action = script.pop(0) if script is not None else int(legal[rng.integers(len(legal))])
        table.person_moves(table.game.actions.label(action))
    else:
        table.agent_moves()


def world_a(game: str, seat: int, seed: int, deals: int):
    """A session played by random agents and a random person: the messages she got, the actions, the reveals."""
    table = open_table(Setup(game, None, None, ("random",), seat, seed))
    rng = np.random.default_rng(seed)
    messages, reveals = [], []
    while len(messages) < MAX_STEPS:
        messages.append(json.dumps(table_message(table, seat), sort_keys=True))
        reveals.append(table.game.compulsory_reveals(table.state))
        if table.state.terminal or table.state.deals_played >= deals:
            break
        step(table, rng, None)
    return table, messages, reveals


def unseen_pairs(table: LiveTable, seat: int, first_message: str, rng: np.random.Generator, count: int):
    """Pairs of cards in different places at the start that the seat's first message does not show."""
    game = table.game
    codes = frozenset(game.pack().codes)
    seen = shown_cards(first_message, codes)
    start = rams_env.make_game(game.name, game.num_players, session=True).new_state(np.random.default_rng(table.seed))
    places = {c: s for s, hand in enumerate(start.hands) for c in hand}
    hidden = [c for c in game.pack().cards if code(c) not in seen]
    pairs = set()
    for _ in range(20 * count):
        x, y = (int(hidden[i]) for i in rng.choice(len(hidden), 2, replace=False))
        if places.get(x, -1) != places.get(y, -1):
            pairs.add((min(x, y), max(x, y)))
        if len(pairs) == count:
            break
    return sorted(pairs)


def replay_b(game: str, seat: int, seed: int, history: list[tuple[int, int]], swap: tuple[int, int],
             messages: list[str], reveals: list) -> int:
    """World B: the same session with ``swap`` exchanged; the number of identical messages compared."""
    table = open_table(Setup(game, None, None, ("random",), seat, seed))
    x, y = swap
    deal_relabelled(table.game, {x: y, y: x})
    table.state = table.game.new_state(np.random.default_rng(seed))
    moves = [a for _, a in history]
    script = Script(moves)
    table.agents = [a if s == seat else script for s, a in enumerate(table.agents)]
    codes = frozenset(table.game.pack().codes)
    compared = 0
    for k, expected in enumerate(messages):
        if {code(x), code(y)} & shown_cards(expected, codes):
            break  # a swapped card came into her sight
        if table.game.compulsory_reveals(table.state) != reveals[k]:
            break
        got = json.dumps(table_message(table, seat), sort_keys=True)
        assert got == expected, f"{game} seat {seat}, {code(x)}<->{code(y)}: message {k} differs"
        compared += 1
        if k == len(messages) - 1:
            break
        if table.settlement is None and moves and moves[0] not in table.game.legal_actions(table.state):
            break  # the rules tell the worlds apart
        step(table, None, moves)
    return compared


@pytest.mark.parametrize("game", sorted(rams_env.GAMES))
def test_messages_do_not_depend_on_hidden_cards(game):
    compared = 0
    for seed in range(3):
        seat = seed % 2
        table, messages, reveals = world_a(game, seat, seed, deals=2)
        rng = np.random.default_rng(seed)
        for pair in unseen_pairs(table, seat, messages[0], rng, 3):
            compared += replay_b(game, seat, seed, list(table.state.history), pair, messages, reveals)
    assert compared > 30, f"{game}: only {compared} messages compared"
