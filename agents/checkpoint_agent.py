"""An agent that plays a trained checkpoint (weights only: see agents/checkpoint/format.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy

from agents.checkpoint.fit import check_table, fit_weights
from agents.checkpoint.format import SPECIALISTS, CheckpointError, load_checkpoint, load_specialist_state
from agents.checkpoint.general import general_table, is_general
from agents.checkpoint.net_arch import NetArch, as_json
from agents.checkpoint.specialists import specialist_index
from rams_env.core.general import Table


def build_policy(obs_size: int, n_actions: int, net_arch: NetArch, *,
                 initialise: bool = True) -> MaskableActorCriticPolicy:
    """The network every rams checkpoint holds (sb3-contrib's maskable actor-critic MLP; ``net_arch`` a list for
    both towers or SB3's {pi, vf} mapping, agents/checkpoint/net_arch.py).

    ``initialise=False`` for a network whose every weight is loaded next: SB3's orthogonal initialisation is a QR
    decomposition per layer, 1.5 s of one core for a general [256, 256] network (0.007 s without), and minutes of
    wall time for a process whose two torch threads share busy cores."""
    return MaskableActorCriticPolicy(
        spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32), spaces.Discrete(n_actions),
        lr_schedule=lambda _: 0.0, net_arch=as_json(net_arch), ortho_init=initialise)


MASKED_LOGIT = -1e8
"""What sb3-contrib's MaskableCategorical puts in place of an illegal action's logit."""
NEAR_TIE = 1e-3
"""Best two legal log-probabilities closer than this are decided again row by row (:meth:`PolicyAgent.act_batch`):
a hundred times the largest gap measured between a batch's logits and a single row's."""


class PolicyAgent:
    """Plays a maskable actor-critic policy greedily (or by sampling with its own generator)."""

    reads_view: ClassVar[bool] = False  # the vector and the mask are all a network reads (agents/table.py)

    def __init__(self, policy: MaskableActorCriticPolicy, deterministic: bool = True, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self.deterministic = deterministic
        self._generator = torch.Generator().manual_seed(0)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._generator.manual_seed(int(seed))

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            if self.deterministic:
                return self._greedy(obs, torch.as_tensor(np.asarray(mask, dtype=bool)))
            dist = self.policy.get_distribution(obs, action_masks=np.asarray(mask, dtype=bool)[None])
            probs = dist.distribution.probs[0]
            return int(torch.multinomial(probs, 1, generator=self._generator).item())

    @property
    def acts_on_batches(self) -> bool:
        """A greedy policy's choice depends on the observation and the mask alone, so many games' decisions can
        be taken in one :meth:`act_batch` (agents/lockstep.py); a sampling one draws from its own generator."""
        return self.deterministic

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """(rows,) the action :meth:`act` would choose in each row of ``observations`` and ``masks``, greedy only.

        One forward for every row. A batch's float sums are not a single row's (the matrix product blocks them
        otherwise: logits differ by about 1e-5), so where the best two legal log-probabilities lie within
        :data:`NEAR_TIE` the row is decided again alone, by :meth:`act`'s own arithmetic: every choice is the
        one :meth:`act` makes, not only almost every one."""
        if not self.deterministic:
            raise ValueError(f"{self.name}: act_batch is for a greedy policy (this one samples)")
        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
            mask = torch.as_tensor(np.asarray(masks, dtype=bool))
            logits = self._logits(obs)
            logits = logits - logits.logsumexp(-1, keepdim=True)
            masked = torch.where(mask, logits, torch.tensor(MASKED_LOGIT, dtype=logits.dtype))
            chosen = masked.argmax(-1)
            if masked.shape[-1] > 1:
                best_two = masked.topk(2, dim=-1).values
                for row in torch.nonzero(best_two[:, 0] - best_two[:, 1] < NEAR_TIE).flatten().tolist():
                    chosen[row] = self._greedy(obs[row:row + 1].clone(), mask[row].clone())
        return chosen.numpy()

    def _logits(self, obs: torch.Tensor) -> torch.Tensor:
        """(rows, actions) the actor's logits, as ``get_distribution`` computes them."""
        policy = self.policy
        features = BasePolicy.extract_features(policy, obs, policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features))

    def _greedy(self, obs: torch.Tensor, mask: torch.Tensor) -> int:
        """``get_distribution(obs, mask).mode()`` computed the same way (normalise, mask, normalise, softmax,
        argmax) without building distribution objects, which took four times the network's own time."""
        logits = self._logits(obs)[0]
        logits = logits - logits.logsumexp(-1, keepdim=True)
        masked = torch.where(mask, logits, torch.tensor(MASKED_LOGIT, dtype=logits.dtype))
        return int(torch.softmax(masked - masked.logsumexp(-1, keepdim=True), -1).argmax().item())


def _network(net_arch: NetArch, meta: dict[str, Any], state: dict[str, torch.Tensor],
             path: str | Path) -> MaskableActorCriticPolicy:
    """A network of ``meta``'s sizes and ``net_arch`` holding ``state``, every weight strictly, for play."""
    policy = build_policy(meta["observation_size"], meta["action_size"], net_arch, initialise=False)
    fit_weights(policy, state, path)
    policy.set_training_mode(False)
    return policy


class CheckpointAgent(PolicyAgent):
    """A policy loaded from a checkpoint file: weights and metadata only, the network's size checked first.

    A general checkpoint (``meta["observation"] == "general"``, agents/checkpoint/general.py) reads its game's
    general space: :meth:`check_table` (which the registry calls with the table's game) keeps that table's
    mapping and picks the network for it (a specialist's tables are its own: agents/checkpoint/specialists.py),
    and :meth:`act` maps the observation and the mask in and the chosen action back."""

    def __init__(self, path: str | Path, deterministic: bool = True, name: str | None = None) -> None:
        meta, state, _ = load_checkpoint(path)  # bounds the network's size before it is built
        super().__init__(_network(meta["net_arch"], meta, state, path), deterministic,
                         name or f"checkpoint:{Path(path).stem}")
        self.meta, self.path = meta, Path(path)
        self.table: Table | None = None
        """A general checkpoint's mapping of the table it plays (set by :meth:`check_table`)."""
        self.networks: dict[int | None, MaskableActorCriticPolicy] = {None: self.policy, **{
            index: _network(entry["net_arch"], meta, load_specialist_state(path, index), path)
            for index, entry in enumerate(meta.get(SPECIALISTS, []))}}
        """The base network (None) and each specialist (agents/checkpoint/specialists.py), all loaded and checked
        here: a file with a bad specialist is refused before any table is played."""

    def check_table(self, game, allow_rules_mismatch: bool = False) -> None:
        """Raise CheckpointError at a table (a rams_env Game) of another game, size, layout or rules (a general
        checkpoint: of another game, or that its general space does not hold); keep a general one's mapping,
        and play the table with the network that plays it (the base, or a specialist of that table)."""
        check_table(self.meta, game, self.path, allow_rules_mismatch)
        if is_general(self.meta):
            self.table = general_table(self.meta, game, self.path)
            self.policy = self.networks[specialist_index(self.meta, game, self.path)]

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        if not is_general(self.meta):
            return super().act(observation, mask, view)
        if self.table is None:
            raise CheckpointError(self.path, "a general checkpoint plays a table once check_table(game) named it")
        chosen = super().act(self.table.obs(observation), self.table.mask(np.asarray(mask)), view)
        return int(self.table.native_actions(chosen))

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """:meth:`act` for many rows at once (agents/lockstep.py): a general checkpoint maps the whole batch in and
        out, its card-play features computed vectorised (the same values as one row's: tests/test_card_features)."""
        if not is_general(self.meta):
            return super().act_batch(observations, masks)
        if self.table is None:
            raise CheckpointError(self.path, "a general checkpoint plays a table once check_table(game) named it")
        chosen = super().act_batch(self.table.obs(observations), self.table.mask(np.asarray(masks)))
        return self.table.native_actions(chosen)
