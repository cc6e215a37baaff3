"""``rams serve``: the browser card table (web/; docs/web.md).

    rams serve                      # http://127.0.0.1:8000: pick a game, rules, table size and opponents
    rams serve --port 8080
    rams serve --host 0.0.0.0       # reachable from other machines: anyone who can reach it can open tables

Play whole sessions against any agents (heuristic styles, the Toepen personalities, pretrained,
checkpoint:<path.zip>), watch agents play each other at a chosen pace, save each session as a deal record
and replay records (yours, or those ``rams evaluate --records DIR`` / ``rams bluff --records DIR`` write)
step by step with every hand open. Needs the web extra: pip install -e '.[web]'.
"""

from __future__ import annotations

import argparse
import sys

from cli.usage import Parser, UsageError, command


def parser() -> argparse.ArgumentParser:
    p = Parser("rams serve", __doc__)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    return p


@command("rams serve")
def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port}: give 1 to 65535")
    try:
        import uvicorn

        from web.app import create_app
    except ModuleNotFoundError as err:
        raise UsageError(f"the web table needs the web extra ({err}): pip install -e '.[web]'") from None
    print(f"rams serve: open http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr, flush=True)
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning")
    return 0
