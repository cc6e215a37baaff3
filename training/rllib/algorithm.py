"""An RLlib algorithm (PPO, APPO or IMPALA, new API stack) for a rams training config, and Ray to run it on.

Every module (the learner and the snapshot slots) is a :class:`~training.rllib.module.MaskedActorCritic`;
only ``learner`` is trained. The env is :class:`~training.rllib.env.RamsMultiAgentEnv`, RLlib's own env
checker left on; the policy mapping function reads the module out of each agent's name
(training/rllib/seats.py).
"""

from __future__ import annotations

import os
from typing import Any

import ray
from ray.rllib.algorithms.algorithm_config import AlgorithmConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from agents.checkpoint.net_arch import as_json
from training.batched.tables import TableSpec
from training.config import TrainConfig
from training.rllib.env import RamsMultiAgentEnv, env_config
from training.rllib.module import MaskedActorCritic
from training.rllib.seats import LEARNER, module_ids, module_of


def start_ray(address: str, num_cpus: int, root: str) -> None:
    """Join the cluster at ``address`` or start Ray on this machine (``num_cpus`` 0: all its CPUs). Local
    workers import rams from ``root`` (added to their PYTHONPATH); a cluster's nodes must have rams installed
    (docs/training.md)."""
    if ray.is_initialized():
        return
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    runtime = {"env_vars": {"PYTHONPATH": path}}
    if address:
        ray.init(address=address, runtime_env=runtime, log_to_driver=False)
    else:
        # "local": a new Ray here, even where a cluster started by ``ray start`` was (or is) recorded
        ray.init(address="local", num_cpus=num_cpus or None, include_dashboard=False, runtime_env=runtime,
                 log_to_driver=False)


def algorithm_config(config: TrainConfig, tables: list[TableSpec], general: bool) -> AlgorithmConfig:
    """The RLlib config of a rams run: env, modules, mapping, runners, the algorithm's update settings."""
    r = config.rllib
    ids = module_ids(config.snapshots_kept)
    module = RLModuleSpec(module_class=MaskedActorCritic, model_config={"net_arch": as_json(r.net_arch)})
    env = env_config(config.game, tables, config.env, general, config.opponents, config.snapshots_kept,
                     config.reward_scale)
    algo = _algorithm_class(r.algorithm)()
    algo = (algo.environment(RamsMultiAgentEnv, env_config=env)
            .framework("torch")
            .env_runners(num_env_runners=r.num_env_runners, num_envs_per_env_runner=r.envs_per_runner,
                         rollout_fragment_length=fragment_length(r),
                         num_cpus_per_env_runner=1)
            .multi_agent(policies=set(ids), policy_mapping_fn=module_of, policies_to_train=[LEARNER])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(ids, module)))
            .learners(num_learners=r.num_learners)
            .training(**training_settings(config))
            .debugging(seed=config.seed, log_level="ERROR"))
    return algo


ASYNC_FRAGMENT = 50
"""APPO's and IMPALA's default steps per runner and env between sends: they take no "auto" (minibatch_size
must be a multiple)."""


def fragment_length(r) -> int | str:
    """``rollout_fragment_length`` 0 is RLlib's "auto" for PPO, :data:`ASYNC_FRAGMENT` for APPO and IMPALA."""
    return r.rollout_fragment_length or ("auto" if r.algorithm == "ppo" else ASYNC_FRAGMENT)


def _algorithm_class(name: str) -> type[AlgorithmConfig]:
    if name == "ppo":
        from ray.rllib.algorithms.ppo import PPOConfig

        return PPOConfig
    if name == "appo":
        from ray.rllib.algorithms.appo import APPOConfig

        return APPOConfig
    from ray.rllib.algorithms.impala import IMPALAConfig

    return IMPALAConfig


def training_settings(config: TrainConfig) -> dict[str, Any]:
    """``AlgorithmConfig.training`` keywords: the common ones, then each algorithm's own."""
    r = config.rllib
    common = {"lr": r.learning_rate, "gamma": r.gamma, "train_batch_size_per_learner": r.train_batch_size,
              "minibatch_size": r.minibatch_size, "entropy_coeff": r.ent_coef}
    if r.algorithm == "ppo":
        return {**common, "lambda_": r.gae_lambda, "clip_param": r.clip_range, "num_epochs": r.num_epochs}
    if r.algorithm == "appo":
        return {**common, "clip_param": r.clip_range}
    return common
