"""The duplicate-deal evaluator: honest intervals, seat-fair schemes, determinism, ratings, the CLI."""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import replace

import numpy as np
import pytest

import rams_env
from agents.registry import AgentSpecError, agent_factory
from agents.table import play_episode
from cli.baselines import main as baselines_main
from cli.evaluate import main as evaluate_main
from evaluation.duplicate import duplicate_match, estimate, format_table, t_quantile
from evaluation.ratings import ELO, bradley_terry, fit_ratings
from evaluation.report import summarize
from evaluation.tournament import Plan, Setting, play_deal, run_tournament, seatings
from evaluation.workers import run_tasks
from rams_env.core.cards import card
from rams_env.games.toepen.game import RANKS


class Calm:
    """Test-only Toepen player with a known edge over random: it never knocks, claims a dirty hand,
    challenges or folds (random play loses lives on each of these), ducks with its lowest card
    and keeps its highest for the last trick, which decides the deal."""

    def __init__(self, game, name: str = "calm") -> None:
        self.game, self.name = game, name

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation, mask, view) -> int:
        labels = {self.game.actions.label(int(a)): int(a) for a in np.flatnonzero(mask)}
        for word in ("keep", "accept", "silent", "pass", "stay"):
            if word in labels:
                return labels[word]
        cards = sorted((label for label in labels if label != "knock"), key=lambda c: RANKS.strength(card(c)))
        return labels[cards[-1] if len(view["hand"]) == 1 else cards[0]]


def calm(game):
    """``py:tests.test_evaluation:calm``: importable, so spawned workers can build it too."""
    return lambda seed: Calm(game)


CALM = "py:tests.test_evaluation:calm"


# ------------------------------------------------------------------------------------------ statistics
def test_t_quantile_matches_students_t():
    for df, expected in [(1, 12.7062), (4, 2.7764), (5, 2.5706), (10, 2.2281), (29, 2.0452), (1000, 1.9623)]:
        assert t_quantile(df) == pytest.approx(expected, abs=5e-4)


def test_estimate_is_the_t_interval():
    e = estimate([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and e.n == 4
    assert e.ci95 == pytest.approx(3.182446 * math.sqrt(5 / 3) / 2, rel=1e-6)
    assert e.excludes_zero() and not estimate([-1.0, 2.0, 0.5]).excludes_zero()


# ------------------------------------------------------------------------------------------ the scheme
@pytest.mark.parametrize("n, count", [(2, 2), (3, 6), (4, 8), (5, 10)])
def test_seatings_give_both_agents_every_seat_equally(n, count):
    patterns = seatings(n)
    assert len(patterns) == count == len(set(patterns))
    for seat in range(n):
        assert sum(p[seat] for p in patterns) == count // 2  # the pair's first agent holds each seat half the time
    assert all(0 < sum(p) < n for p in patterns)


@pytest.mark.parametrize("game", ["toepen", "lupfen"])
@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_play_deal_pays_what_the_environment_pays(game, spec):
    """The evaluator drives the Game directly (and skips the encodings an agent does not read): same deal,
    same actions, same payoffs as the AEC environment with full observations."""
    env = rams_env.make(game, 3)
    make = agent_factory(spec, env.unwrapped.game)
    for seed in range(4):
        direct = [make(seed * 1009 + i) for i in range(3)]
        scores, decisions = play_deal(env.unwrapped.game, direct, seed)
        assert decisions > 0
        assert aec_rewards(env, [make(seed * 1009 + i) for i in range(3)], seed) == scores
        assert play_episode(env, [make(None) for _ in range(3)], seed=seed) == scores  # reseeds seat i likewise


def aec_rewards(env, agents, seed: int) -> list[float]:
    """Each seat's summed reward over one episode stepped through the AEC API, full observations."""
    env.reset(seed=seed)
    raw, totals = env.unwrapped, [0.0] * len(agents)
    for name in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        seat = raw.possible_agents.index(name)
        totals[seat] += reward
        action = None if term or trunc else agents[seat].act(obs["observation"], obs["action_mask"], raw.view(name))
        env.step(action)
    return totals


def test_unknown_py_agent_is_a_spec_error():
    with pytest.raises(AgentSpecError, match="nowhere"):
        agent_factory("py:tests.test_evaluation:nowhere", rams_env.make_game("toepen", 3))


# ------------------------------------------------------------------------------------------ honesty
@pytest.mark.slow
def test_interval_covers_zero_for_an_agent_against_itself_about_95_percent_of_the_time():
    """200 independent tournaments of random vs random (30 deal seeds each: consecutive blocks of one
    long run, whose deal seeds are independent) on 3-player Lupfen. The true advantage is 0;
    coverage should be 95%, with a binomial sd of 1.5% over 200 intervals: accept 90-99%."""
    plan = Plan(Setting("lupfen", 3), ("random", "random"), deals=200 * 30, seed=2026)
    advantage = run_tournament(plan, progress=False).advantage[:, 0]
    assert np.std(advantage) > 0.5  # two different random streams: the advantage does vary
    intervals = [estimate(advantage[k:k + 30]) for k in range(0, len(advantage), 30)]
    coverage = np.mean([e.low <= 0.0 <= e.high for e in intervals])
    assert 0.90 <= coverage <= 0.99, coverage


def test_a_clearly_better_agent_gets_a_significant_advantage_and_rating():
    t = run_tournament(Plan(Setting("toepen", 4), (CALM, "random"), deals=40, seed=3), progress=False)
    summary = summarize(t, bootstrap=50)
    edge = summary["matrix"][0][1]
    assert edge["low"] > 0, edge
    calm_rating = summary["ratings"]["agents"][0]
    assert summary["ratings"]["agents"][1]["rating"] == 0.0  # random is the anchor
    assert calm_rating["low"] > 0


# ------------------------------------------------------------------------------------------ determinism
def test_same_plan_same_numbers_whatever_the_workers():
    plan = Plan(Setting("toepen", 3), ("random", CALM, "heuristic"), deals=10, seed=11)
    one = run_tournament(plan, workers=1, progress=False)
    two = run_tournament(plan, workers=2, progress=False, chunk=3)
    again = run_tournament(plan, workers=1, progress=False, chunk=4)
    for other in (two, again):
        assert np.array_equal(one.advantage, other.advantage)
        assert np.array_equal(one.payoff, other.payoff)
        assert (one.games, one.decisions) == (other.games, other.decisions)
    assert summarize(one, 30)["ratings"] == summarize(two, 30)["ratings"]
    other_seed = run_tournament(Plan(plan.setting, plan.agents, plan.deals, seed=12), progress=False)
    assert not np.array_equal(one.advantage, other_seed.advantage)


def test_summary_matrix_is_antisymmetric_and_field_matches_two_agents():
    t = run_tournament(Plan(Setting("toepen", 3), (CALM, "random"), deals=8, seed=5), progress=False)
    s = summarize(t, bootstrap=10)
    assert s["matrix"][0][1]["mean"] == pytest.approx(-s["matrix"][1][0]["mean"])
    assert s["matrix"][0][1]["mean"] == pytest.approx(float(np.mean(t.advantage[:, 0])))
    assert s["field"][0]["mean"] == pytest.approx(s["matrix"][0][1]["mean"])
    assert s["games"] == 8 * 6 and s["session_win_rate"] is None


def test_session_episodes_report_win_rates():
    setting = Setting("toepen", 3, rules=(("lives", 3),), episode="session")
    s = summarize(run_tournament(Plan(setting, (CALM, "random"), deals=6, seed=1), progress=False), bootstrap=0)
    rates = [r["mean"] for r in s["session_win_rate"]]
    assert all(0.0 <= r <= 1.0 for r in rates)
    assert s["ratings"]["agents"][0]["low"] is None  # no bootstrap, no interval


# ------------------------------------------------------------------------------------------ ratings
def test_bradley_terry_two_agents_closed_form():
    ratings, se = bradley_terry(np.array([[0, 30], [10, 0]]), anchor=1)
    assert ratings[1] == 0.0
    assert ratings[0] == pytest.approx(ELO * math.log(30.5 / 10.5))  # one virtual draw: half a win each way
    assert se[0] == pytest.approx(ELO * math.sqrt(1 / 30.5 + 1 / 10.5))


def test_bradley_terry_recovers_a_known_ordering():
    truth = np.array([0.0, 250.0, -150.0, 500.0, 100.0])
    rng = np.random.default_rng(0)
    wins = np.zeros((5, 5))
    for i in range(5):
        for j in range(i + 1, 5):
            p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            wins[i, j] = rng.binomial(400, p)
            wins[j, i] = 400 - wins[i, j]
    ratings, se = bradley_terry(wins, anchor=0)
    assert list(np.argsort(ratings)) == list(np.argsort(truth))
    assert np.all(np.abs(ratings - truth) <= 3.5 * np.maximum(se, 1e-9))


def test_bradley_terry_needs_connected_comparisons():
    wins = np.zeros((3, 3))
    wins[0, 1] = 5
    with pytest.raises(ValueError, match="connect"):
        bradley_terry(wins)


def test_bootstrap_ratings_are_seeded():
    adv = np.random.default_rng(1).normal(0.2, 1.0, size=(60, 1))
    a, b = (fit_ratings(["x", "random"], adv, [(0, 1)], seed=4, bootstrap=40) for _ in range(2))
    assert a == b and a.rating[1] == 0.0 and a.low[0] < a.rating[0] < a.high[0]
    sweep = fit_ratings(["x", "random"], np.ones((20, 1)), [(0, 1)], seed=4, bootstrap=40)  # x won every deal
    assert sweep.low[0] < sweep.rating[0] - 100 and sweep.high[0] > sweep.rating[0] + 100  # no collapsed interval


# ------------------------------------------------------------------------------------------ CLI
def test_help_explains(capsys):
    with pytest.raises(SystemExit) as exit_:
        evaluate_main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "rams evaluate" in out and "duplicate-deal" in out and "--workers" in out


@pytest.mark.parametrize("argv, words", [
    (["--agents", "random", "wizard"], ["unknown agent", "wizard"]),
    (["--agents", "random", "random", "--rules", "lifes=3"], ["lifes"]),
    (["--agents", "random", "random", "--rules", "oops"], ["oops", "key=value"]),
    (["--agents", "random"], ["at least two agents"]),
    (["--agents", "random", "random", "--deals", "0"], ["--deals"]),
])
def test_bad_input_exits_2_with_a_clear_message(capsys, argv, words):
    assert evaluate_main([*argv, "--quiet", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert all(w in err for w in words), err


def test_cli_writes_json_markdown_and_plots(tmp_path, capsys):
    out = tmp_path / "out.json"
    md = tmp_path / "out.md"
    argv = ["--game", "toepen", "--players", "3", "--agents", CALM, "random", "random", "--deals", "6", "--seed", "2",
            "--workers", "1", "--quiet", "--bootstrap", "20", "--json", str(out), "--markdown", str(md),
            "--plot", str(tmp_path / "plots")]
    assert evaluate_main(argv) == 0
    printed = capsys.readouterr().out
    assert "pairwise" in printed and "random#2" in printed
    data = json.loads(out.read_text())
    assert data["agents"] == [CALM, "random", "random#2"] and data["games"] == 6 * 3 * 6
    assert len(data["matrix"]) == 3 and data["matrix"][1][1] is None
    assert "| row vs column |" in md.read_text()
    for name in ("matrix.png", "ratings.png"):
        assert (tmp_path / "plots" / name).read_bytes()[:4] == b"\x89PNG"


def test_baselines_writes_every_table(tmp_path, capsys):
    out = tmp_path / "baselines.md"
    argv = ["--games", "toepen", "--deals", "2", "--rating-deals", "2", "--throughput-deals", "2", "--env-seconds",
            "0.1", "--workers", "1", "--out", str(out)]
    assert baselines_main(argv) == 0
    text = out.read_text()
    assert "`rams baselines --deals 2 --rating-deals 2 --throughput-deals 2 --seed 0 --games toepen`" in text
    presets = rams_env.make_game("toepen").rules_type.preset_names()
    assert all(f"| toepen | {p} | 4 |" in text for p in presets)
    assert "| heuristic:bluffer |" in text and "| evaluation heuristic vs random |" in text
    assert baselines_main(["--deals", "1", "--out", str(out)]) == 2


# ------------------------------------------------------------------------------------------ trainer API
def test_duplicate_match_of_an_agent_object_against_a_baseline():
    result = duplicate_match("toepen", 3, {}, Calm(rams_env.make_game("toepen", 3)), "random", deals=4, seed=1)
    assert result.deals == 4 and math.isfinite(result.ci95)
    assert result.mean == pytest.approx(result.payoff - result.reference)
    assert "random" in format_table([result], "title")


@pytest.mark.parametrize("candidate", ["pretrained", "heuristic"])
def test_duplicate_match_played_side_by_side_is_the_match_played_one_game_at_a_time(candidate):
    """A greedy checkpoint's decisions batched over a block of deals (agents/lockstep.py), and a shared heuristic
    object played game after game: the samples of the episode-by-episode match, exactly (20 deals: two blocks)."""
    game = rams_env.make_game("tippen", 3)
    agent = agent_factory(candidate, game)(3)
    env = rams_env.make("tippen", 3, illegal_action="raise")
    make_baseline = agent_factory("heuristic", game)
    samples = []
    for d in range(20):
        reference = play_episode(env, [make_baseline(5 + 7919 * d + i) for i in range(3)], seed=5 + d)
        seats = []
        for seat in range(3):
            table = [make_baseline(5 + 7919 * d + i) for i in range(3)]
            table[seat] = agent
            seats.append(play_episode(env, table, seed=5 + d)[seat] - reference[seat])
        samples.append(statistics.fmean(seats))
    result = duplicate_match("tippen", 3, {}, agent, "heuristic", deals=20, seed=5)
    assert (result.mean, result.ci95) == (estimate(samples).mean, estimate(samples).ci95)


def test_a_tournament_played_side_by_side_is_the_one_written_game_by_game(tmp_path):
    """Without --records a chunk's games are played side by side (a checkpoint's decisions batched); with records
    each is played alone and written: the same numbers."""
    plan = Plan(Setting("toepen", 3, preset="fifteen"), ("pretrained", "heuristic:bluffer", "random"), deals=6, seed=2)
    together = run_tournament(plan, progress=False)
    recorded = run_tournament(replace(plan, records=str(tmp_path / "records")), progress=False)
    assert np.array_equal(together.advantage, recorded.advantage)
    assert np.array_equal(together.payoff, recorded.payoff)
    assert together.decisions == recorded.decisions and len(list((tmp_path / "records").iterdir())) == 6 * 3 * 6


def _torch_threads(_: int) -> int:
    import torch  # imported by the worker only now, as a checkpoint agent's first network imports it

    return torch.get_num_threads()


def test_spawned_workers_run_one_torch_thread_even_when_torch_is_imported_after_they_start():
    """The workers fill the cores, so each runs one torch thread. A worker imports torch when it builds its first
    network, after it started; at two threads a worker on two busy cores spent 4x the CPU time for nothing."""
    assert run_tasks([0, 1], _torch_threads, workers=2) == [1, 1]
