"""The ``rams`` command: help, unknown commands, the demo, and what a new user meets: fast help, one-line
errors, consistent options and units, the bluff table, ``rams play``'s primer, refusals and reports."""

from __future__ import annotations

import fnmatch
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli.main import COMMANDS, main, version


def test_help_lists_the_commands(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "train" in out and "demo" in out


def test_unknown_command_is_named(capsys):
    assert main(["fly"]) == 2
    assert "fly" in capsys.readouterr().err


def test_demo_plays_deals_of_every_game(capsys):
    import rams_env

    for game in rams_env.GAMES:
        assert main(["demo", "--game", game, "--deals", "20", "--show", "1"]) == 0
        assert f"{game} (" in capsys.readouterr().out


# ------------------------------------------------------------------------------ what a new user meets
HEAVY = ("torch", "stable_baselines3", "sb3_contrib", "matplotlib")
ROOT = Path(__file__).resolve().parent.parent


def heavy_imports_of(argv: list[str]) -> tuple[int, list[str]]:
    """Exit code of ``rams <argv>`` in a fresh interpreter, and which heavy libraries it imported."""
    code = ("import sys; from cli.main import main; rc = main(sys.argv[1:]); "
            f"import json; print(rc, json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)
    rc, modules = done.stdout.strip().splitlines()[-1].split(" ", 1)
    return int(rc), json.loads(modules)


@pytest.mark.parametrize("argv, rc", [
    (["--help"], 0),
    (["train", "--help"], 0),
    (["exploit", "--help"], 0),
    (["train", "configs/train/toepen.yaml", "--set", "ppo.learnin_rate=1e-4"], 2),  # a config typo
    (["exploit", "random"], 2),
    (["departures", "--help"], 0),
    (["departures", "--game", "tippen", "--table", "loup:9"], 2),
    (["compose", "--help"], 0),
    (["compose", "base.zip", "--specialist", "tap.zip"], 2),  # no --out
])
def test_help_and_config_errors_do_not_import_torch(argv, rc):
    assert heavy_imports_of(argv) == (rc, [])


def one_error_line(capsys, argv: list[str], prog: str) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and lines[0].startswith(f"{prog}: error: "), captured.err
    return lines[0]


@pytest.mark.parametrize("argv, words", [
    (["demo", "--players", "9"], "num_players=9"),
    (["demo", "--preset", "nope"], "unknown preset 'nope'"),
    (["demo", "--deals", "0"], "--deals must be at least 1, got 0"),
    (["demo", "--bogus"], "unrecognized arguments: --bogus"),
    (["evaluate", "--rules", "lives=[", "--quiet"], "--rules 'lives=[': malformed YAML"),
    (["evaluate", "--agents", "random", "heuristic:/nonexistent.yaml", "--quiet"], "nonexistent.yaml"),
    (["play", "toepen", "--rules", "lives=["], "malformed YAML"),
    (["bluff", "random", "--samples", "0", "--quiet"], "samples=0"),
    (["bluff", "random", "--workers", "0"], "--workers must be at least 1"),
    (["baselines", "--out", "/etc/hostname/b.md"], "is a file, not a folder"),
    (["exploit", "random"], "--game is needed"),
    (["train", "--set", "ppo.learnin_rate=1"], "unknown key 'learnin_rate'"),
    (["demo", "--seed", "-5"], "--seed must be at least 0"),  # numpy's seeding would raise deep inside
    (["play", "toepen", "--seed", "-1"], "--seed -1"),
    (["exploit", "random", "--game", "toepen", "--seed", "-1"], "--seed must be at least 0"),
    (["baselines", "--env-seconds", "0"], "--env-seconds must be above 0"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    assert words in one_error_line(capsys, argv, f"rams {argv[0]}")


def test_a_malformed_yaml_config_is_named_with_its_line(capsys, tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("game: toepen\nppo: {learning_rate: 1e-4\n")
    line = one_error_line(capsys, ["train", str(config)], "rams train")
    assert f"{config}: malformed YAML: " in line and "line 3, column 1" in line


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"rams {version()}\n" and version()[0].isdigit()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_texts_show_no_markup(capsys, name):
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: rams {name}") and "``" not in out


def test_old_option_spellings_still_work_but_are_not_advertised(capsys):
    from cli.bluff import parser as bluff_parser
    from cli.evaluate import build_parser

    assert bluff_parser().parse_args(["random", "--no-progress"]).quiet
    assert build_parser().parse_args(["--plot", "x"]).plots == "x"
    assert main(["evaluate", "--help"]) == 0 and main(["bluff", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--plots" in out and "--plot " not in out and "--no-progress" not in out and "--quiet" in out


def test_bluff_help_glob_matches_the_snapshots_a_run_writes():
    import cli.bluff
    from training.config import load_config
    from training.pool import SNAPSHOT_DIR

    glob = re.search(r'"checkpoint:(\S+)"', cli.bluff.__doc__).group(1)
    out_dir = load_config("configs/train/toepen.yaml").out_dir
    assert fnmatch.fnmatch(f"{out_dir}/{SNAPSHOT_DIR}/snapshot_{61440:09d}.zip", glob)


def test_evaluate_headline_and_bar_count_games_and_name_the_unit(capsys):
    from evaluation.tournament import GAMES_PER_CHUNK, chunks

    assert main(["evaluate", "--players", "3", "--agents", "random", "random", "--deals", "3", "--workers", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "= 18 games" in out and "games/s" in out and "deals/s" not in out and "scores in lives" in out
    assert "payoff/deal (lives)" in out
    assert max(b - a for a, b in chunks(500, 2, games_per_deal=48)) * 48 <= GAMES_PER_CHUNK + 48


def test_bluff_console_fits_the_width_and_quotes_the_documented_rate():
    from evaluation.bluff import Study, Thresholds, run_study
    from evaluation.bluff.report import build, console, fmt_rate

    doc = build(run_study(Study(("random", "heuristic:bluffer"), deals=6, samples=2), progress=False), Thresholds())
    text = console(doc, width=80)
    assert max(map(len, text.splitlines())) <= 80 and "lives" in text
    weak = fmt_rate(doc["agents"]["heuristic:bluffer"]["dirty"]["self_false_claim_rate"])
    assert re.search(r"^false dirty \(weak hands\) +\S+ \[[\d.,]+\] +" + re.escape(weak) + "$", text, re.M), text


def test_rules_describe_reads_as_key_value():
    import rams_env

    assert rams_env.make_game("toepen").rules.describe() == "reference rules"
    assert rams_env.make_game("toepen", lives=5).rules.describe() == "lives=5"


# ------------------------------------------------------------------------------ rams play
def test_an_illegal_card_is_refused_with_the_reason():
    import rams_env
    from agents.human import HumanAgent

    env = rams_env.make("toepen", 4, dirty_hands=False, announcements=False)
    env.reset(seed=0, options={"deal": {"hands": [h.split() for h in ("7h Ah 8c 9c", "8h Kc Jc Qc", "9h 10h Jh Qh",
                                                                      "Kh 7s 8s 9s")]}, "dealer": 3})
    raw = env.unwrapped
    env.step(raw.action_id("7h"))  # player_0 leads hearts; player_1 holds 8h and must follow
    out = io.StringIO()
    human = HumanAgent(raw.game, io.StringIO("Kc\n8h\n"), out)
    obs = raw.observe(raw.agent_selection)
    assert raw.action_label(human.act(obs["observation"], obs["action_mask"], raw.view("player_1"))) == "8h"
    assert "Kc is not allowed: 7h was led and you must follow suit with your hearts (you may play 8h)" in out.getvalue()


def test_the_primer_explains_every_choice_of_the_game():
    import rams_env
    from agents.human import primer

    for name in rams_env.GAMES:
        game = rams_env.make_game(name)
        text = primer(game)
        assert f"scores count {game.score_unit}" in " ".join(text.split())
        assert all(segment.doc in text for segment in game.actions.segments)


def session(argv: list[str], typed: str) -> str:
    from cli.play import main as play_main

    out = io.StringIO()
    assert play_main(argv, stdin=io.StringIO(typed), stdout=out) == 0
    return out.getvalue()


def test_a_deal_ends_with_its_last_trick():
    text = session(["toepen", "--seed", "3", "--deals", "1", "--opponents", "random"], "1\n" * 200)
    lines = [line for line in text.splitlines() if line.startswith("Last trick: ")]
    assert len(lines) == 1 and re.fullmatch(r"Last trick: (player_\d \S+, )+player_\d \S+ -> player_\d .+", lines[0])


def test_quit_totals_leave_out_the_unfinished_deal():
    text = session(["tippen", "--seed", "1", "--opponents", "random"], "quit\n")  # at the first prompt of deal 1
    totals = [int(t) for t in re.findall(r"total +([+-]\d+)", text.split("=== You quit")[1])]
    assert totals == [0, 0, 0, 0] and "0 complete deal(s)" in text
    assert "preset" not in text.splitlines()[0] and "{" not in text.splitlines()[0]


def test_train_explains_steps_rounded_up_to_whole_rollouts():
    from training.config import load_config
    from training.train import budget

    config = load_config("configs/train/toepen.yaml")
    rollout = config.ppo.n_steps * config.n_envs
    assert config.total_timesteps == 60000 and budget(config) == 61440 and budget(config) % rollout == 0
    assert np.all([budget(load_config(None, [f"total_timesteps={n}"])) >= n for n in (1, 2048, 2049)])


@pytest.mark.parametrize("argv, carried", [
    (["--game", "lupfen"], True),  # a fresh Lupfen deal is a force round: the gate's deals start from a carried pot
    (["--game", "lupfen", "--carry", "fresh"], False),
    (["--game", "lupfen", "--episode", "session"], False),  # a whole session's first deal belongs to it
    (["--game", "fipsen", "--preset", "thedinghausen"], True),  # inside a race
    (["--game", "fipsen"], False),
    (["--game", "toepen"], False),
    (["--game", "toepen", "--random-carry"], True),
    (["--game", "toepen", "--carry", "random"], True),
])
def test_evaluate_starts_deals_where_the_strength_gate_does(argv, carried):
    from cli.evaluate import build_parser, plan_from

    assert plan_from(build_parser().parse_args(argv)).setting.random_carry is carried


def test_the_baselines_start_each_presets_deals_as_the_gate_does():
    from evaluation.baselines import preset_plans

    carried = {(p.setting.game, p.setting.preset): p.setting.random_carry
               for p in preset_plans(["lupfen", "fipsen", "toepen"], deals=2, seed=0)}
    assert {key for key, value in carried.items() if value} == \
        {key for key in carried if key[0] == "lupfen"} | {("fipsen", "thedinghausen")}
