"""General checkpoints (agents/checkpoint/general.py): one network plays every table size and preset of its game.

A general checkpoint is built here from a small network of the general sizes; it must play only legal actions
at tables of any size and any action count (through the registry, ``rams evaluate`` and the deal loop), be
refused at another game or with a layout that is not its game's, and leave table checkpoints as they were.
"""

from __future__ import annotations

import json
import shutil
import zipfile

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import rams_env  # noqa: E402
from agents.checkpoint.format import CheckpointError, load_checkpoint, parameter_count, save_checkpoint  # noqa: E402
from agents.checkpoint.general import (  # noqa: E402
    general_meta,
    general_space,
    layout_fingerprint,
    save_general_checkpoint,
)
from agents.checkpoint_agent import CheckpointAgent, build_policy  # noqa: E402
from agents.registry import AgentSpecError, agent_factory, pretrained_path  # noqa: E402
from agents.table import play_episode  # noqa: E402
from rams_env.core.general import preset_tables  # noqa: E402

NET_ARCH = [16]


def general_checkpoint(folder, game: str, seed: int = 0, **meta_changes):
    """A general checkpoint of ``game`` with random weights (``meta_changes`` overwrite its metadata)."""
    torch.manual_seed(seed)
    sizes = {**general_meta(game), **meta_changes}
    policy = build_policy(sizes["observation_size"], sizes["action_size"], NET_ARCH)
    path = save_general_checkpoint(folder / f"{game}.zip", game, NET_ARCH, 0, policy.state_dict())
    if meta_changes:  # rewrite meta.json as a hostile writer would
        with zipfile.ZipFile(path) as zf:
            meta, weights = json.loads(zf.read("meta.json")), zf.read("policy.pt")
        meta.update(meta_changes)
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("meta.json", json.dumps(meta))
            zf.writestr("policy.pt", weights)
    weights = parameter_count(sizes["observation_size"], sizes["action_size"], NET_ARCH)
    assert weights == sum(p.numel() for p in policy.parameters())
    return path


def play_legally(spec: str, game: str, n: int | None, preset: str | None = None, deals: int = 2) -> None:
    """Deals with the agent of ``spec`` in every other seat (the deal loop raises on any illegal action)."""
    env = rams_env.make(game, n, preset=preset)
    table = env.unwrapped.game
    agent, others = agent_factory(spec, table), agent_factory("random", table)
    for seed in range(deals):
        seats = [agent(seed) if i % 2 == 0 else others(seed + i) for i in range(table.num_players)]
        assert len(play_episode(env, seats, seed=seed)) == table.num_players


@pytest.mark.parametrize("n", [3, 4, 8])
def test_a_general_toepen_checkpoint_plays_every_table_size(tmp_path, n):
    play_legally(f"checkpoint:{general_checkpoint(tmp_path, 'toepen')}", "toepen", n)


@pytest.mark.parametrize(("preset", "n"), [("modern", 4), ("meyers_1905_large", 7), ("loup", 3)])
def test_a_general_tippen_checkpoint_plays_presets_of_other_action_counts(tmp_path, preset, n):
    assert rams_env.make_game("tippen", n, preset=preset).actions.size in (74, 114)
    play_legally(f"checkpoint:{general_checkpoint(tmp_path, 'tippen')}", "tippen", n, preset)


def test_the_agent_maps_observation_mask_and_action(tmp_path):
    """What the general agent chooses is its network's choice on the mapped observation, mapped back."""
    game = rams_env.make_game("tippen", 5, preset="meyers_1905_large")
    table = general_space("tippen").table(game)
    state = game.new_state(np.random.default_rng(0), None)
    obs = np.zeros(game.observation.size, dtype=np.float32)
    game.encode(state, state.to_act, obs)
    mask = np.zeros(game.actions.size, dtype=np.int8)
    mask[game.legal_actions(state)] = 1
    for seed in range(5):
        agent = CheckpointAgent(general_checkpoint(tmp_path, "tippen", seed))
        agent.check_table(game)
        policy = agent.policy
        with torch.no_grad():
            features = torch.as_tensor(table.obs(obs))[None]
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
        logits[~torch.as_tensor(table.mask(mask))] = -torch.inf
        expected = int(table.native_of_action[int(logits.argmax())])
        assert agent.act(obs, mask, {}) == expected and mask[expected]


def test_rams_evaluate_plays_a_general_checkpoint_at_three_players(tmp_path, capsys):
    from cli.main import main

    path = general_checkpoint(tmp_path, "toepen")
    argv = ["evaluate", "--game", "toepen", "--players", "3", "--agents", f"checkpoint:{path}", "random",
            "--deals", "2", "--workers", "1", "--bootstrap", "10", "--quiet"]
    assert main(argv) == 0
    assert "toepen" in capsys.readouterr().out


def test_pretrained_prefers_the_general_agent_at_any_table(tmp_path, monkeypatch):
    import agents.registry as registry

    monkeypatch.setattr(registry, "PRETRAINED_DIR", tmp_path)
    table = rams_env.make_game("toepen", 5)
    with pytest.raises(AgentSpecError, match="no pretrained agent for toepen with 5 players.*toepen.zip"):
        agent_factory("pretrained", table)
    general_checkpoint(tmp_path, "toepen")
    assert registry.pretrained_for(table) == tmp_path / "toepen.zip"
    play_legally("pretrained", "toepen", 5, deals=1)
    play_legally("pretrained", "toepen", 4, "any_time", deals=1)


def test_table_checkpoints_still_resolve_and_refuse_other_tables(tmp_path, monkeypatch):
    """Without a general agent, ``pretrained`` is the 4-player checkpoint at its table, refused elsewhere."""
    import agents.registry as registry

    shipped = pretrained_path("toepen", 4)
    monkeypatch.setattr(registry, "PRETRAINED_DIR", tmp_path)
    shutil.copy(shipped, tmp_path / shipped.name)
    play_legally("pretrained", "toepen", 4, deals=1)
    with pytest.raises(AgentSpecError, match="no pretrained agent for toepen with 3 players"):
        agent_factory("pretrained", rams_env.make_game("toepen", 3))


@pytest.mark.parametrize("game", list(rams_env.GAMES))
def test_a_shipped_general_agent_plays_every_table_size_and_preset(game):
    """``pretrained`` is the shipped general agent at the smallest and largest table of every preset."""
    if not pretrained_path(game).exists():
        pytest.skip(f"no general agent shipped for {game}")
    tables = preset_tables(game)
    for preset in dict.fromkeys(name for name, _ in tables):
        sizes = [table.num_players for name, table in tables if name == preset]
        for players in {min(sizes), max(sizes)}:
            play_legally("pretrained", game, players, preset, deals=1)


@pytest.mark.parametrize(("change", "message"), [
    ({"observation_size": 700}, "observation_size 700 .*another general layout"),
    ({"action_size": 41}, "action_size 41"),
    ({"general_layout": "0123456789abcdef"}, "general_layout '0123456789abcdef'"),
])
def test_a_general_checkpoint_of_another_layout_is_refused(tmp_path, change, message):
    path = general_checkpoint(tmp_path, "toepen", **change)
    with pytest.raises(CheckpointError, match=message):
        agent_factory(f"checkpoint:{path}", rams_env.make_game("toepen", 4))


def test_a_general_checkpoint_is_refused_at_another_game_and_a_strange_observation_at_load(tmp_path):
    path = general_checkpoint(tmp_path, "toepen")
    with pytest.raises(CheckpointError, match="trained for toepen, this table plays tippen"):
        agent_factory(f"checkpoint:{path}", rams_env.make_game("tippen", 4))
    strange = general_checkpoint(tmp_path, "toepen", observation="everything")
    with pytest.raises(CheckpointError, match="observation must be 'general' or absent, not 'everything'"):
        load_checkpoint(strange)


def test_a_general_checkpoint_plays_nowhere_before_its_table_is_named(tmp_path):
    agent = CheckpointAgent(general_checkpoint(tmp_path, "toepen"))
    with pytest.raises(CheckpointError, match="once check_table"):
        agent.act(np.zeros(428, dtype=np.float32), np.ones(42, dtype=np.int8), {})


def legacy_checkpoint(folder, game: str):
    """A general checkpoint of ``game`` as written before the card-play features: the layout without them, a
    first layer that reads only the older inputs."""
    space = general_space(game)
    old = space.obs_size - space.card_features.size
    torch.manual_seed(3)
    policy = build_policy(old, space.num_actions, NET_ARCH)
    meta = {**general_meta(game), "observation_size": old,
            "general_layout": layout_fingerprint(space, card_features=False), "net_arch": NET_ARCH, "steps": 0}
    return save_checkpoint(folder / f"{game}_legacy.zip", meta, policy.state_dict(),
                           optimizer_state=torch.optim.Adam(policy.parameters()).state_dict()), policy


def heads(policy, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The policy's action logits and state values."""
    with torch.no_grad():
        latent_pi, latent_vf = policy.mlp_extractor(obs)
        return policy.action_net(latent_pi), policy.value_net(latent_vf)


@pytest.mark.parametrize("game", list(rams_env.GAMES))
def test_a_checkpoint_from_before_the_card_features_plays_exactly_as_before(tmp_path, game):
    """Loaded, it reads today's layout; its logits on any observation are the old network's on the older
    inputs, whatever the card-play features say, and it plays legally."""
    path, old = legacy_checkpoint(tmp_path, game)
    meta, state, _ = load_checkpoint(path)
    space = general_space(game)
    assert meta["observation_size"] == space.obs_size and meta["upgraded_from_layout"]
    new = build_policy(space.obs_size, space.num_actions, NET_ARCH)
    new.load_state_dict(state)
    obs = torch.rand(16, space.obs_size)
    start = space.card_features.start
    for got, before in zip(heads(new, obs), heads(old, obs[:, :start]), strict=True):
        np.testing.assert_allclose(got.numpy(), before.numpy(), rtol=0, atol=1e-6)
    play_legally(f"checkpoint:{path}", game, None, deals=1)


def test_a_run_from_before_the_card_features_is_not_resumed(tmp_path):
    path, _ = legacy_checkpoint(tmp_path, "tippen")
    with pytest.raises(CheckpointError, match="not resumed across layouts.*batched.init_from"):
        load_checkpoint(path, with_optimizer=True)


def test_a_legacy_layout_with_a_first_layer_of_another_width_is_refused(tmp_path):
    path, _ = legacy_checkpoint(tmp_path, "toepen")
    with zipfile.ZipFile(path) as zf:
        meta = json.loads(zf.read("meta.json"))
    space = general_space("toepen")
    meta["observation_size"] = space.obs_size - space.card_features.size
    state = {k: v for k, v in load_checkpoint(path)[1].items()}
    state["mlp_extractor.policy_net.0.weight"] = torch.zeros(NET_ARCH[0], 5)
    bad = save_checkpoint(tmp_path / "bad.zip", meta, state)
    with pytest.raises(CheckpointError):
        load_checkpoint(bad)
