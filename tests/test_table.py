"""The deal loop (agents/table.py): every caller's agents act through it, so its hooks and checks are pinned here."""

from __future__ import annotations

import numpy as np
import pytest

import rams_env
from agents.random_agent import RandomAgent
from agents.table import Watcher, play, play_episode
from rams_env.env import IllegalActionError


class Log(Watcher):
    """Records what the hooks hear; stops after ``stop`` decisions if given."""

    def __init__(self, stop: int | None = None) -> None:
        self.events: list[tuple] = []
        self.stop = stop

    def acting(self, turn) -> None:
        assert turn.action in turn.legal and turn.state.to_act == turn.seat
        self.events.append(("acting", turn.seat, turn.action))

    def settled(self, state) -> None:
        self.events.append(("settled", state.deals_played, state.deal_over, state.breakdown is
                            state.deal_breakdowns[-1], list(state.deal_results[-1])))

    def acted(self, turn) -> bool:
        self.events.append(("acted", turn.seat, turn.action))
        return self.stop is not None and sum(e[0] == "acted" for e in self.events) >= self.stop


def session(game: str = "toepen"):
    g = rams_env.make_game(game, 3, session=True, **({"lives": 15} if game == "toepen" else {"session_deals": 3}))
    return g, g.new_state(np.random.default_rng(7))


@pytest.mark.parametrize("game", ["toepen", "tippen"])
def test_settled_hears_every_deal_of_a_session_before_the_next_is_dealt(game):
    g, state = session(game)
    log = Log()
    decisions = play(g, state, [RandomAgent(s) for s in range(3)], log)
    settled = [e for e in log.events if e[0] == "settled"]
    assert state.terminal and decisions == sum(e[0] == "acted" for e in log.events) == len(state.history)
    assert [e[1] for e in settled] == list(range(1, state.deals_played + 1)) and state.deals_played >= 2
    assert all(e[2] and e[3] for e in settled)  # the deal as it ended: still over, its own breakdown
    assert [e[4] for e in settled] == state.deal_results
    for i, event in enumerate(log.events):  # each settlement comes between a move's acting and its acted
        if event[0] == "settled":
            assert log.events[i - 1][0] == "acting" and log.events[i + 1][0] == "acted"


def test_acted_returning_true_stops_the_play_where_it_stands():
    g, state = session()
    assert play(g, state, [RandomAgent(s) for s in range(3)], Log(stop=3)) == 3
    assert not state.terminal and len(state.history) == 3


class Fixed:
    """Plays one action id whatever the mask says, and remembers what it was shown."""

    reads_observation = False
    reads_view = False

    def __init__(self, action) -> None:
        self.name, self.action, self.seen = "fixed", action, []

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, mask, view):
        self.seen.append((observation.size, view))
        return self.action if self.action is not None else int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("bad", [10_000, 1.0, True, "knock"])
def test_an_illegal_choice_is_refused_naming_the_agent_and_changes_nothing(bad):
    g, state = session()
    with pytest.raises(IllegalActionError, match="fixed in seat"):
        play(g, state, [Fixed(bad)] * 3)
    assert state.history == []


def test_each_agent_gets_only_what_it_reads_and_play_episode_pays_the_final_scores():
    env = rams_env.make("tippen", 3)
    blind = Fixed(None)
    scores = play_episode(env, [blind, RandomAgent(1), RandomAgent(2)], seed=3)
    assert blind.seen and all(size == 0 and view == {} for size, view in blind.seen)
    assert env.unwrapped.game_state.terminal  # the env's own deal, played to its end
    assert scores == [float(s) for s in env.unwrapped.game_state.scores]
