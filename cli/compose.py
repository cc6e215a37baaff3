"""``rams compose``: one general checkpoint from a base network and specialists for some of its tables.

    rams compose agents/pretrained/tippen.zip
    rams compose agents/pretrained/tippen_loup_search_320k.zip --specialist runs/tippen_bete_stake/final.zip \
        --out agents/pretrained/tippen.zip
    rams compose base.zip --specialist tap.zip=modern_grupp:3,modern_grupp:4 --out composed.zip
    rams compose agents/pretrained/tippen.zip --without 1 --specialist refit.zip --out replaced.zip

A specialist is a general checkpoint of the same game that plays only the tables it names; the base plays
every other table, exactly as it does alone. Why: a fine-tune taught at a few tables moves the play at the
tables it only held (docs/training.md, "Specialists"). A specialist plays the tables its run's warm start
taught (``warm_start.tables``) unless tables follow its file: ``=<preset>:<players>,...``. A table is a
specialist's when its size is listed and its rules are exactly the preset's; a table with custom options is
the base's. Every agent spec, evaluator and the web table play the written file as one agent
(``checkpoint:<file>``, or ``pretrained`` when it is a game's shipped agent). Without ``--out`` nothing is
written: the command lists which network plays which tables of the checkpoint given. --without N leaves the
base's specialist N out (its index as listed), so that a better fit of its tables can take its place while the
other specialists stay bit for bit.
"""

from __future__ import annotations

import argparse
import sys

from cli.usage import Parser, UsageError, command
from training.outputs import check_outputs


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = Parser("rams compose", __doc__)
    parser.add_argument("base", help="the general checkpoint that plays every table no specialist names")
    parser.add_argument("--specialist", action="append", default=[], metavar="FILE[=PRESET:PLAYERS,...]",
                        help="a general checkpoint of the same game and the tables it plays (default: the "
                             "tables its warm start taught); repeat for more")
    parser.add_argument("--without", action="append", type=int, default=[], metavar="N",
                        help="leave the base's specialist N out (as listed without --out); repeat for more")
    parser.add_argument("--out", help="write the composed checkpoint here (without it: list the base's networks)")
    args = parser.parse_args(argv)
    for option in ("specialist", "without"):
        if getattr(args, option) and not args.out:
            raise UsageError(f"--{option} needs --out: the composed checkpoint is written there")
    args.specialists = [specialist_arg(item) for item in args.specialist]
    return args


def specialist_arg(item: str) -> tuple[str, list[dict] | None]:
    """``FILE`` or ``FILE=preset:players,...`` -> (file, tables or None for the tables it was taught)."""
    path, sep, listed = item.partition("=")
    if not sep:
        return path, None
    tables = []
    for entry in listed.split(","):
        preset, colon, players = entry.partition(":")
        if not (preset and colon and players.isdigit()):
            raise UsageError(f"--specialist {item!r}: tables are <preset>:<players>, comma-separated, "
                             f"e.g. modern_grupp:3; got {entry!r}")
        tables.append({"preset": preset, "num_players": int(players)})
    return path, tables


def listing(path: str) -> str:
    """Which network of the checkpoint at ``path`` plays which tables."""
    from agents.checkpoint.format import SPECIALISTS, load_checkpoint

    meta, _, _ = load_checkpoint(path)
    entries = meta.get(SPECIALISTS, [])
    lines = [f"{path}: a {meta['game']} checkpoint, {len(entries)} specialist(s) beside its base network"]
    for index, entry in enumerate(entries):
        tables = ", ".join(f"{t['preset']}:{t['num_players']}" for t in entry["tables"])
        lines.append(f"  specialist {index} (from {entry.get('source', '?')}): {tables}")
    lines.append("  base: every other table" if entries else "  base: every table")
    return "\n".join(lines)


@command("rams compose")
def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.out:
        from agents.checkpoint.specialists import compose

        check_outputs(files=[args.out])
        compose(args.base, args.specialists, args.out, args.without)
    print(listing(args.out or args.base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
