"""``rams strength --samples`` / ``--compare-samples``: one agent's half of a comparison read back from disk must
give the comparison that plays both, and a file that cannot answer the run is refused with a one-line error."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import rams_env
from cli.strength import main
from evaluation.kept_samples import KeptSamplesError, kept_plan, load_samples
from evaluation.strength import WAYS, StrengthPlan
from evaluation.strength_plot import kept_source, png_source

TOEPEN = ["--game", "toepen", "--workers", "1", "--quiet"]


def kept_run(tmp_path, agent="heuristic:honest", deals="12", extra=()):
    """Keep ``agent``'s samples at two tables against two styles."""
    path = tmp_path / "kept.npz"
    assert main([*TOEPEN, "--agent", agent, "--opponents", "random", "heuristic:bluffer",
                 "--tables", "standard:3", "standard:4", "--deals", deals, "--samples", str(path), *extra]) == 0
    return path


def compare_json(tmp_path, name, argv):
    out = tmp_path / f"{name}.json"
    assert main([*TOEPEN, "--agent", "heuristic", "--opponents", "heuristic:bluffer", "--tables", "standard:4",
                 "--deals", "8", "--json", str(out), *argv]) == 0
    return json.loads(out.read_text())["compare"]


def test_a_kept_half_gives_the_comparison_that_plays_both(tmp_path):
    """A subset of the kept run (one table, one opponent, fewer deals) read back pairs exactly as measuring the
    baseline again: the same cells, the same differences, the same ship rule."""
    kept = kept_run(tmp_path)
    played = compare_json(tmp_path, "played", ["--compare", "heuristic:honest"])
    read = compare_json(tmp_path, "read", ["--compare-samples", str(kept)])
    assert read["difference"]["cells"] == played["difference"]["cells"]
    assert read["baseline"]["cells"] == played["baseline"]["cells"]
    assert read["ship_rule"] == played["ship_rule"]
    assert read["baseline"]["agent"].startswith("heuristic:honest (kept: kept.npz")


def test_the_file_is_plain_arrays_and_names_what_it_measured(tmp_path):
    kept = kept_run(tmp_path, agent="pretrained")
    with np.load(kept, allow_pickle=False) as data:  # no pickles anywhere
        header = json.loads(data["header"].tobytes().decode())
        assert data["table_1"].shape == (12, 2, 2)  # deals, opponents, ways
    assert header["plan"]["agent"] == "pretrained" and header["plan"]["deals"] == 12
    assert set(header["weights"]) == {"standard:3", "standard:4"}
    assert all(len(digest) == 64 for digest in header["weights"].values())  # the general agent's SHA-256
    assert kept_plan(kept) == StrengthPlan("toepen", "pretrained", ("random", "heuristic:bluffer"),
                                           (("standard", 3), ("standard", 4)), 12)


@pytest.mark.parametrize("argv, message", [
    (["--seed", "5"], "kept with seed=20261123, this run asks 5"),
    (["--random-carry"], "kept fresh deals at standard:3, this run asks carried-over ones (--carry random)"),
    (["--tables", "standard:5"], "holds no samples of standard:5"),
    (["--opponents", "heuristic:cautious"], "holds no samples of heuristic:cautious"),
    (["--deals", "13"], "holds 12 deals, this run asks 13"),
])
def test_a_file_that_does_not_cover_the_run_is_refused_in_one_line(tmp_path, capsys, argv, message):
    kept = kept_run(tmp_path)
    base = ["--agent", "heuristic", "--opponents", "random", "--tables", "standard:3", "--deals", "12"]
    capsys.readouterr()
    assert main([*TOEPEN, *base, *argv, "--compare-samples", str(kept)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_checkpoint_that_now_holds_other_weights_is_refused(tmp_path):
    agent = tmp_path / "agent.zip"
    shutil.copy("agents/pretrained/toepen_harden1.zip", agent)
    kept = kept_run(tmp_path, agent=f"checkpoint:{agent}", deals="2")
    plan = StrengthPlan("toepen", "heuristic", ("random",), (("standard", 4),), deals=2)
    assert load_samples(kept, plan).plan.agent.startswith(f"checkpoint:{agent} (kept")
    shutil.copy("agents/pretrained/toepen.zip", agent)
    with pytest.raises(KeptSamplesError, match=r"now plays other weights at standard:4"):
        load_samples(kept, plan)
    agent.unlink()
    with pytest.raises(KeptSamplesError, match=r"agent.zip: the kept agent's checkpoint is gone"):
        load_samples(kept, plan)


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    (b"not a zip", "not a samples file"),
    ("pickled", "not a samples file"),
    ("format", "samples format 99"),
    ("damaged", "damaged header or arrays"),
])
def test_a_missing_foreign_or_pickled_file_is_refused_without_unpickling(tmp_path, content, message):
    path = tmp_path / "bad.npz"
    if content == "pickled":  # an object array: loading it would unpickle
        np.savez(path, header=np.array([{"format": 1}], dtype=object))
    elif content == "format":
        np.savez(path, header=np.frombuffer(json.dumps({"format": 99}).encode(), dtype=np.uint8))
    elif content == "damaged":  # a header of this format whose plan has a field no plan has
        np.savez(path, header=np.frombuffer(json.dumps({"format": 1, "plan": {"wrong": 1}}).encode(), dtype=np.uint8))
    elif content is not None:
        path.write_bytes(content)
    plan = StrengthPlan("toepen", "heuristic", ("random",), (("standard", 4),), deals=2)
    with pytest.raises(KeptSamplesError, match=message):
        load_samples(path, plan)
    with pytest.raises(KeptSamplesError, match=message):
        kept_plan(path)


def test_a_file_whose_arrays_hold_fewer_deals_than_its_header_says_is_refused(tmp_path):
    kept = kept_run(tmp_path, deals="4")
    with np.load(kept, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["table_1"] = arrays["table_1"][:2]  # two deals cut from one table
    np.savez(tmp_path / "cut.npz", **arrays)
    plan = StrengthPlan("toepen", "heuristic", ("random",), (("standard", 3),), deals=4)
    with pytest.raises(KeptSamplesError, match=r"damaged header or arrays .*must be \(4, 2, 2\)"):
        load_samples(tmp_path / "cut.npz", plan)


@pytest.mark.parametrize("random_carry, carry", [(True, "random"), (False, "fresh")])
def test_a_format_1_file_is_read_with_its_one_carry_flag(tmp_path, random_carry, carry):
    """Files kept before 2026-12-07 named one ``random_carry`` for every table: read as ``--carry random`` or
    ``fresh``, so they pair with a gate run wherever the gate deals their tables alike."""
    kept = kept_run(tmp_path, extra=["--carry", carry])
    with np.load(kept, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    header = json.loads(arrays.pop("header").tobytes().decode())
    header["format"], header["plan"]["random_carry"] = 1, header["plan"].pop("carry") == "random"
    assert header["plan"]["random_carry"] is random_carry
    np.savez(tmp_path / "old.npz", header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8), **arrays)
    assert kept_plan(tmp_path / "old.npz") == kept_plan(kept)
    gate = StrengthPlan("toepen", "heuristic", ("random",), (("standard", 3),), deals=12)  # Toepen: fresh deals
    if random_carry:
        with pytest.raises(KeptSamplesError, match="kept carried-over deals at standard:3, this run asks fresh"):
            load_samples(tmp_path / "old.npz", gate)
    else:
        assert np.array_equal(load_samples(tmp_path / "old.npz", gate).samples[0], load_samples(kept, gate).samples[0])


def test_compare_and_compare_samples_are_one_or_the_other(capsys):
    with pytest.raises(SystemExit):
        main([*TOEPEN, "--compare", "random", "--compare-samples", "x.npz"])
    assert "not allowed with argument" in capsys.readouterr().err


KEPT_GATES = Path("docs/results/strength")
"""Where each shipped agent's gate is kept (``<game>*.npz``, read in docs/results/strength/<game>.md)."""


def kept_gates(game: str) -> list[tuple[Path, StrengthPlan]]:
    plans = [(path, kept_plan(path)) for path in sorted(KEPT_GATES.glob("*.npz"))]
    return [(path, plan) for path, plan in plans if plan.game == game]


@pytest.mark.parametrize("game", sorted(rams_env.GAMES))
def test_each_shipped_agents_kept_gate_answers_its_whole_gate(game):
    """The kept files of a game are the shipped agent's half of any comparison: together they must cover every
    table once, against every scripted style, on the gate's 400 held-out deal seeds, and still match
    agents/pretrained/<game>.zip. A new agent needs its gate kept again: the command is in
    docs/results/strength/<game>.md (`rams strength --game <game> --agent pretrained --deals 400 --samples ...`)."""
    from evaluation.strength import HELD_OUT_SEED, every_table, scripted_opponents

    kept = kept_gates(game)
    assert sorted(table for _, plan in kept for table in plan.tables) == sorted(every_table(game))
    for path, plan in kept:
        assert (plan.agent, plan.deals, plan.seed) == ("pretrained", 400, HELD_OUT_SEED)
        assert set(plan.opponents) == set(scripted_opponents(game))
        assert plan.carried() == replace(plan, carry="gate").carried()  # each table dealt as the gate deals it
        report = load_samples(path, plan)  # refused if the shipped file now holds other weights
        assert report.plan.agent.startswith(f"pretrained (kept: {path.name}")
        assert len(report.cells) == len(plan.tables) * len(plan.opponents) * len(WAYS)
        picture = path.with_suffix(".png")  # drawn from this very file (docs/results/strength/<game>.md)
        assert png_source(picture) == kept_source(path), f"draw it again: rams strength --kept {path} --plot {picture}"


def test_agent_file_reads_a_spec_as_agent_factory_does():
    """The weights a kept file names are the ones agent_factory would load: scripted agents have none."""
    from agents.registry import agent_file, pretrained_for

    game = rams_env.make_game("toepen", 4)
    assert agent_file("pretrained", game) == agent_file("pretrained,allow_rules_mismatch", game) == pretrained_for(game)
    assert agent_file("checkpoint:runs/x/final.zip", game) == agent_file("runs/x/final.zip", game) \
        == Path("runs/x/final.zip")
    assert [agent_file(spec, game) for spec in ("random", "heuristic", "heuristic:odd.zip", "py:m:f")] == [None] * 4


def test_kept_reports_a_file_as_the_run_that_kept_it(tmp_path, capsys):
    """``--kept FILE`` plays nothing: the file's cells, as the run that wrote it reported them; ``--tables`` and
    ``--opponents`` choose among its own."""
    out = tmp_path / "run.json"
    kept = kept_run(tmp_path, extra=["--json", str(out)])
    again = tmp_path / "kept.json"
    assert main(["--kept", str(kept), "--quiet", "--json", str(again)]) == 0
    ran, read = json.loads(out.read_text()), json.loads(again.read_text())
    assert read["cells"] == ran["cells"] and read["agent"].startswith("heuristic:honest (kept: kept.npz")
    cut = tmp_path / "cut.json"
    assert main(["--kept", str(kept), "--tables", "standard:4", "--opponents", "random", "--json", str(cut)]) == 0
    assert json.loads(cut.read_text())["cells"] == [c for c in ran["cells"]
                                                   if c["num_players"] == 4 and c["opponent"] == "random"]
    capsys.readouterr()
    assert main(["--kept", str(kept), "--compare", "random"]) == 2
    assert "--kept reports a kept file as it is" in capsys.readouterr().err


def test_plot_colours_each_cell_by_its_verdict(tmp_path, capsys):
    """``--plot``: a PNG of every cell, its colour the cell's verdict (above zero, level, below); with
    ``--compare`` the paired difference's."""
    from evaluation.strength_plot import verdict_grid

    kept = kept_run(tmp_path)
    report = load_samples(kept, kept_plan(kept))
    for way in range(len(WAYS)):
        grid = verdict_grid(report, way)
        assert grid.shape == (2, 2)
        for (t, o, w), cell in report.cells.items():
            if w == way:
                assert grid[t, o] == (0 if cell.low > 0 else 2 if cell.high < 0 else 1)
    assert {0, 1} <= set(verdict_grid(report, 0).ravel())  # the honest style beats random, not the bluffer
    for argv, png in ((["--kept", str(kept)], "kept.png"),
                      ([*TOEPEN, "--agent", "heuristic", "--opponents", "random", "--tables", "standard:3",
                        "--deals", "4", "--compare-samples", str(kept)], "paired.png")):
        assert main([*argv, "--plot", str(tmp_path / png)]) == 0
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"plot: {tmp_path / png}" in capsys.readouterr().out
