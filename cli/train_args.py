"""``rams train``'s command line, apart from the trainer so that it loads without torch.

``rams train --help``, a bad option, a missing or malformed config file and a typo in a config
key are answered by :func:`check` before cli/train.py (torch, Stable-Baselines3) is imported.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
from pathlib import Path

import yaml

from cli.usage import Parser, UsageError
from rams_env.core.keyvalue import yaml_problem
from training.config import TrainConfig, load_config


def build_parser(doc: str | None) -> argparse.ArgumentParser:
    parser = Parser("rams train", doc)
    parser.add_argument("config", nargs="?", help="YAML config (configs/train/<game>.yaml); defaults if omitted")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value, e.g. --set ppo.learning_rate=1e-4 (repeatable)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--resume", action="store_true",
                       help="continue from <out_dir>/last.zip; starts afresh if there is none yet")
    start.add_argument("--overwrite", action="store_true",
                       help="delete the run already in <out_dir> (checkpoints, snapshots, results, TensorBoard)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--export", metavar="PATH.zip",
                        help="also write the final weights, no optimizer state (agents/pretrained/<game>_4p.zip)")
    parser.add_argument("--snapshot", metavar="STEPS", type=int,
                        help="with --export and trainer: batched, write the league snapshot frozen when the run "
                             "crossed STEPS (a multiple of snapshot_every it still holds) instead of the final weights")
    return parser


def read_config(args: argparse.Namespace) -> TrainConfig:
    """The validated config of the parsed arguments; a malformed YAML file is named with its problem."""
    try:
        return load_config(args.config, args.overrides)
    except yaml.YAMLError as err:
        raise UsageError(f"{args.config}: {yaml_problem(err)}") from None


def trainer_doc() -> str | None:
    """cli/train.py's docstring (the help text), read from its source without importing it."""
    spec = importlib.util.find_spec("cli.train")
    return ast.get_docstring(ast.parse(Path(spec.origin).read_text())) if spec and spec.origin else None


def check(argv: list[str]) -> None:
    """Parse ``argv`` and load its config, raising (or exiting, for --help) as ``rams train`` would."""
    read_config(build_parser(trainer_doc()).parse_args(argv))
