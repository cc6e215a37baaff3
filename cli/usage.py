"""Bad input on the command line: one clear line on stderr and exit code 2, never a traceback.

Every ``rams`` subcommand goes through :func:`command` (cli/main.py wraps each one, and the
subcommand modules wrap their own ``main`` so it behaves the same when called directly). Which
exceptions count as bad input is listed once here, by name, so that listing them imports nothing:
a checkpoint error is recognised without importing torch.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

from rams_env.core.keyvalue import parse_assignments, yaml_problem


class UsageError(ValueError):
    """A command line that cannot run: a bad number, a bad key=value, a path that cannot be written."""


INPUT_ERRORS = frozenset({
    "cli.usage.UsageError",
    "rams_env.core.rules.RulesError",  # an unknown preset, rule option or value; a bad table size
    "rams_env.core.game.OptionError",  # an unknown environment option
    "agents.registry.AgentSpecError",  # an unknown agent spec or style
    "training.config.ConfigError",  # an unknown key or bad value in a training config
    "agents.checkpoint.format.CheckpointError",  # a missing, corrupt or foreign checkpoint
    "training.pool.PoolError",  # a bad opponent pool in a config
    "evaluation.kept_samples.KeptSamplesError",  # a kept-samples file that cannot answer the run asked
})
"""Exceptions that mean bad input, not a bug (qualified class names; subclasses count too)."""


def is_input_error(err: BaseException) -> bool:
    """True for the errors of INPUT_ERRORS, malformed YAML and files that cannot be read or written."""
    yaml = sys.modules.get("yaml")  # only code that read YAML can raise its errors: no import needed for `rams -h`
    if isinstance(err, OSError) or (yaml is not None and isinstance(err, yaml.YAMLError)):
        return True
    return any(f"{cls.__module__}.{cls.__qualname__}" in INPUT_ERRORS for cls in type(err).__mro__)


def one_line(err: BaseException) -> str:
    """The error's message, folded to one line."""
    yaml = sys.modules.get("yaml")
    text = yaml_problem(err) if yaml is not None and isinstance(err, yaml.YAMLError) else str(err)
    return " ".join(text.split()) or type(err).__name__


def command(prog: str) -> Callable[[Callable[..., int | None]], Callable[..., int]]:
    """Decorate a subcommand's ``main``: bad input becomes ``<prog>: error: <one line>`` and exit code 2."""

    def wrap(main: Callable[..., int | None]) -> Callable[..., int]:
        @functools.wraps(main)
        def guarded(*args: Any, **kwargs: Any) -> int:
            try:
                return int(main(*args, **kwargs) or 0)
            except Exception as err:
                if not is_input_error(err):
                    raise
                print(f"{prog}: error: {one_line(err)}", file=sys.stderr)
                return 2

        return guarded

    return wrap


def parse_rules(items: list[str], option: str = "--rules") -> dict[str, Any]:
    """``["lives=15", "knock_timing=any_time"]`` -> typed rule options (rams_env/core/keyvalue.py)."""
    return parse_assignments(items, option, UsageError)


def at_least(value: int, lowest: int, option: str) -> int:
    """``value`` if it is at least ``lowest``, else a UsageError naming the option."""
    if value < lowest:
        raise UsageError(f"{option} must be at least {lowest}, got {value}")
    return value


class Parser(argparse.ArgumentParser):
    """argparse with the module docstring as help (its reST ````code```` marks dropped: a terminal shows them
    literally) and errors on one line (the usage summary is one ``--help`` away)."""

    def __init__(self, prog: str, doc: str | None, **kwargs: Any) -> None:
        super().__init__(prog=prog, description=doc and doc.replace("``", ""),
                         formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def hidden_alias(parser: argparse.ArgumentParser, old: str, dest: str, **kwargs: Any) -> None:
    """An old option spelling that still works but no longer shows in ``--help``."""
    parser.add_argument(old, dest=dest, help=argparse.SUPPRESS, **kwargs)
