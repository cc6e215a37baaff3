"""Generate the action and observation tables in docs/rules/<game>.md from the code.

The tables sit between markers in each rules document::

    <!-- BEGIN GENERATED: phases -->  ...  <!-- END GENERATED: phases -->
    <!-- BEGIN GENERATED: actions -->  ...  <!-- END GENERATED: actions -->
    <!-- BEGIN GENERATED: observation -->  ...  <!-- END GENERATED: observation -->
    <!-- BEGIN GENERATED: state -->  ...  <!-- END GENERATED: state -->

``python -m tests.doctables`` rewrites them; ``--check`` fails if any is stale
(the test suite runs the check, so docs never disagree with the code).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path

from rams_env.registry import GAMES, make_game

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def tables(game: str) -> dict[str, str]:
    """Generated markdown per section name, for the game's default rules and table size."""
    g = make_game(game)
    phases = importlib.import_module(type(g).__module__).PHASE_TABLE
    return {
        "phases": "The deal's phases (`PHASE_TABLE` in the game's module; see docs/architecture.md):\n\n"
                  + phases.describe(),
        "actions": f"Action ids with the default rules ({g.actions.size} actions):\n\n"
                   + g.actions.describe(),
        "observation": f"Observation for {g.num_players} players (seat fields have one entry per player; "
                       f"sizes scale with the table):\n\n" + g.observation.describe(),
        "state": f"Global state for {g.num_players} players (card places in absolute seat order, then each "
                 f"seat's observation):\n\n" + g.state_layout.describe(),
    }


def render_doc(text: str, sections: dict[str, str]) -> str:
    for name, body in sections.items():
        pattern = re.compile(rf"(<!-- BEGIN GENERATED: {name} -->\n).*?(<!-- END GENERATED: {name} -->)", re.S)
        if not pattern.search(text):
            raise ValueError(f"missing markers for generated section {name!r}")
        text = pattern.sub(lambda m, b=body: m.group(1) + b + "\n" + m.group(2), text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report stale tables (exit 1 if any)")
    args = parser.parse_args(argv)
    stale = []
    for game in GAMES:
        path = DOCS / f"{game}.md"
        text = path.read_text()
        new = render_doc(text, tables(game))
        if new != text:
            stale.append(str(path))
            if not args.check:
                path.write_text(new)
    if stale:
        print(("stale: " if args.check else "updated: ") + ", ".join(stale))
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
