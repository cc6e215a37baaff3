"""The ``rams`` command: one entry point, one module per subcommand.

    rams train     train a self-play agent from a YAML config, evaluate it (training/train.py)
    rams demo      play a batch of deals among random agents and print the result (training/demo.py)
    rams evaluate  duplicate-deal tournament among agents, with ratings (training/evaluate.py)
    rams baselines the baseline tables of docs/baselines.md, regenerated (training/baselines.py)
    rams play      play a session in the terminal against agents (training/play.py)
    rams exploit   train a best response against a frozen agent: its exploitability (training/exploit.py)
    rams bluff     measure knocking, folding and dirty-hand bluffs in Toepen (training/bluff/)

Each subcommand has its own ``--help``.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "train": ("training.train", "train a self-play agent from a YAML config and evaluate it"),
    "demo": ("training.demo", "play a batch of deals among random agents and print the result"),
    "evaluate": ("training.evaluate", "duplicate-deal tournament among agents, with ratings and plots"),
    "baselines": ("training.baselines", "regenerate the baseline tables of docs/baselines.md"),
    "play": ("training.play", "play a session in the terminal against scripted or trained agents"),
    "exploit": ("training.exploit", "train a best response against a frozen agent and report its gain"),
    "bluff": ("training.bluff", "measure knocks, folds and dirty-hand bluffs of Toepen agents"),
}


def usage() -> str:
    lines = ["usage: rams <command> [options]", "", "commands:"]
    lines += [f"  {name:10} {doc}" for name, (_, doc) in COMMANDS.items()]
    lines += ["", "rams <command> --help shows the options of a command."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"rams: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(COMMANDS[name][0])
    except ModuleNotFoundError as err:
        print(f"rams {name}: not available ({err}); install the extras: pip install -e '.[train]'",
              file=sys.stderr)
        return 2
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
