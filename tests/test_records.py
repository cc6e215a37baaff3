"""Deal records (rams_env/records.py): random episodes of every game replay to the same results and
settlements; malformed or tampered records are refused with one clear error."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import rams_env
from agents.random_agent import RandomAgent
from agents.table import play
from evaluation.records import RecordingWatcher
from rams_env import records
from rams_env.records import Recorder, RecordError

GAMES = sorted(rams_env.GAMES)


def played(game_name: str, seed, episode: str = "deal", random_carry: bool = False, preset=None, **rules):
    """A record of a random-agent episode, and the final state it was played to."""
    game = rams_env.make_game(game_name, preset=preset, session=episode == "session", **rules)
    state = game.new_state(np.random.default_rng(seed), None, random_carry=random_carry)
    watcher = RecordingWatcher(Recorder(game, seed, None, random_carry, preset))
    agents = [RandomAgent(int(np.sum(seed)) * 7 + s) for s in range(game.num_players)]
    play(game, state, agents, watcher)
    return watcher.recorder.record, state


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [0, 1, [5, 3]])
def test_random_deals_replay_exactly(game, seed):
    record, state = played(game, seed, random_carry=seed == 1)
    record = json.loads(json.dumps(record))  # what a file gives back
    again = records.replay(record)
    assert again.scores == state.scores
    assert records.as_json(again.deal_breakdowns) == records.as_json(state.deal_breakdowns)
    assert again.history == state.history


@pytest.mark.parametrize("game", GAMES)
def test_sessions_replay_exactly(game):
    record, state = played(game, 11, episode="session", session_deals=3) if game != "toepen" else \
        played(game, 11, episode="session")
    assert len(record["deals"]) == state.deals_played > 1
    again = records.replay(json.loads(json.dumps(record)))
    assert again.scores == state.scores and again.terminal


@pytest.mark.parametrize("preset", ["alvensleben_hop_and_jump", "modern_shoving", "alvensleben_robbing"])
def test_presets_that_draw_while_dealing_replay(tmp_path, preset):
    """Hop-and-jump cuts and shoving draw from the generator around the deal: replay follows the seed."""
    for seed in range(4):
        record, state = played("tippen", seed, preset=preset, episode="session", session_deals=3)
        records.save(record, tmp_path / "r.json")
        assert records.replay(records.load(tmp_path / "r.json")).scores == state.scores


def tampered(change) -> dict:
    record, _ = played("toepen", 3)
    record = copy.deepcopy(record)
    change(record)
    return record


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.update(seed=4), "cards dealt differ"),
    (lambda r: r["deals"][0]["cards"]["hands"][0].reverse(), "cards dealt differ"),
    (lambda r: r["deals"][0]["actions"][0].update(seat=(r["deals"][0]["actions"][0]["seat"] + 1) % 4), "is to act"),
    (lambda r: r["deals"][0]["actions"][0].update(action="Zz"), "no action"),
    (lambda r: r["deals"][0]["actions"].pop(), "do not finish"),
    (lambda r: r["deals"][0]["result"].reverse() if len(set(r["deals"][0]["result"])) > 1
     else r["deals"][0]["result"].__setitem__(0, 9), "result"),
    (lambda r: r["deals"][0]["breakdown"].update(reason="x"), "settlement"),
    (lambda r: r.update(version=99), "version"),
    (lambda r: r.update(format="other"), "format"),
    (lambda r: r.update(game="chess"), "cannot set up"),
    (lambda r: r["rules"].update(lives="many"), "cannot set up"),
    (lambda r: r.update(num_players=12), "cannot set up"),
    (lambda r: r.update(seed=-1), "seed"),
    (lambda r: r.update(deals=[]), "non-empty"),
    (lambda r: r["deals"][0]["actions"].append({"seat": 0}), "action"),
    (lambda r: r["options"].update(dealer=9), "reset options"),
])
def test_tampered_records_are_refused(change, message):
    with pytest.raises(RecordError, match=message):
        records.replay(tampered(change))


def test_illegal_action_is_refused_naming_the_legal_ones():
    def change(r):
        steps = r["deals"][0]["actions"]
        steps[0]["action"] = "knock" if steps[0]["action"] != "knock" else "keep"
    with pytest.raises(RecordError, match="not legal there; legal:"):
        records.replay(tampered(change))


def test_not_json_is_refused(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        records.load(tmp_path / "bad.json")
    with pytest.raises(RecordError, match="cannot read"):
        records.load(tmp_path / "missing.json")


def test_evaluate_and_bluff_write_records_that_replay(tmp_path):
    from evaluation.bluff.record import record_deals
    from evaluation.bluff.winchance import WinChance
    from evaluation.tournament import Plan, Setting, run_tournament

    plan = Plan(Setting("mauscheln"), ("heuristic", "random"), deals=2, seed=1, records=str(tmp_path / "ev"))
    run_tournament(plan, progress=False)
    written = sorted((tmp_path / "ev").glob("*.json"))
    assert len(written) == 2 * 2 * 4  # deals x seatings of the pair at four seats
    for path in written:
        record = records.load(path)
        assert records.replay(record).scores == record["deals"][-1]["result"]  # one deal per game
        assert sorted(set(record["players"])) == ["heuristic", "random"]
    game = rams_env.make_game("toepen")
    record_deals(game, "heuristic:bluffer", "heuristic", range(2), WinChance(game, samples=2), seed=0,
                 records_to=str(tmp_path / "bl"))
    written = sorted((tmp_path / "bl").glob("*.json"))
    assert [p.name for p in written] == ["heuristic_bluffer_deal00000.json", "heuristic_bluffer_deal00001.json"]
    for path in written:
        assert records.replay(records.load(path)).terminal
