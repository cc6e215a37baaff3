"""The phase tables (rams_env/core/phases.py) and the segment-name enums (core/actions.ActionName)."""

from __future__ import annotations

import importlib
from enum import Enum
from types import SimpleNamespace

import numpy as np
import pytest

from rams_env.core.actions import ActionLayout, ActionName, Segment
from rams_env.core.phases import END, PhaseTable, Step, offer
from rams_env.registry import GAMES, make_game


def _modules(name: str):
    game = make_game(name)
    module = importlib.import_module(type(game).__module__)
    state_module = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".state")
    return game, module, state_module


@pytest.mark.parametrize("name", list(GAMES))
def test_every_phase_of_every_game_has_one_step(name):
    _, module, state_module = _modules(name)
    assert set(module.PHASE_TABLE.steps) == set(state_module.Phase)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_act_enum_names_exactly_the_layout_segments(name):
    game, _, state_module = _modules(name)
    assert [seg.name for seg in game.actions.segments] == list(state_module.Act)
    assert all(type(label) is str for label in game.actions.labels)  # plain strings, as before the enum
    kind, _ = game.actions.segment(0)
    assert kind is state_module.Act.PLAY


def test_a_layout_refuses_an_enum_that_does_not_match_its_segments():
    class Names(ActionName):
        KNOCK = "knock"
        PASS = "pass"

    ActionLayout([Segment(Names.KNOCK), Segment(Names.PASS)], names=Names)
    with pytest.raises(ValueError, match="Names must name exactly"):
        ActionLayout([Segment(Names.KNOCK)], names=Names)
    with pytest.raises(ValueError, match="Names must name exactly"):
        ActionLayout([Segment(Names.KNOCK), Segment(Names.PASS), Segment("fold")], names=Names)


# ------------------------------------------------------------ a toy deal: ask, then maybe bet, then end
class Phase(Enum):
    ASK = "ask"
    BET = "bet"


class Act(ActionName):
    YES = "yes"
    NO = "no"


def _game(ask_then=(Phase.BET, END), skip_bet=False):
    def ask(game, state, seat, name, item):
        state.asked.append(seat)
        if name is Act.NO:
            state.deal_over = True
            return END
        return Phase.BET

    def bet(game, state, seat, name, item):
        state.deal_over = True
        return END

    def enter_bet(game, state):
        state.to_act = 1
        return END if skip_bet else None

    table = PhaseTable({
        Phase.ASK: Step(offer(Act.YES, Act.NO), ask, then=ask_then),
        Phase.BET: Step(offer(Act.YES), bet, then=(END,), enter=enter_bet),
    }, first=(Phase.ASK,))
    game = SimpleNamespace(name="toy", actions=ActionLayout([Segment(Act.YES), Segment(Act.NO)], names=Act))
    game.ids = game.actions.singles
    state = SimpleNamespace(phase=None, to_act=0, asked=[], deal_over=False)
    return table, game, state


def test_a_handler_leads_to_the_next_phase_and_its_enter_sets_who_acts():
    table, game, state = _game()
    table.start(game, state, Phase.ASK)
    assert state.phase is Phase.ASK and table.legal(game, state) == [0, 1]
    table.apply(game, state, game.actions.parse("yes"))
    assert state.phase is Phase.BET and state.to_act == 1 and table.legal(game, state) == [0]
    table.apply(game, state, game.actions.parse("yes"))
    assert state.deal_over and state.phase is Phase.BET  # the phase the deal ended in stays


def test_an_enter_may_skip_its_phase_when_nobody_decides_there():
    table, game, state = _game(skip_bet=True)
    table.start(game, state, Phase.ASK)
    table.apply(game, state, game.actions.parse("yes"))
    assert state.phase is Phase.BET and state.to_act == 1


def test_a_transition_the_table_does_not_list_is_refused():
    table, game, state = _game(ask_then=(END,))
    table.start(game, state, Phase.ASK)
    with pytest.raises(RuntimeError, match="ASK -> Phase.BET is not in the phase table"):
        table.apply(game, state, game.actions.parse("yes"))
    table, game, state = _game(ask_then=(Phase.BET,))
    table.start(game, state, Phase.ASK)
    with pytest.raises(RuntimeError, match="is not in the phase table"):
        table.apply(game, state, game.actions.parse("no"))  # ends the deal, but END is not listed
    with pytest.raises(RuntimeError, match="None -> Phase.BET"):
        table.start(game, state, Phase.BET)  # not a phase a deal opens with


def test_a_table_naming_a_phase_without_a_step_is_refused():
    with pytest.raises(ValueError, match="have no step"):
        PhaseTable({Phase.ASK: Step(offer(Act.YES), lambda *a: END, then=(Phase.BET,))}, first=(Phase.ASK,))
    with pytest.raises(ValueError, match="have no step"):
        PhaseTable({Phase.ASK: Step(offer(Act.YES), lambda *a: END, then=(END,))}, first=(Phase.BET,))


@pytest.mark.parametrize("name", list(GAMES))
def test_seeded_play_only_takes_transitions_the_table_lists(name):
    """Random legal play through every game's table (the table refuses anything it does not list)."""
    game = make_game(name, session=True)
    rng = np.random.default_rng(5)
    for _ in range(3):
        state = game.new_state(np.random.default_rng(int(rng.integers(1 << 30))), None, random_carry=True)
        while not state.terminal:
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))])
        assert state.deals_played >= 1
