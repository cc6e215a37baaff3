"""rams checks the AEC call order itself (no PettingZoo order-enforcing wrapper): the same errors users know."""

from __future__ import annotations

import pytest

import rams_env
from rams_env.env import RamsEnv, ResetNeededError


def test_make_returns_the_env_itself():
    env = rams_env.make("toepen")
    assert type(env) is RamsEnv and env.unwrapped is env


@pytest.mark.parametrize("call, message", [
    (lambda env: env.step(0), "reset() needs to be called before step."),
    (lambda env: env.observe("player_0"), "reset() needs to be called before observe."),
    (lambda env: env.agent_iter(), "reset() needs to be called before agent_iter()."),
    (lambda env: env.render(), "reset() needs to be called before render."),
])
def test_calls_before_reset_raise_pettingzoo_s_assertion_errors(call, message):
    env = rams_env.make("toepen", render_mode="ansi")
    with pytest.raises(AssertionError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        call(env)
    assert isinstance(err.value, ResetNeededError)


@pytest.mark.parametrize("name", ["rewards", "terminations", "truncations", "infos", "agent_selection", "agents"])
def test_episode_attributes_do_not_exist_before_reset(name):
    with pytest.raises(AttributeError):
        getattr(rams_env.make("mauscheln"), name)


def test_step_after_the_episode_is_refused_and_changes_nothing():
    env = rams_env.make("lupfen")
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    history = list(env.game_state.history)
    with pytest.raises(ResetNeededError, match="episode is over"):
        env.step(0)
    assert env.game_state.history == history and env.agents == []


def test_an_observation_is_encoded_once_per_position():
    env = rams_env.make("tippen")
    env.reset(seed=5)
    agent = env.agent_selection
    first = env.observe(agent)
    assert env.last()[0] is first
    env.step(int(first["action_mask"].nonzero()[0][0]))
    assert env.observe(agent) is not first
