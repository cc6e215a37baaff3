"""Specialists (agents/checkpoint/specialists.py, ``rams compose``): a general checkpoint's further networks, each
playing only the tables it names, the base playing every other table exactly as it does alone.

Small general Tippen networks of random weights stand in for trained ones: the base and a specialist choose
differently often enough that playing the wrong network at a table shows.
"""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import rams_env  # noqa: E402
from agents.checkpoint.format import (  # noqa: E402
    MAX_SPECIALISTS,
    SPECIALISTS,
    CheckpointError,
    load_checkpoint,
    specialist_member,
)
from agents.checkpoint.general import general_meta, general_space, save_general_checkpoint  # noqa: E402
from agents.checkpoint.specialists import compose, taught_tables  # noqa: E402
from agents.checkpoint_agent import CheckpointAgent, build_policy  # noqa: E402
from agents.registry import agent_factory  # noqa: E402
from agents.table import play_episode  # noqa: E402
from tests.hostile_checkpoints import Payload, members, tensors, write  # noqa: E402

GAME = "tippen"
NET_ARCH = [16]
GRUPP_4 = {"preset": "modern_grupp", "num_players": 4}


def network_file(folder, name: str, seed: int, game: str = GAME, **extra):
    """A general checkpoint of ``game`` with random weights (``extra``: more metadata, e.g. a run's config)."""
    torch.manual_seed(seed)
    meta = general_meta(game)
    policy = build_policy(meta["observation_size"], meta["action_size"], NET_ARCH)
    return save_general_checkpoint(folder / f"{name}.zip", game, NET_ARCH, seed, policy.state_dict(), **extra)


@pytest.fixture
def parts(tmp_path):
    """(base, specialist, composite): the specialist plays modern_grupp at 4 players."""
    base, special = network_file(tmp_path, "base", 0), network_file(tmp_path, "special", 1)
    return base, special, compose(base, [(special, [GRUPP_4])], tmp_path / "composite.zip")


class Recorder:
    """Plays random legal actions and keeps every (observation, mask) it was shown."""

    reads_view = False

    def __init__(self, seed: int) -> None:
        self.rng, self.seen = np.random.default_rng(seed), []

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, mask, view) -> int:
        self.seen.append((np.array(observation), np.array(mask)))
        return int(self.rng.choice(np.flatnonzero(mask)))


def decisions(n: int, preset: str, deals: int = 4, **options) -> list[tuple[np.ndarray, np.ndarray]]:
    """Observations and masks of random play at a table."""
    env = rams_env.make(GAME, n, preset=preset, **options)
    seen = []
    for seed in range(deals):
        seats = [Recorder(seed * 10 + i) for i in range(n)]
        play_episode(env, seats, seed=seed)
        seen += [decision for seat in seats for decision in seat.seen]
    return seen


def choices(path, n: int, preset: str, seen, **options) -> list[int]:
    """What the checkpoint at ``path`` chooses at each decision of ``seen``, seated at that table."""
    agent = agent_factory(f"checkpoint:{path}", rams_env.make_game(GAME, n, preset=preset, **options))(0)
    return [agent.act(obs, mask, {}) for obs, mask in seen]


@pytest.mark.parametrize(("n", "preset", "options", "plays"), [
    (4, "modern_grupp", {}, "special"),
    (3, "modern_grupp", {}, "base"),  # a size the specialist does not list
    (4, "modern", {}, "base"),  # another preset
    (4, "modern_grupp", {"stake": 2}, "base"),  # the preset with an option changed: not the preset's rules
])
def test_the_table_decides_which_network_plays(parts, n, preset, options, plays):
    base, special, composite = parts
    seen = decisions(n, preset, **options)
    expected = {"base": choices(base, n, preset, seen, **options), "special": choices(special, n, preset, seen,
                                                                                       **options)}
    assert expected["base"] != expected["special"]  # the two networks are told apart at this table
    assert choices(composite, n, preset, seen, **options) == expected[plays]


def test_one_agent_object_follows_the_table_it_is_seated_at(parts):
    """The registry seats an agent per table; an object seated at one table and then another plays each
    table's network (the web table reseats a loaded agent)."""
    base, special, composite = parts
    agent = CheckpointAgent(composite)
    for n, preset, reference in [(4, "modern_grupp", special), (4, "modern", base), (4, "modern_grupp", special)]:
        seen = decisions(n, preset, deals=2)
        agent.check_table(rams_env.make_game(GAME, n, preset=preset))
        assert [agent.act(obs, mask, {}) for obs, mask in seen] == choices(reference, n, preset, seen)


def test_the_composite_keeps_the_base_metadata_and_how_each_specialist_was_made(tmp_path):
    config = {"warm_start": {"tables": [{"num_players": 3, "preset": "modern_sniffing"}, {"num_players": 5}]}}
    base = network_file(tmp_path, "base", 0, config={"seed": 4})
    special = network_file(tmp_path, "special", 1, config=config)
    meta, _, _ = load_checkpoint(compose(base, [(special, None)], tmp_path / "composite.zip"))
    assert meta["config"] == {"seed": 4} and meta["steps"] == 0
    (entry,) = meta[SPECIALISTS]
    assert entry["tables"] == [{"preset": "modern_sniffing", "num_players": 3},
                               {"preset": "modern", "num_players": 5}]  # no preset: the default one
    assert entry["config"] == config and entry["source"] == str(special) and entry["net_arch"] == NET_ARCH


def test_a_composite_plays_whole_deals_legally_at_every_table_size_of_the_specialist(parts):
    _, _, composite = parts
    for n in (3, 4, 5):
        env = rams_env.make(GAME, n, preset="modern_grupp")
        table = env.unwrapped.game
        agent, others = agent_factory(f"checkpoint:{composite}", table), agent_factory("random", table)
        seats = [agent(0) if i % 2 == 0 else others(i) for i in range(n)]
        assert len(play_episode(env, seats, seed=n)) == n


def specialist_of(folder, name: str, seed: int, game: str = GAME, **extra):
    return network_file(folder, name, seed, game, **extra), [GRUPP_4]


@pytest.mark.parametrize(("make", "message"), [
    (lambda f: [specialist_of(f, "other_game", 1, "toepen")], "not a general checkpoint|a toepen checkpoint"),
    (lambda f: [specialist_of(f, "a", 1), specialist_of(f, "b", 2)], "table modern_grupp:4 has two specialists"),
    (lambda f: [(network_file(f, "a", 1), [{"preset": "nope", "num_players": 4}])], "unknown preset 'nope'"),
    (lambda f: [(network_file(f, "a", 1), [{"preset": "modern_grupp", "num_players": 9}])], "9"),
    (lambda f: [(network_file(f, "a", 1), None)], "taught no list of tables"),
    (lambda f: [(network_file(f, "a", 1, config={"warm_start": {"tables": [{"num_players": 4, "rules": {
        "stake": 2}}]}}), None)], "not all a preset and a size"),
    (lambda f: [specialist_of(f, f"s{i}", i) for i in range(MAX_SPECIALISTS + 1)], "1 to 8 entries|two specialists"),
])
def test_compose_refuses_parts_that_do_not_fit_and_writes_nothing(tmp_path, make, message):
    base, out = network_file(tmp_path, "base", 0), tmp_path / "composite.zip"
    with pytest.raises(CheckpointError, match=message):
        compose(base, make(tmp_path), out)
    assert not out.exists()


def test_compose_refuses_a_table_checkpoint_and_a_composite_as_a_part(parts, tmp_path):
    from agents.registry import pretrained_path

    base, special, composite = parts
    with pytest.raises(CheckpointError, match="not a general checkpoint"):
        compose(base, [(pretrained_path(GAME, 4), [GRUPP_4])], tmp_path / "x.zip")
    with pytest.raises(CheckpointError, match="specialist"):
        compose(base, [(composite, [{"preset": "modern", "num_players": 3}])], tmp_path / "x.zip")
    assert not (tmp_path / "x.zip").exists()


def test_a_composite_base_keeps_its_specialists_bit_for_bit_and_gains_new_ones(parts, tmp_path):
    """A shipped composite gains a specialist without its others being made again: the kept one's member and entry
    are copied as they were, the new one follows it, and each table is played by its network."""
    base, special, composite = parts
    modern_3 = {"preset": "modern", "num_players": 3}
    other = network_file(tmp_path, "other", 2)
    grown = compose(composite, [(other, [modern_3])], tmp_path / "grown.zip")
    before, after = load_checkpoint(composite)[0], load_checkpoint(grown)[0]
    assert after["specialists"][0] == before["specialists"][0] and after["specialists"][1]["tables"] == [modern_3]
    with zipfile.ZipFile(composite) as old, zipfile.ZipFile(grown) as new:
        assert all(old.read(m) == new.read(m) for m in ("policy.pt", "specialist_0.pt"))
    for table, plays in ((GRUPP_4, special), (modern_3, other), ({"preset": "modern", "num_players": 4}, base)):
        n, preset = table["num_players"], table["preset"]
        seen = decisions(n, preset, deals=2)
        expected = choices(plays, n, preset, seen)
        assert choices(grown, n, preset, seen) == expected
        assert all(choices(p, n, preset, seen) != expected for p in (base, special, other) if p != plays)
    with pytest.raises(CheckpointError, match="two specialists"):
        compose(composite, [(other, [GRUPP_4])], tmp_path / "twice.zip")
    assert not (tmp_path / "twice.zip").exists()


def test_a_specialist_left_out_gives_its_tables_back_and_a_refit_can_take_them(parts, tmp_path):
    """``without``: a base specialist is left out (its tables the base's again, the others kept bit for bit), so a
    better fit of the same tables can replace it; an index the base does not have is refused, nothing written."""
    base, special, composite = parts
    modern_3 = {"preset": "modern", "num_players": 3}
    other, refit = network_file(tmp_path, "other", 2), network_file(tmp_path, "refit", 3)
    two = compose(composite, [(other, [modern_3])], tmp_path / "two.zip")
    replaced = compose(two, [(refit, [GRUPP_4])], tmp_path / "replaced.zip", without=[0])
    assert [e["tables"] for e in load_checkpoint(replaced)[0]["specialists"]] == [[modern_3], [GRUPP_4]]
    with zipfile.ZipFile(two) as old, zipfile.ZipFile(replaced) as new:
        assert old.read(specialist_member(1)) == new.read(specialist_member(0))
    seen = decisions(4, "modern_grupp", deals=2)
    assert choices(replaced, 4, "modern_grupp", seen) == choices(refit, 4, "modern_grupp", seen)
    bare = compose(two, [], tmp_path / "bare.zip", without=[0])
    assert choices(bare, 4, "modern_grupp", seen) == choices(base, 4, "modern_grupp", seen)
    for without, words in (([2], "has no specialist 2"), ([0, 0], "name one twice")):
        with pytest.raises(CheckpointError, match=words):
            compose(two, [], tmp_path / "bad.zip", without=without)
    assert not (tmp_path / "bad.zip").exists()


def rewritten(path, out, meta_change=None, drop=(), **member_changes):
    """``path`` written again with its metadata changed (a mapping merged in, the keys ``drop`` removed) and
    members replaced or removed (None)."""
    items = members(path)
    meta = {**json.loads(items["meta.json"]), **(meta_change or {})}
    items["meta.json"] = json.dumps({k: v for k, v in meta.items() if k not in drop}).encode()
    for name, data in member_changes.items():
        if data is None:
            items.pop(name)
        else:
            items[name] = data
    write(out, items)
    return out


def _weights(path, change) -> bytes:
    with zipfile.ZipFile(path) as zf:
        state = torch.load(zf.open(specialist_member(0)), weights_only=True)
    change(state)
    return tensors(state)


@pytest.mark.parametrize(("make", "message"), [
    (lambda c, o: rewritten(c, o, **{specialist_member(0): None}), r"missing \['specialist_0.pt'\]"),
    (lambda c, o: rewritten(c, o, **{specialist_member(0): tensors({"w": Payload("x")})}), "not a plain tensor"),
    (lambda c, o: rewritten(c, o, **{specialist_member(0): _weights(c, lambda s: s[next(iter(s))].fill_(
        float("nan")))}), "NaN"),
    (lambda c, o: rewritten(c, o, **{specialist_member(0): _weights(c, lambda s: s.pop(next(iter(s))))}),
     "does not fit the network"),
    (lambda c, o: rewritten(c, o, **{specialist_member(1): members(c)[specialist_member(0)]}), "unexpected members"),
    (lambda c, o: rewritten(c, o, {SPECIALISTS: []}), "1 to 8 entries"),
    (lambda c, o: rewritten(c, o, {SPECIALISTS: [{"tables": [GRUPP_4], "net_arch": [6000, 6000]}]}), "weights"),
    (lambda c, o: rewritten(c, o, {SPECIALISTS: [{"tables": ["modern_grupp:4"], "net_arch": NET_ARCH}]}),
     "must list {preset, num_players} tables"),
    (lambda c, o: rewritten(c, o, {SPECIALISTS: [{"tables": [{**GRUPP_4, "preset": "nope"}],
                                                   "net_arch": NET_ARCH}]}), "unknown preset 'nope'"),
    (lambda c, o: rewritten(c, o, drop=["observation"]), "only a general checkpoint holds specialists"),
])
def test_a_tampered_composite_is_refused_before_any_table_is_played(parts, tmp_path, make, message):
    _, _, composite = parts
    path = make(composite, tmp_path / "tampered.zip")
    with pytest.raises(CheckpointError, match=message):
        agent_factory(f"checkpoint:{path}", rams_env.make_game(GAME, 4, preset="modern"))


def test_a_fine_tune_from_a_composite_is_refused_and_a_frozen_target_plays_the_tables_network(parts):
    from training.batched.network import ActorCritic
    from training.batched.target import frozen_target, start_from

    base, special, composite = parts
    meta = general_meta(GAME)
    with pytest.raises(CheckpointError, match="specialist.*starts from one network"):
        start_from(ActorCritic(meta["observation_size"], meta["action_size"], NET_ARCH), composite)
    space, obs = general_space(GAME), torch.rand(8, meta["observation_size"])
    for preset, reference in [("modern_grupp", special), ("modern", base)]:
        game = rams_env.make_game(GAME, 4, preset=preset)
        target, alone = (frozen_target(p, space, None, game) for p in (composite, reference))
        assert torch.equal(target.logits(obs), alone.logits(obs))
        learner = ActorCritic(meta["observation_size"], meta["action_size"], NET_ARCH)
        start_from(learner, composite, game)
        assert torch.equal(learner.logits(obs), alone.net.logits(obs))


def test_taught_tables_reads_the_warm_start(tmp_path):
    path = network_file(tmp_path, "s", 0, config={"warm_start": {"tables": [{"num_players": 3,
                                                                              "preset": "loup"}]}})
    assert taught_tables(load_checkpoint(path)[0], path) == [{"preset": "loup", "num_players": 3}]


def test_rams_compose_lists_and_writes(parts, tmp_path, capsys):
    from cli.main import main

    base, special, _ = parts
    out = tmp_path / "cli.zip"
    assert main(["compose", str(base), "--specialist", f"{special}=modern_grupp:4,modern_grupp:5",
                 "--out", str(out)]) == 0
    assert f"specialist 0 (from {special}): modern_grupp:4, modern_grupp:5" in capsys.readouterr().out
    assert main(["compose", str(base)]) == 0
    listed = capsys.readouterr().out
    assert "0 specialist(s)" in listed and "base: every table" in listed
    assert main(["compose", str(out), "--without", "0", "--specialist", f"{special}=modern:3",
                 "--out", str(tmp_path / "again.zip")]) == 0
    assert f"specialist 0 (from {special}): modern:3\n  base" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "words"), [
    (["compose", "b.zip", "--specialist", "s.zip"], "--specialist needs --out"),
    (["compose", "b.zip", "--without", "0"], "--without needs --out"),
    (["compose", "b.zip", "--specialist", "s.zip=modern_grupp", "--out", "o.zip"], "<preset>:<players>"),
    (["compose", "missing.zip"], "missing.zip: cannot read it"),
])
def test_rams_compose_bad_input_is_one_line(capsys, argv, words):
    from cli.main import main

    assert main(argv) == 2
    captured = capsys.readouterr()
    assert words in captured.err and len(captured.err.strip().splitlines()) == 1
