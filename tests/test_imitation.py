"""Warm start by imitation (training/imitation.py): recorded decisions, returns, the supervised fit, the config
and the trainer's use of it (once, before PPO, never again on resume)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import rams_env  # noqa: E402
from agents.checkpoint.format import load_checkpoint  # noqa: E402
from agents.checkpoint_agent import build_policy  # noqa: E402
from agents.registry import agent_factory  # noqa: E402
from tests.test_training import TINY  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402
from training.imitation import agreement, discounted, fit, record  # noqa: E402
from training.single_seat import SingleSeatEnv  # noqa: E402


def heuristic_table(game):
    factory = agent_factory("heuristic", game)
    return lambda rng: [factory(int(rng.integers(2**31))) for _ in range(game.num_players)]


def lupfen_demonstrations(decisions: int, gamma: float = 1.0, scale: float = 1.0):
    game = rams_env.make_game("lupfen", None)
    env = SingleSeatEnv("lupfen", heuristic_table(game), reward_scale=scale)
    return game, env, record(env, agent_factory("heuristic", game)(0), decisions, gamma, seed=3, progress=False)


def same_weights(a: dict, b: dict) -> bool:
    """Two state dicts equal tensor for tensor (a fit's weights compared bit for bit)."""
    return all(torch.equal(a[k], b[k]) for k in a)


def test_discounted_returns_to_go():
    assert discounted([1.0, 0.0, 2.0], 0.5) == [1.5, 1.0, 2.0]
    assert discounted([], 0.9) == []


def replay_deals(env, teacher, seed: int, deals: int) -> list[tuple[int, float]]:
    """(decisions, summed reward) of the first ``deals`` deals, played the way ``record`` plays them."""
    obs, _ = env.reset(seed=seed)
    teacher.reset(seed)
    out, count, total = [], 0, 0.0
    while len(out) < deals:
        obs, reward, done, _, _ = env.step(teacher.act(obs, env.action_masks(), env.aec.view(env.learner)))
        count, total = count + 1, total + reward
        if done:
            out.append((count, total))
            count, total = 0, 0.0
            obs, _ = env.reset()
            teacher.reset(seed + len(out))
    return out


def test_recorded_decisions_are_legal_whole_deals_with_the_deals_payoff_as_return():
    """Undiscounted, the return of a deal's first decision is the learner's whole payoff (scaled)."""
    game, env, data = lupfen_demonstrations(600, gamma=1.0, scale=0.1)
    assert len(data) >= 600 and len(data.returns) == len(data)
    assert bool(data.masks[torch.arange(len(data)), data.actions].all())
    deals = replay_deals(env, agent_factory("heuristic", game)(0), seed=3, deals=20)
    start = 0
    for length, payoff in deals:
        assert float(data.returns[start]) == pytest.approx(payoff)
        start += length
    _, _, again = lupfen_demonstrations(600, gamma=1.0, scale=0.1)
    assert torch.equal(again.actions, data.actions) and torch.equal(again.observations, data.observations)


@pytest.mark.slow
def test_the_fit_makes_the_network_play_the_teachers_moves():
    game, _, data = lupfen_demonstrations(3600, gamma=0.99, scale=0.1)  # about 1000 real choices (scrap: asked of all)
    torch.manual_seed(0)
    policy = build_policy(game.observation.size, game.actions.size, [64, 64])
    before = agreement(policy, data)
    metrics = fit(policy, data, epochs=8, batch_size=128, learning_rate=1e-3, value_coef=0.5, progress=False)
    assert metrics["decisions"] == len(data)
    assert metrics["agreement"] > max(0.8, before + 0.3)  # held-out decisions
    assert metrics["value_loss"] < float(data.returns.var())  # the critic learned something about the returns


def test_the_fit_seed_orders_the_minibatches_whatever_drew_from_torch_before():
    """``warm_start.fit_seed`` in the SB3 warm start, as in the batched one (tests/test_batched_imitation.py): 0
    follows torch's global generator, another number gives the same fit whatever drew from it before."""
    import copy

    game, _, data = lupfen_demonstrations(300, gamma=1.0, scale=0.1)
    torch.manual_seed(0)
    start = build_policy(game.observation.size, game.actions.size, [16])

    def fitted(before: int, fit_seed: int) -> dict:
        policy = copy.deepcopy(start)
        torch.manual_seed(before)
        fit(policy, data, epochs=2, batch_size=32, learning_rate=1e-3, value_coef=0.5, progress=False,
            fit_seed=fit_seed)
        return policy.state_dict()

    assert same_weights(fitted(5, 3), fitted(6, 3)) and not same_weights(fitted(5, 3), fitted(5, 4))
    assert not same_weights(fitted(5, 0), fitted(6, 0))


@pytest.mark.parametrize(("override", "key"), [
    ("warm_start.teachr=heuristic", "teachr"),
    ("warm_start.teacher=self", "warm_start.teacher"),
    ("warm_start.teacher=grandmaster", "warm_start.teacher"),
    ("warm_start.epochs=0", "warm_start.epochs"),
    ("warm_start.learning_rate=-1", "warm_start.learning_rate"),
])
def test_bad_warm_start_settings_are_rejected_by_name(override, key):
    with pytest.raises(ConfigError, match=key):
        load_config("configs/train/lupfen.yaml", [override])


@pytest.mark.slow
def test_trainer_warm_starts_once_and_resume_does_not_repeat_it(tmp_path):
    from cli.train import main

    warm = ["warm_start.teacher=heuristic", "warm_start.decisions=500", "warm_start.epochs=2"]
    args = ["configs/train/lupfen.yaml", "--quiet", *[f"--set={s}" for s in [*TINY, *warm]],
            f"--set=out_dir={tmp_path}"]
    assert main(args) == 0
    meta, _, _ = load_checkpoint(tmp_path / "final.zip")
    assert meta["warm_start"]["decisions"] >= 500 and 0.0 <= meta["warm_start"]["agreement"] <= 1.0
    before = (tmp_path / "final.zip").read_bytes()
    assert main([*args, "--resume"]) == 0  # the budget is spent: only the final evaluation runs again
    meta_again, _, _ = load_checkpoint(tmp_path / "final.zip")
    assert meta_again["warm_start"] == meta["warm_start"] and meta_again["steps"] == meta["steps"]
    assert before != b""


def test_the_teacher_is_reset_before_every_deal():
    """The Agent protocol: reset() opens each episode (a teacher may keep per-deal memory or a generator)."""
    game = rams_env.make_game("lupfen", None)
    teacher = agent_factory("heuristic", game)(0)
    seeds = []
    original = teacher.reset
    teacher.reset = lambda seed=None: (seeds.append(seed), original(seed))
    env = SingleSeatEnv("lupfen", heuristic_table(game))
    data = record(env, teacher, 50, gamma=1.0, seed=7, progress=False)
    deals = len(seeds) - 1  # the last reset opens a deal that is never played
    assert seeds == [7 + i for i in range(deals + 1)] and 1 < deals <= len(data)
