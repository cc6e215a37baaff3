"""``rams play``: whole sessions of every game played by a scripted human through text streams."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

import rams_env
from agents.heuristics.base import HeuristicAgent
from agents.human import HumanAgent, InvalidChoice, QuitSession, parse_choice
from agents.registry import HEURISTICS
from cli.play import main

SHORT = {  # rules that keep a session to a deal or two
    "toepen": ["lives=2"],
    "tippen": ["session_deals=2"],
    "mauscheln": ["session_deals=2"],
    "lupfen": ["session_deals=2"],
    "fipsen": ["session_deals=2"],
}
CHOICES = re.compile(r"^Your choices: (.+)$", re.M)


class ScriptedHuman(io.TextIOBase):
    """A player who reads the last choices printed to ``out`` and types the first label, every other
    time the last one with its case swapped; or always the number 1."""

    def __init__(self, out: io.StringIO, numbers: bool = False, before: list[str] | None = None,
                 limit: int = 3000) -> None:
        self.out, self.numbers, self.pending, self.limit = out, numbers, list(before or []), limit
        self.typed: list[str] = []

    def readline(self, size: int = -1) -> str:
        if self.pending:
            return self.pending.pop(0) + "\n"
        if len(self.typed) >= self.limit:  # a session that never ends: stop typing (the test fails)
            return ""
        line = CHOICES.findall(self.out.getvalue())[-1]
        labels = re.findall(r"\[\d+\] (.+?)(?=  \[\d+\] |$)", line)
        if self.numbers:
            self.typed.append(labels[0])
            return "1\n"
        if len(self.typed) % 2:  # every other time the last choice, case swapped: "aH" plays Ah
            self.typed.append(labels[-1])
            return labels[-1].swapcase() + "\n"
        self.typed.append(labels[0])
        return labels[0] + "\n"


def play(argv: list[str], stdin) -> tuple[int, str]:
    out = stdin.out if isinstance(stdin, ScriptedHuman) else io.StringIO()
    return main(argv, stdin=stdin, stdout=out), out.getvalue()


def scripted(**kwargs) -> ScriptedHuman:
    return ScriptedHuman(io.StringIO(), **kwargs)


def deal_lines(text: str) -> dict[str, list[int]]:
    """Per seat name, the ``deal`` results printed after every deal."""
    found: dict[str, list[int]] = {}
    for name, value in re.findall(r"^  (player_\d \([^)]*\))\s+deal\s+([+-]\d+)", text, re.M):
        found.setdefault(name, []).append(int(value))
    return found


def final_totals(text: str) -> dict[str, int]:
    end = text[text.rindex("=== Session over"):]
    return {name: int(v) for name, v in re.findall(r"^  (player_\d \([^)]*\))\s+total\s+([+-]\d+)", end, re.M)}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_a_whole_session_by_labels(game):
    human = scripted()
    code, text = play([game, "--seed", "5", "--opponents", "random", "--rules", *SHORT[game]], human)
    assert code == 0
    assert "=== Session over after" in text and ("Winner: " in text or "Tied for first: " in text)
    mine = re.findall(r"^  player_0 \(you\): (.+)$", text, re.M)
    assert human.typed and mine == human.typed  # every typed label became exactly that move
    n = rams_env.make_game(game).num_players
    assert len(re.findall(r"^  player_\d \(random\): ", text, re.M)) > 0
    deals = int(re.search(r"Session over after (\d+) deal", text).group(1))
    assert text.count(" over ---") == deals
    per_deal, totals = deal_lines(text), final_totals(text)
    assert len(totals) == n
    for name, total in totals.items():  # the running scores add up the deals
        assert len(per_deal[name]) == deals and sum(per_deal[name]) == total
    for deal in re.findall(r"=== Deal \d+ ===\n(.*?)\nScores:", text, re.S):  # each trick is announced
        won = re.search(r"^  tricks won: (.*)$", deal, re.M)
        if won:  # (Toepen's breakdown has no trick count)
            counts = [int(x) for x in re.findall(r"player_\d (\d+)", won.group(1))]
            assert deal.count("  -> trick to ") == sum(counts)
    assert "  -> trick to " in text
    if game == "toepen":  # the session ends when someone has lost both lives
        assert min(totals.values()) <= -2
    else:
        assert deals == 2


def test_winner_is_the_highest_score():
    code, text = play(["tippen", "--seed", "11", "--opponents", "random", "--rules", "session_deals=2"], scripted())
    totals = final_totals(text)
    best = max(totals.values())
    winners = [name for name, v in totals.items() if v == best]
    verdict = f"Winner: {winners[0]}" if len(winners) == 1 else "Tied for first: " + ", ".join(winners)
    assert code == 0 and f"{verdict} ({best:+d} chips)" in text


def test_numbers_play_a_session_and_the_same_seed_replays_it():
    argv = ["mauscheln", "--seed", "2", "--opponents", "random", "--rules", "session_deals=2", "--seat", "2"]
    code, text = play(argv, scripted(numbers=True))
    assert code == 0 and "=== Session over after 2 deal(s)" in text
    assert "player_2 (you)" in text and "player_0 (random)" in text
    assert play(argv, scripted(numbers=True))[1] == text


def test_invalid_input_is_answered_and_prompted_again():
    human = scripted(before=["xyz", "99", "", "-1", "help", "hand", "table"])
    code, text = play(["lupfen", "--seed", "1", "--opponents", "random", "--rules", "session_deals=1"], human)
    assert code == 0 and "Session over" in text
    assert "'xyz' is not a legal choice" in text
    assert "99 is not a choice: type a number from 1 to" in text
    assert "-1 is not a choice" in text
    assert "Nothing typed" in text
    assert "Commands:" in text and "Your hand: " in text
    after_table = text[text.index("you> table\n"):]
    reprinted = after_table[:after_table.index("you> ", 1)]
    assert "Lupfen  deal 1" in reprinted and "Your choices: [1] " in reprinted
    assert text.count("you> ") == len(human.typed) + 7  # each bad line got a new prompt


def test_a_label_of_the_game_that_is_not_legal_now_is_named():
    with pytest.raises(InvalidChoice, match="'knock' is not allowed now; you may play: Ah, 8c"):
        parse_choice("knock", ["Ah", "8c"], ["Ah", "8c", "knock"])
    assert parse_choice("  BID   2 good ", ["pass", "bid 2 good"]) == 1
    assert parse_choice("ah", ["8c", "Ah"]) == 1 and parse_choice("2", ["8c", "Ah"]) == 1


@pytest.mark.parametrize("word, reason", [("quit", "You quit"), (None, "Input ended")])
def test_quit_or_end_of_input_stops_with_the_score_so_far(word, reason):
    stdin = io.StringIO("1\n" * 3 + (f"{word}\n" if word else ""))
    code, text = play(["toepen", "--seed", "4", "--opponents", "random"], stdin)
    assert code == 0
    assert f"=== {reason} after 0 complete deal(s) ===" in text and "Leading: " in text
    assert text.count("  player_0 (you): ") == 3
    assert "Session over" not in text


def test_deal_limit_stops_the_session():
    code, text = play(["fipsen", "--seed", "3", "--opponents", "random", "--deals", "1"], scripted())
    assert code == 0 and "=== Stopped at the --deals limit after 1 complete deal(s) ===" in text
    assert text.count(" over ---") == 1


@pytest.mark.parametrize("argv, message", [
    (["toepen", "--players", "9"], "num_players=9"),
    (["toepen", "--seat", "4"], "--seat 4: this table has seats 0 to 3"),
    (["toepen", "--rules", "lives=1"], "lives=1"),
    (["toepen", "--rules", "lives"], "--rules 'lives' is not key=value"),
    (["toepen", "--rules", "colour=red"], "unknown option 'colour'"),
    (["toepen", "--preset", "moon"], "unknown preset 'moon'"),
    (["toepen", "--opponents", "random", "random"], "--opponents takes one spec or 3"),
    (["toepen", "--opponents", "wizard"], "unknown agent 'wizard'"),
    (["toepen", "--opponents", "checkpoint:/nonexistent/agent.zip"], "/nonexistent/agent.zip"),
    (["toepen", "--deals", "0"], "--deals 0"),
])
def test_bad_command_lines_exit_2_naming_the_problem(argv, message, capsys):
    code, text = play(argv, io.StringIO(""))
    assert code == 2 and text == ""
    assert message in capsys.readouterr().err


def test_argparse_errors_exit_2(capsys):
    assert play(["chess"], io.StringIO(""))[0] == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    assert play(["toepen", "--seed", "x"], io.StringIO(""))[0] == 2


def test_human_agent_follows_the_protocol_in_any_loop():
    from agents.base import Agent
    from agents.random_agent import RandomAgent
    from agents.table import play_episode

    env = rams_env.make("tippen", 3)
    out = io.StringIO()
    human = HumanAgent(env.unwrapped.game, io.StringIO("1\n" * 50), out)
    assert isinstance(human, Agent)
    play_episode(env, [human, RandomAgent(1), RandomAgent(2)], seed=0)
    assert "Your choices: [1] " in out.getvalue() and "  hand: [" in out.getvalue()  # the view, listed
    with pytest.raises(QuitSession) as stop:
        HumanAgent(env.unwrapped.game, io.StringIO(""), io.StringIO()).act(
            np.zeros(1), np.array([1], dtype=np.int8), {})
    assert stop.value.reason == "eof"


class FirstLabel(HeuristicAgent):
    """A stand-in heuristic for the registry: always the first legal label."""

    def choose(self, view, legal):
        return legal[0]


def test_default_opponents_are_the_heuristic_when_the_game_has_one(monkeypatch):
    monkeypatch.setitem(HEURISTICS, "mauscheln", "tests.test_play:FirstLabel")
    argv = ["mauscheln", "--seed", "8", "--rules", "session_deals=1"]
    code, text = play(argv, scripted())
    assert code == 0 and "At the table: player_0 (you), player_1 (heuristic), player_2 (heuristic)" in text
    assert "Session over" in text
    monkeypatch.setitem(HEURISTICS, "mauscheln", "agents.heuristics.no_such_module:Nobody")
    code, text = play(argv, scripted())
    assert code == 0 and "player_1 (random), player_2 (random), player_3 (random)" in text


def test_rams_play_is_reachable_from_the_rams_command(capsys):
    from cli.main import main as rams

    assert rams(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "usage: rams play" in out and "--opponents" in out and "quit" in out


@pytest.mark.parametrize("game", ["tippen", "mauscheln", "fipsen"])
def test_other_players_face_down_discards_name_no_card(game):
    """Issue 14: the transcript printed other players' discards ("player_3 (random): discard 7c")."""
    code, text = play([game, "--seed", "3", "--opponents", "random", "--rules", "session_deals=4"], scripted())
    others = re.findall(r"^  player_[1-9] \(random\): (.+)$", text, re.M)
    assert code == 0 and "discards a card" in others
    assert not [move for move in others if move.startswith("discard ")]
    raw = rams_env.make(game).unwrapped
    assert {raw.game.actions.public_label(a) for a in range(raw.game.actions.size)} >= {"discards a card", "pass"}
