"""``rams departures`` (evaluation/departures.py): a strength cell split by the first decision played otherwise."""

from __future__ import annotations

import json

import pytest

from agents.registry import AgentSpecError
from cli.departures import main
from evaluation.departures import SAME, DeparturePlan, decision_kind, first_departure, markdown, run_departures
from evaluation.strength import WAYS, StrengthPlan, every_table, run_strength

TABLES = [("toepen", ("standard", 4)), ("tippen", ("modern", 3)), ("mauscheln", ("standard", 3))]


@pytest.mark.parametrize("game, table", TABLES)
@pytest.mark.parametrize("way", WAYS)
def test_the_parts_add_up_to_the_strength_cell(game, table, way):
    """The total is the gate's cell on the same seeds, measured in a run that has the game's first table too (the
    seat seeds follow the table, not its place in the run), and the parts (one per kind of first departure) add up
    to it: every seat-deal is counted in exactly one part."""
    plan = DeparturePlan(game, "random", "heuristic", table, deals=12, way=way)
    report = run_departures(plan, progress=False)
    tables = tuple(dict.fromkeys([every_table(game)[0], table]))
    cell = run_strength(StrengthPlan(game, "random", ("heuristic",), tables, deals=12), progress=False)
    assert report.total.mean == pytest.approx(cell.cells[(tables.index(table), 0, WAYS.index(way))].mean,
                                              abs=1e-12)
    assert sum(part.mean for part in report.parts.values()) == pytest.approx(report.total.mean, abs=1e-12)
    assert sum(report.seat_deals.values()) == 12 * table[1]
    assert len(report.parts) > 2  # random departs from the heuristic in several kinds of decision


def test_an_agent_against_itself_never_departs():
    """Common random numbers: the bluffer (which draws random numbers) against itself chooses alike everywhere."""
    report = run_departures(DeparturePlan("toepen", "heuristic:bluffer", "heuristic:bluffer", ("standard", 3), 5),
                            progress=False)
    assert list(report.parts) == [SAME] and report.seat_deals == {SAME: 15}
    assert report.total.mean == 0.0


def test_a_departure_before_which_the_games_agree_holds_all_of_the_difference():
    """The part ``same`` is zero in every deal: where no decision differs, the seat's payoff cannot."""
    report = run_departures(DeparturePlan("tippen", "heuristic:tight", "heuristic:loose", ("modern", 4), 10),
                            progress=False)
    assert report.parts[SAME].mean == 0.0 and report.parts[SAME].ci95 == 0.0
    assert all(" -> " in kind or kind == SAME for kind in report.parts)  # the styles differ in bids only


@pytest.mark.parametrize("scripted, agent, expected", [
    ([("tap", "tap"), ("lead, trick 1", "Ac")], [("tap", "tap"), ("lead, trick 1", "7c")], "lead, trick 1"),
    ([("tap", "tap")], [("pass", "pass")], "tap -> pass"),
    ([("follow, trick 2", "Kd")], [("knock", "knock")], "card -> knock"),
    ([("discard", "discard 7c")], [("discard", "discard Ac")], "discard"),
    ([("done", "done")], [("discard", "discard Ac")], "done -> discard"),
    ([("keep", "keep"), ("follow, trick 1", "Ac")], [("keep", "keep"), ("follow, trick 1", "Ac")], SAME),
])
def test_first_departure_names_the_decision(scripted, agent, expected):
    assert first_departure(scripted, agent) == expected


def test_card_plays_are_leads_or_follows_of_a_numbered_trick():
    import numpy as np

    import rams_env
    from agents.table import Turn

    game = rams_env.make_game("mauscheln", 3)
    state = game.new_state(np.random.default_rng(0), None)
    card_action = game.actions.card_actions("play", [state.hands[0][0]])[0]
    turn = Turn(game, state, 0, [card_action], None)
    turn.action = card_action
    state.trick, state.tricks_played = [], 0
    assert decision_kind(turn) == "lead, trick 1"
    state.trick, state.tricks_played = [(2, state.hands[2][0])], 1
    assert decision_kind(turn) == "follow, trick 2"


def test_the_command_writes_the_table_and_json(tmp_path, capsys):
    out_json, out_md = tmp_path / "d.json", tmp_path / "d.md"
    assert main(["--game", "toepen", "--agent", "random", "--table", "standard:3", "--deals", "4", "--quiet",
                 "--json", str(out_json), "--markdown", str(out_md)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out_json.read_text())
    assert data["way"] == "agent_alone" and data["num_players"] == 3 and data["deals"] == 4
    assert sum(part["mean"] for part in data["parts"]) == pytest.approx(data["total"]["mean"])
    assert out_md.read_text() == printed.rstrip("\n") + "\n"
    assert "| first departure (scripted -> agent) |" in printed


@pytest.mark.parametrize("argv, message", [
    (["--game", "tippen", "--table", "loup:9"], "3 to 5 players"),
    (["--game", "tippen", "--table", "loup"], "preset:players"),
    (["--deals", "1"], "at least 2"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main([*argv, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_unknown_agent_is_named():
    with pytest.raises(AgentSpecError, match="unknown agent"):
        run_departures(DeparturePlan("toepen", "nope", "heuristic", ("standard", 4), 2), progress=False)


def test_a_plan_checks_its_way_and_deals():
    with pytest.raises(ValueError, match="way="):
        DeparturePlan("toepen", "random", "heuristic", ("standard", 4), 4, way="sideways")
    with pytest.raises(ValueError, match="at least 2"):
        DeparturePlan("toepen", "random", "heuristic", ("standard", 4), 1)


def test_markdown_lists_losses_first_and_same_last():
    report = run_departures(DeparturePlan("toepen", "random", "heuristic", ("standard", 4), 8), progress=False)
    rows = [line for line in markdown(report).splitlines() if line.startswith("| ") and "---" not in line][1:]
    means = [report.parts[row.split(" | ")[0][2:]].mean for row in rows[:-1]]
    assert means == sorted(means) and rows[-1].startswith(f"| {SAME} |")
