"""The ``rllib:`` section of a training config (``trainer: rllib``), without importing Ray or torch."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.checkpoint.net_arch import NetArch, towers

ALGORITHMS = ("ppo", "appo", "impala")


@dataclass
class RLlibConfig:
    """Ray RLlib's algorithm, scale-out and update settings (docs/training.md, "Ray RLlib")."""

    algorithm: str = "ppo"  # ppo | appo | impala (APPO and IMPALA sample asynchronously: many runners, many nodes)
    address: str = ""  # "": start Ray on this machine (ray.init()); "auto" or "host:6379": join a running cluster
    num_cpus: int = 0  # local Ray only: CPUs Ray may use (0: all of this machine's)
    num_env_runners: int = 1  # sampling processes (each one CPU); 0 samples in the driver
    envs_per_runner: int = 4  # envs stepped side by side in each runner (one batched forward per step)
    # steps per runner and env between sends (0: RLlib's "auto" for PPO, 50 for APPO / IMPALA, which need a number
    # that divides minibatch_size)
    rollout_fragment_length: int = 0
    train_batch_size: int = 2000  # env steps (all modules' decisions) per update
    minibatch_size: int = 256
    num_epochs: int = 4  # passes over each train batch (PPO); IMPALA and APPO make one
    learning_rate: float = 3e-4
    gamma: float = 1.0  # a deal is short and scored once (as the batched trainer)
    gae_lambda: float = 0.95
    clip_range: float = 0.2  # PPO / APPO
    ent_coef: float = 0.01
    net_arch: NetArch = field(default_factory=lambda: [128, 128])  # or {pi: [...], vf: [...]} (SB3's form)
    general: bool = False  # the game's general space (rams_env/core/general.py) even at one table
    num_learners: int = 0  # 0: the update runs in the driver; n: n learner processes (one CPU or GPU each)

    def validate(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm={self.algorithm!r}: one of {', '.join(ALGORITHMS)}")
        for name in ("num_env_runners", "num_cpus", "rollout_fragment_length", "num_learners"):
            if not _whole(getattr(self, name)) or getattr(self, name) < 0:
                raise ValueError(f"{name} must be a whole number >= 0")
        for name in ("envs_per_runner", "train_batch_size", "minibatch_size", "num_epochs"):
            if not _whole(getattr(self, name)) or getattr(self, name) <= 0:
                raise ValueError(f"{name} must be a positive whole number")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"minibatch_size {self.minibatch_size} exceeds train_batch_size {self.train_batch_size}")
        if not self.learning_rate > 0 or not 0 < self.gamma <= 1 or not 0 <= self.gae_lambda <= 1:
            raise ValueError("learning_rate > 0, 0 < gamma <= 1 and 0 <= gae_lambda <= 1")
        towers(self.net_arch)  # ValueError naming net_arch and the two forms
        if not isinstance(self.address, str) or not isinstance(self.general, bool):
            raise ValueError("address must be text and general true or false")


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
