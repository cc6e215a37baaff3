"""The strength gate (evaluation/strength.py, ``rams strength``): substitution on duplicate deals, both ways."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from agents.registry import AgentSpecError
from cli.strength import main
from evaluation.duplicate import MeanEstimate
from evaluation.strength import (
    WAYS,
    StrengthPlan,
    StrengthReport,
    TableRunner,
    every_table,
    markdown,
    paired,
    paired_markdown,
    replaces,
    run_strength,
    scripted_opponents,
    seat_scores,
    seat_seed_key,
    styles,
    verdict,
)
from rams_env.core.general import preset_tables
from rams_env.core.rules import RulesError


def test_an_agent_against_itself_is_exactly_even_both_ways():
    """Common random numbers: every game of a deal seeds each seat alike, so substituting an agent for
    itself changes nothing, in a game whose heuristic draws random numbers (Toepen's bluffs)."""
    plan = StrengthPlan("toepen", "heuristic:bluffer", ("heuristic:bluffer",), (("standard", 3),), deals=6)
    samples = TableRunner(plan, 0).samples(0, plan.deals)
    assert samples.shape == (6, 1, len(WAYS))
    assert np.all(samples == 0.0)


def test_the_samples_are_substitutions_of_one_seat():
    """Recomputed by hand for one deal: agent_alone = the agent's seat minus the scripted player's seat in
    the all-scripted table; scripted_alone = the all-agent table's seat minus the scripted player's seat."""
    from evaluation.tournament import deal_seed, game_seeds, play_deal, seat_agents

    plan = StrengthPlan("lupfen", "heuristic", ("random",), (("standard", 3),), deals=2, seed=5)
    runner = TableRunner(plan, 0)
    assert runner.carried  # Lupfen's gate deals from a pot carried over
    n, seeds, env_seed = 3, game_seeds(3, 5, 1, 0), deal_seed(5, 1)
    agent, scripted = runner.agent, runner.opponents[0]

    def score(factories, seat):
        return play_deal(runner.game, seat_agents(factories, seeds), env_seed, runner.carried)[0][seat]

    alone = np.mean([score([agent if k == s else scripted for k in range(n)], s) - score([scripted] * n, s)
                     for s in range(n)])
    among = np.mean([score([agent] * n, s) - score([scripted if k == s else agent for k in range(n)], s)
                     for s in range(n)])
    assert runner.samples(1, 2)[0, 0] == pytest.approx([alone, among])


@pytest.mark.parametrize("game, table", [("toepen", ("standard", 3)), ("tippen", ("loup", 4)),
                                         ("lupfen", ("standard", 4))])
def test_the_games_played_side_by_side_give_the_one_game_at_a_time_samples(game, table):
    """The shipped general agent's decisions taken in one forward over a chunk's games (agents/lockstep.py):
    every sample equals the one computed from the games played one at a time."""
    plan = StrengthPlan(game, "pretrained", ("random", "heuristic"), (table,), deals=3, seed=11)
    runner = TableRunner(plan, 0)
    one_at_a_time = [runner._samples([seat_scores(runner.game, factories, seeds, env_seed, runner.carried)
                                      for factories, seeds, env_seed in runner._lineups(d)]) for d in range(3)]
    assert np.array_equal(runner.samples(0, 3), np.stack(one_at_a_time))


def test_the_heuristic_beats_random_alone_and_the_report_says_so():
    plan = StrengthPlan("toepen", "heuristic", ("random",), (("standard", 3),), deals=40)
    report = run_strength(plan, progress=False)
    alone = report.cells[(0, 0, WAYS.index("agent_alone"))]
    assert alone.low > 0  # a real edge: random loses lives a heuristic keeps
    text = markdown(report)
    assert "| standard | 3 |" in text and "agent_alone" in text and "scripted_alone" in text


@pytest.mark.slow
def test_one_worker_or_two_give_the_same_cells():
    plan = StrengthPlan("toepen", "heuristic", ("random", "heuristic:cautious"), (("standard", 3), ("standard", 4)),
                        deals=8)
    assert run_strength(plan, workers=1, progress=False).cells == run_strength(plan, workers=2, progress=False).cells


def test_a_tables_cells_do_not_depend_on_the_other_tables_of_the_run():
    """Seat seeds are drawn under the table's place in the game's list (``seat_seed_key``), so a run of a few
    tables gives the full sweep's cells, random's too (random draws from its seat seed)."""
    few = StrengthPlan("toepen", "heuristic", ("random",), (("fifteen", 4),), deals=6)
    more = replace(few, tables=(("standard", 3), ("laaier", 5), ("fifteen", 4)))
    assert seat_seed_key("toepen", ("fifteen", 4)) == every_table("toepen").index(("fifteen", 4)) > 0
    assert np.array_equal(TableRunner(few, 0).samples(0, 6), TableRunner(more, 2).samples(0, 6))
    with pytest.raises(ValueError, match="no table standard:2"):
        seat_seed_key("toepen", ("standard", 2))


def test_the_gate_deals_from_carried_over_state_only_where_a_first_deal_is_not_the_game():
    """``carry="gate"`` (the default) deals each table as the published gates do: from random carried-over state
    at Fipsen's Thedinghausen (a race over several deals), fresh at its other tables; ``fresh`` and ``random``
    deal every table one way. A table's samples depend only on how its own deals start."""
    tables = (("grossenaspe", 4), ("thedinghausen", 5))
    runs = {carry: StrengthPlan("fipsen", "heuristic", ("random",), tables, deals=6, carry=carry)
            for carry in ("gate", "fresh", "random")}
    assert [runs[carry].carried() for carry in runs] == [(("thedinghausen", 5),), (), tables]
    samples = {carry: [TableRunner(plan, t).samples(0, 6) for t in range(2)] for carry, plan in runs.items()}
    assert np.array_equal(samples["gate"][0], samples["fresh"][0])
    assert np.array_equal(samples["gate"][1], samples["random"][1])
    assert not np.array_equal(samples["fresh"][1], samples["random"][1])
    report = run_strength(replace(runs["gate"], tables=tables[1:]), progress=False)
    assert report.as_dict()["carry"] == "gate" and report.as_dict()["carried"] == ["thedinghausen:5"]
    assert "deals from random carried-over state)" in markdown(report)  # every table of this run
    both = markdown(run_strength(replace(runs["gate"], deals=2), progress=False))
    assert "deals from random carried-over state at thedinghausen:5)" in both.splitlines()[0]


@pytest.mark.parametrize("game, presets", [("lupfen", "every"), ("fipsen", {"thedinghausen"}), ("toepen", set()),
                                           ("tippen", set()), ("mauscheln", set())])
def test_the_gate_carries_every_lupfen_table_and_thedinghausen_only(game, presets):
    """The published gates' convention, read from each game's rules (``Game.measured_mid_session``)."""
    plan = StrengthPlan(game, "heuristic", ("random",), tuple(every_table(game)), deals=2)
    assert plan.carried() == tuple(t for t in plan.tables if presets == "every" or t[0] in presets)
    assert StrengthPlan(game, "heuristic", ("random",), plan.tables, deals=2, carry="fresh").carried() == ()


def test_an_unknown_carry_is_refused():
    with pytest.raises(ValueError, match="carry='sometimes': one of gate, fresh, random"):
        StrengthPlan("toepen", "heuristic", ("random",), (("standard", 3),), deals=2, carry="sometimes")


def test_random_carry_is_carry_random_and_the_two_exclude_each_other(capsys):
    from cli.strength import build_parser, plan_from

    parse = build_parser().parse_args
    assert plan_from(parse(["--game", "lupfen", "--tables", "standard:3"])).carry == "gate"
    assert plan_from(parse(["--random-carry", "--tables", "standard:3"])).carry == "random"
    assert plan_from(parse(["--carry", "fresh", "--tables", "standard:3"])).carry == "fresh"
    with pytest.raises(SystemExit):
        parse(["--carry", "fresh", "--random-carry"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_every_table_and_every_scripted_style():
    assert every_table("tippen") == [(p, g.num_players) for p, g in preset_tables("tippen")]
    opponents = scripted_opponents("toepen")
    assert opponents[:2] == ["random", "heuristic"] and "heuristic:bluffer" in opponents


def test_the_command_writes_json_and_gates(tmp_path, capsys):
    out = tmp_path / "strength.json"
    code = main(["--game", "toepen", "--agent", "heuristic:bluffer", "--opponents", "heuristic:bluffer",
                 "--tables", "standard:3", "--deals", "3", "--workers", "1", "--quiet", "--json", str(out), "--check"])
    assert code == 1  # against itself every cell is exactly zero: not above it
    data = json.loads(out.read_text())
    assert data["passed"] is False and {c["way"] for c in data["cells"]} == set(WAYS)
    assert "agent_alone" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--tables", "standard"], "preset:players"),
    (["--tables", "nonsense:4"], "unknown preset"),
    (["--agent", "heuristic:nope"], "unknown style"),
    (["--deals", "1"], "--deals must be at least 2"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(["--quiet", "--workers", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_bad_spec_is_refused_before_any_deal():
    with pytest.raises(AgentSpecError):
        run_strength(StrengthPlan("toepen", "heuristic", ("nobody",), (("standard", 3),), deals=2), progress=False)
    with pytest.raises(RulesError):
        TableRunner(StrengthPlan("toepen", "heuristic", ("random",), (("standard", 99),), deals=2), 0)


def test_two_agents_on_the_same_plan_pair_up_deal_by_deal():
    """``paired``: the difference of each deal seed's samples, so its mean is the difference of the cells' means;
    an agent compared with itself is exactly level everywhere."""
    plan = StrengthPlan("toepen", "heuristic", ("random", "heuristic:cautious"), (("standard", 3),), deals=8)
    mine = run_strength(plan, progress=False)
    other = run_strength(StrengthPlan("toepen", "random", plan.opponents, plan.tables, deals=8), progress=False)
    difference = paired(mine, other)
    for key, cell in difference.cells.items():
        assert cell.mean == pytest.approx(mine.cells[key].mean - other.cells[key].mean)
    assert np.array_equal(difference.samples[0], mine.samples[0] - other.samples[0])
    itself = paired(mine, run_strength(plan, progress=False))
    assert all(cell.mean == 0.0 and cell.ci95 == 0.0 for cell in itself.cells.values())
    assert "0 cells better, 4 level, 0 worse" in paired_markdown(itself)
    assert not replaces(itself) and "the first agent would not replace the second" in paired_markdown(itself)


def test_the_ship_rule_weighs_the_scripted_styles_not_random():
    """``replaces``: more cells better than worse against the styles; random's cells are left out of the count
    (all of them counted when random is the only opponent)."""
    plan = StrengthPlan("toepen", "heuristic", ("random", "heuristic:cautious"), (("standard", 3),), deals=4)
    ways = len(WAYS)

    def difference(random_mean: float, style_mean: float) -> StrengthReport:
        cell = {0: MeanEstimate(random_mean, 0.01, 4), 1: MeanEstimate(style_mean, 0.01, 4)}
        return StrengthReport(plan, {(0, o, w): cell[o] for o in (0, 1) for w in range(ways)}, "lives", 0.0)

    assert styles(plan) == ("heuristic:cautious",)
    assert verdict(difference(-1.0, 1.0), styles(plan)) == (ways, 0, 0)
    assert verdict(difference(-1.0, 1.0)) == (ways, 0, ways)
    assert replaces(difference(-1.0, 1.0)) and not replaces(difference(1.0, -1.0))
    assert not replaces(difference(1.0, 0.0))  # level against the style: no reason to replace
    only_random = replace(plan, opponents=("random",))
    assert styles(only_random) == ("random",)


def test_reports_of_different_plans_are_not_paired():
    plan = StrengthPlan("toepen", "heuristic", ("random",), (("standard", 3),), deals=4)
    report = run_strength(plan, progress=False)
    for other in (StrengthPlan("toepen", "random", ("random",), (("standard", 3),), deals=4, seed=3),
                  StrengthPlan("toepen", "random", ("random",), (("standard", 4),), deals=4)):
        with pytest.raises(ValueError, match="different tables, opponents or deals"):
            paired(report, run_strength(other, progress=False))


def test_the_command_compares_two_agents(tmp_path, capsys):
    out = tmp_path / "compare.json"
    assert main(["--game", "toepen", "--agent", "heuristic", "--compare", "random", "--opponents", "heuristic",
                 "--tables", "standard:3", "--deals", "40", "--workers", "1", "--quiet", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["agent"] == "heuristic" and data["compare"]["baseline"]["agent"] == "random"
    difference = {c["way"]: c for c in data["compare"]["difference"]["cells"]}
    mine = {c["way"]: c for c in data["cells"]}
    theirs = {c["way"]: c for c in data["compare"]["baseline"]["cells"]}
    for way in WAYS:
        assert difference[way]["mean"] == pytest.approx(mine[way]["mean"] - theirs[way]["mean"])
    text = capsys.readouterr().out
    assert "`heuristic minus random`, paired over the same 40 deal seeds" in text
    assert difference["agent_alone"]["low"] > 0 and "better" in text  # the heuristic beats random in its seat
    rule = data["compare"]["ship_rule"]
    assert rule["styles"] == ["heuristic"] and rule["better"] + rule["level"] + rule["worse"] == len(WAYS)
    assert rule["replaces"] and rule["better"] > rule["worse"]  # the heuristic would replace random
