"""The ``rams`` command: help, unknown commands, the demo."""

from __future__ import annotations

from training.cli import main


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
