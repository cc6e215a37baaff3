"""The client test matrix (issue 15 §1): programs from the clients' own docs, only the env swapped in.

Each test follows a documented program of its library (named in its docstring) and changes only the
environment; nothing in rams is special-cased. Versions are pinned in pyproject's ``clients`` extra
(installed by ``.ci/setup``); a client that cannot be imported is skipped, with its name.
docs/environment.md has the matrix.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils import wrappers

import rams_env

GAMES = list(rams_env.GAMES)
UNMASKED = pytest.mark.filterwarnings("ignore::rams_env.env.IllegalActionWarning")
"""For checkers that sample actions without the mask: a masked-out one ends the game (and warns)."""


def classic_chain(game: str):
    """PettingZoo classic's ``env()``: TerminateIllegal, AssertOutOfBounds, OrderEnforcing around the raw env."""
    env = wrappers.TerminateIllegalWrapper(rams_env.raw_env(game), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


# ---------------------------------------------------------------------- PettingZoo
@UNMASKED
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_tests_and_classic_wrappers(game):
    """pettingzoo.test's api/seed tests on env(), the parallel env and the classic wrapper chain."""
    module = getattr(rams_env, f"{game}_v0")
    api_test(module.env(), num_cycles=200)
    api_test(classic_chain(game), num_cycles=200)
    seed_test(module.env, num_cycles=50)
    parallel_api_test(module.parallel_env(), num_cycles=200)
    parallel_seed_test(module.parallel_env)


@pytest.mark.parametrize("game", GAMES)
def test_classic_wrappers_handle_illegal_and_out_of_bounds_actions(game):
    env = classic_chain(game)
    env.reset(seed=2)
    raw, agent = env.unwrapped, env.agent_selection
    with pytest.raises(AssertionError):
        env.step(raw.game.actions.size)  # AssertOutOfBounds
    env.observe(agent)
    env.step(next(a for a in range(raw.game.actions.size) if a not in raw.legal_actions()))  # TerminateIllegal
    assert all(env.terminations.values()) and env._cumulative_rewards[agent] == -1


# ----------------------------------------------------------------- SB3 (tutorial)
def test_sb3_action_mask_tutorial(tmp_path, monkeypatch):
    """PettingZoo's tutorials/SB3/connect_four/sb3_connect_four_action_mask.py: the registry, a wrapper that is
    a BaseWrapper and a gymnasium.Env, ActionMasker, MaskablePPO self-play for 2,048 steps, then the tutorial's
    evaluation loop against a random agent, with ``predict``'s 0-d array passed as the action."""
    gym = pytest.importorskip("gymnasium")
    pytest.importorskip("sb3_contrib")
    import pettingzoo
    import pettingzoo.utils
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gym.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            acting = self.agent_selection
            super().step(action)
            return (self.observe(self.agent_selection), self._cumulative_rewards[acting],
                    self.terminations[acting], self.truncations[acting], self.infos[acting])

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    monkeypatch.chdir(tmp_path)
    env = SB3ActionMaskWrapper(pettingzoo.make("aec", "rams/toepen-v0"))
    env.reset(seed=0)
    env = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=512, batch_size=128, n_epochs=2, verbose=0)
    model.set_random_seed(0)
    model.learn(total_timesteps=2048)
    model.save(f"{env.unwrapped.metadata['name']}_policy")
    model = MaskablePPO.load(tmp_path / "toepen_v0_policy.zip")

    env = pettingzoo.make("aec", "rams/toepen-v0")
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for i in range(10):
        env.reset(seed=i)
        env.action_space(env.possible_agents[0]).seed(i)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            totals[agent] += reward
            if termination or truncation:
                env.step(None)
                continue
            observation, action_mask = obs.values()
            if agent == env.possible_agents[0]:
                action = env.action_space(agent).sample(action_mask)
            else:
                action = model.predict(observation, action_masks=action_mask, deterministic=True)[0]
                assert isinstance(action, np.ndarray) and action.shape == ()
            env.step(action)
    assert sum(totals.values()) < 0  # Toepen: every deal costs lives, nobody gains any


# ------------------------------------------------------- Gymnasium / SB3 check_env
@UNMASKED
@pytest.mark.parametrize("game", GAMES)
def test_check_env_on_the_single_seat_view(game):
    """gymnasium.utils.env_checker.check_env and SB3's check_env, which step with unmasked samples."""
    from gymnasium.utils.env_checker import check_env

    from agents.random_agent import RandomAgent
    from training.single_seat import SingleSeatEnv

    n = rams_env.make_game(game).num_players
    env = SingleSeatEnv(game, lambda rng: [RandomAgent(int(rng.integers(2**31))) for _ in range(n)])
    check_env(env, skip_render_check=True)
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(env, warn=False)


# ------------------------------------------------------------------------ TorchRL
@pytest.mark.parametrize("game", GAMES)
def test_torchrl_pettingzoo_wrapper_with_state(game):
    """TorchRL's PettingZooWrapper docs (AEC: use_mask=True) with return_state=True; a masked random rollout."""
    pytest.importorskip("torchrl")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    env = PettingZooWrapper(env=getattr(rams_env, f"{game}_v0").env(), use_mask=True, group_map=None,
                            return_state=True, seed=0)
    rollout = env.rollout(120, break_when_any_done=False)
    raw = env._env.unwrapped
    assert rollout["state"].shape[-1] == raw.state_space.shape[0]
    assert rollout[0]["state"].numpy().tolist() != rollout[-1]["state"].numpy().tolist()
    assert rollout["next", "done"].any()  # whole deals were played (and reset)
    assert rollout["next", "player_0", "info", "deal_result"].shape == (120, 1)  # infos became tensors


# ----------------------------------------------------------------------- Tianshou
@pytest.mark.slow
@pytest.mark.parametrize("game", ["fipsen"])
def test_tianshou_multi_agent_collector_and_training(game, tmp_path):
    """Tianshou's MARL tutorial (docs/02_deep_dives/L6_MARL, test/pettingzoo/tic_tac_toe.py): PettingZooEnv,
    MultiAgentOffPolicyAlgorithm with a DQN learner and random masked agents, a VectorReplayBuffer, an epoch
    of off-policy training."""
    pytest.importorskip("tianshou")
    import torch
    from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    def get_env():
        return PettingZooEnv(getattr(rams_env, f"{game}_v0").env())

    env = get_env()
    observation_space = env.observation_space.spaces["observation"]
    net = Net(state_shape=observation_space.shape, action_shape=int(env.action_space.n), hidden_sizes=[64, 64])
    learner = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1,
                                                 eps_inference=0.05),
                  optim=AdamOptimizerFactory(lr=1e-4), n_step_return_horizon=3, gamma=0.9, target_update_freq=320)
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
              for _ in env.agents[1:]]
    marl = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env)

    training_envs, test_envs = DummyVectorEnv([get_env] * 2), DummyVectorEnv([get_env] * 2)
    np.random.seed(0)
    torch.manual_seed(0)
    training_envs.seed(0)
    test_envs.seed(0)
    training = Collector[CollectStats](marl, training_envs, VectorReplayBuffer(5_000, 2), exploration_noise=True)
    testing = Collector[CollectStats](marl, test_envs, exploration_noise=True)
    training.reset()
    training.collect(n_step=128)
    buffer = training.buffer
    assert len(buffer) == 128 and buffer.info.deal_result.shape == (5_000,)
    result = marl.run_training(OffPolicyTrainerParams(
        training_collector=training, test_collector=testing, max_epochs=1, epoch_num_steps=100,
        collection_step_num_env_steps=10, test_step_num_episodes=2, batch_size=32,
        update_step_num_gradient_steps_per_sample=0.1, test_in_training=False,
        multi_agent_return_reduction=lambda rews: rews[:, 0]))
    assert result.update_step > 0 and result.train_step >= 100


# ----------------------------------------------------------------------- SuperSuit
@pytest.mark.parametrize("game", ["toepen", "lupfen"])
def test_supersuit_vector_conversion_of_the_parallel_env(game):
    """SuperSuit as in PettingZoo's SB3 vector tutorials: pettingzoo_env_to_vec_env_v1, concat_vec_envs_v1
    (SB3 base class); each seat acts from its own mask."""
    ss = pytest.importorskip("supersuit")
    parallel = getattr(rams_env, f"{game}_v0").parallel_env()
    parallel.reset(seed=0)
    n = len(parallel.possible_agents)
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(parallel), 2, num_cpus=0,
                                base_class="stable_baselines3")
    assert vec.num_envs == 2 * n
    observations = vec.reset()
    rng, finished = np.random.default_rng(0), 0
    for _ in range(300):  # a masked-out action would raise: pytest turns IllegalActionWarning into an error
        masks = observations["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        observations, rewards, dones, infos = vec.step(actions)
        finished += int(dones.sum())
    assert finished >= n  # deals ended and the vector env reset them
