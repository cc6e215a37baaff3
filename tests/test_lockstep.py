"""Many games side by side (agents/lockstep.py): the sequential deal loop's results, game for game."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import rams_env
from agents.checkpoint_agent import NEAR_TIE, CheckpointAgent, PolicyAgent, build_policy
from agents.lockstep import batches, play_together
from agents.random_agent import RandomAgent
from agents.registry import agent_factory, pretrained_path
from agents.table import play
from evaluation.tournament import deal_state
from rams_env.core.general import preset_tables
from rams_env.env import IllegalActionError

GAMES = ("toepen", "tippen", "mauscheln", "lupfen", "fipsen")


def small_policy(game, seed: int) -> PolicyAgent:
    """A greedy network of the game's native observation, randomly initialised (a different one per seed)."""
    torch.manual_seed(seed)
    return PolicyAgent(build_policy(game.observation.size, game.actions.size, [16]), name=f"net{seed}")


def tables_of(game, network, games: int, seed: int) -> list[list]:
    """``games`` tables mixing the shared network with fresh heuristic and random seats (a different mix each)."""
    heuristic = agent_factory("heuristic", game)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        kinds = rng.integers(0, 3, game.num_players)
        out.append([network if k == 0 else heuristic(g * 31 + s) if k == 1 else RandomAgent(g * 31 + s)
                    for s, k in enumerate(kinds)])
    return out


def played(game, tables, seeds, together: bool):
    states = [deal_state(game, s) for s in seeds]
    if together:
        decisions = play_together(game, states, [lambda agents=agents: agents for agents in tables])
    else:
        decisions = [play(game, state, agents) for state, agents in zip(states, tables, strict=True)]
    return [list(s.scores) for s in states], decisions, [list(s.history) for s in states]


@pytest.mark.parametrize("name", GAMES)
def test_side_by_side_plays_every_game_as_one_by_one(name):
    """Scores, decision counts and every action of 24 games, a shared greedy network beside fresh scripted
    seats, equal to the sequential loop's (built twice: a fresh heuristic or random seat is used up by a game)."""
    game = rams_env.make_game(name)
    network = small_policy(game, 0)
    seeds = [1000 + g for g in range(24)]
    one_by_one = played(game, tables_of(game, network, 24, 3), seeds, together=False)
    together = played(game, tables_of(game, network, 24, 3), seeds, together=True)
    assert together == one_by_one
    assert sum(together[1]) > 24  # games were played


@pytest.mark.parametrize("name", GAMES)
def test_a_general_checkpoint_batched_chooses_what_it_chooses_alone(name):
    """The shipped general agent in every seat of 8 deals at the game's last preset table (not the default): one
    forward per step over the games, the same play as its batch-1 act."""
    preset, game = preset_tables(name)[-1]
    assert preset != preset_tables(name)[0][0]
    agent = agent_factory(f"checkpoint:{pretrained_path(name)}", game)(None)
    assert batches(agent)
    seeds = list(range(8))
    tables = [[agent] * game.num_players for _ in seeds]
    assert played(game, tables, seeds, together=True) == played(game, tables, seeds, together=False)


def test_act_batch_is_act_row_by_row_and_decides_near_ties_alone(monkeypatch):
    """Rows whose best two legal actions tie exactly (two identical output rows of the network) are decided by
    act's own arithmetic; every other row by the batch; every choice equals act's."""
    game = rams_env.make_game("toepen")
    agent = small_policy(game, 1)
    with torch.no_grad():  # logits far apart (x50), but actions 0 and 1 get the same one in every row
        agent.policy.action_net.weight *= 50.0
        agent.policy.action_net.weight[1] = agent.policy.action_net.weight[0]
        agent.policy.action_net.bias[1] = agent.policy.action_net.bias[0] + 10.0
        agent.policy.action_net.bias[0] += 10.0
    rng = np.random.default_rng(0)
    obs = (rng.random((64, game.observation.size)) < 0.2).astype(np.float32)
    masks = (rng.random((64, game.actions.size)) < 0.5).astype(np.int8)
    masks[:32, :2] = 1  # rows 0..31: the tied pair is legal (and is the best by far)
    masks[32:, :2] = 0
    masks[32:, 2] = 1
    alone_calls = []
    original = PolicyAgent._greedy
    monkeypatch.setattr(PolicyAgent, "_greedy", lambda self, o, m: alone_calls.append(1) or original(self, o, m))
    chosen = agent.act_batch(obs, masks)
    decided_alone = len(alone_calls)
    assert [int(a) for a in chosen] == [agent.act(o, m, {}) for o, m in zip(obs, masks, strict=True)]
    assert decided_alone == 32
    assert set(chosen[:32].tolist()) == {0}  # an exact tie goes to the first action, as act's argmax does
    assert NEAR_TIE < 0.01


def test_a_sampling_policy_does_not_batch():
    game = rams_env.make_game("toepen")
    agent = small_policy(game, 2)
    agent.deterministic = False
    assert not batches(agent)
    with pytest.raises(ValueError, match="greedy"):
        agent.act_batch(np.zeros((1, game.observation.size), np.float32), np.ones((1, game.actions.size), np.int8))
    assert batches(CheckpointAgent(pretrained_path("toepen")))


class Counting:
    """A scripted player that keeps state across games: its n-th decision is its n-th legal action mod the count."""

    name, reads_observation, reads_view = "counting", False, False

    def __init__(self) -> None:
        self.calls = 0

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, mask, view) -> int:
        self.calls += 1
        legal = np.flatnonzero(mask)
        return int(legal[self.calls % len(legal)])


def test_a_stateful_agent_shared_by_two_games_is_played_one_game_after_another():
    """Interleaving would hand its decisions to the games in another order: the games are played in turn, so
    the result is the sequential loop's."""
    game = rams_env.make_game("tippen")
    network = small_policy(game, 3)
    results = []
    for together in (False, True):
        shared = Counting()
        tables = [[shared, network, network, network], [network, shared, network, network]]
        results.append(played(game, tables, [5, 6], together))
    assert results[0] == results[1]


def test_an_illegal_batched_choice_is_refused_naming_the_agent():
    game = rams_env.make_game("toepen")

    class Rogue(PolicyAgent):
        def act_batch(self, observations, masks):
            return np.array([np.flatnonzero(m == 0)[0] for m in masks])

    rogue = Rogue(small_policy(game, 4).policy, name="rogue")
    with pytest.raises(IllegalActionError, match="rogue in seat"):
        play_together(game, [deal_state(game, 0)], [lambda: [rogue] * game.num_players])
    with pytest.raises(ValueError, match="2 states for 1 tables"):
        play_together(game, [deal_state(game, 0), deal_state(game, 1)], [lambda: [rogue] * game.num_players])


class Reseeded(Counting):
    """A shared scripted player whose reset seeds its draws: which seed is in force depends on when it is reset."""

    def reset(self, seed=None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, mask, view) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


def test_a_shared_object_is_seated_again_just_before_its_own_game():
    """Seated once for all games, the last game's reset would be in force in every game; the one-by-one fallback
    seats each game again just before it, as the sequential loop did."""
    game = rams_env.make_game("toepen")
    shared = Reseeded()

    def seated(seed):
        shared.reset(seed)
        return [shared] * game.num_players

    seeds = [3, 4, 5]
    states = [deal_state(game, s) for s in seeds]
    play_together(game, states, [lambda s=s: seated(s) for s in seeds])
    one_by_one = [deal_state(game, s) for s in seeds]
    for state, s in zip(one_by_one, seeds, strict=True):
        play(game, state, seated(s))
    assert [st.history for st in states] == [st.history for st in one_by_one]
    assert len({tuple(st.history) for st in states}) == 3
