"""The ``rams`` command: one entry point, one module per subcommand.

    rams train     train a self-play agent from a YAML config, evaluate it (cli/train.py)
    rams demo      play a batch of deals among random agents and print the result (cli/demo.py)
    rams evaluate  duplicate-deal tournament among agents, with ratings (cli/evaluate.py)
    rams baselines the baseline tables of docs/baselines.md, regenerated (cli/baselines.py)
    rams play      play a session in the terminal against agents (cli/play.py)
    rams exploit   train a best response against a frozen agent: its exploitability (cli/exploit.py)
    rams bluff     measure knocking, folding and dirty-hand bluffs in Toepen (cli/bluff.py)
    rams strength  does an agent beat every scripted player at every table, both ways round (cli/strength.py)
    rams departures one cell of rams strength split by the first decision played otherwise (cli/departures.py)
    rams compose   one general checkpoint from a base network and specialists for some tables (cli/compose.py)

Each subcommand has its own ``--help``. Nothing here imports torch: a subcommand imports it only
when it builds a network, so ``--help`` and bad input answer at once (torch, Stable-Baselines3 and
matplotlib take seconds to import). Bad input ends with one line on stderr and exit code 2
(cli/usage.py).

The floors, lowest first: rams_env < agents < evaluation < training < cli (tests/test_layers.py): each
subcommand's command line lives here, its work in the floor below.
"""

from __future__ import annotations

import importlib
import sys

from cli.usage import command

COMMANDS = {  # name: (module with main(argv), module that checks argv cheaply first or None, one-line help)
    "train": ("cli.train", "cli.train_args", "train a self-play agent from a YAML config and evaluate it"),
    "demo": ("cli.demo", None, "play a batch of deals among random agents and print the result"),
    "evaluate": ("cli.evaluate", None, "duplicate-deal tournament among agents, with ratings and plots"),
    "baselines": ("cli.baselines", None, "regenerate the baseline tables of docs/baselines.md"),
    "play": ("cli.play", None, "play a session in the terminal against scripted or trained agents"),
    "exploit": ("cli.exploit", None, "train a best response against a frozen agent and report its gain"),
    "bluff": ("cli.bluff", None, "measure knocks, folds and dirty-hand bluffs of Toepen agents"),
    "strength": ("cli.strength", None, "does an agent beat every scripted player at every table, both ways round"),
    "departures": ("cli.departures", None, "where an agent's edge over a scripted player starts: by first departure"),
    "compose": ("cli.compose", None, "one checkpoint from a base network and specialists for some tables"),
    "serve": ("cli.serve", None, "the card table in the browser: play agents, watch them, replay deal records"),
}


def version() -> str:
    """The installed distribution's version (pyproject.toml is its one source)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("rams")
    except PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def usage() -> str:
    lines = ["usage: rams <command> [options]", "       rams --version", "", "commands:"]
    lines += [f"  {name:10} {doc}" for name, (_, _, doc) in COMMANDS.items()]
    lines += ["", "rams <command> --help shows the options of a command."]
    return "\n".join(lines)


def run(name: str, argv: list[str]) -> int:
    """Check ``argv`` cheaply (if the command has a checker), then import the command and run it."""
    module_name, checker, _ = COMMANDS[name]
    if checker is not None:
        importlib.import_module(checker).check(argv)  # --help, argument and config errors: before torch
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        print(f"rams {name}: error: not available ({err}); install the extras: pip install -e '.[train]'",
              file=sys.stderr)
        return 2
    return int(module.main(argv) or 0)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"rams {version()}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"rams: error: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        return command(f"rams {name}")(run)(name, rest)
    except SystemExit as exit_:  # argparse: --help printed (0) or a usage error printed (2)
        return 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 2


if __name__ == "__main__":
    sys.exit(main())
