"""A bounded load test of ``rams serve`` on loopback: many tables at once, each a person's seat against agents.

    python benchmarks/web_load.py                      # 40 tables, 2 deals each, games in turn
    python benchmarks/web_load.py --tables 100 --deals 1

The server runs as its own process (``python -m cli serve`` on a free 127.0.0.1 port); this process opens
``--tables`` tables over HTTP and plays them all concurrently over WebSockets, each person answering her turns
with a random legal move (agents at pace 0). It reports the latency per move (from sending the move to the
message that shows it) and checks that nothing went wrong: no error message, every message of a connection is
of its own table (its game, its seat's cards), and each table's deal record replays through the engine to the
scores its connection was last shown. Every loop is bounded (moves per table, a deadline); it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evaluation.throughput import measured_code  # noqa: E402
from rams_env import records  # noqa: E402
from tests.web.browser import free_port  # noqa: E402

GAMES = ("toepen", "mauscheln", "tippen", "lupfen", "fipsen")
MAX_MOVES = 3000
"""Moves one table may take before the test gives up on it."""


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.loads(reply.read())


async def play_table(base: str, game: str, deals: int, seed: int, latencies: list[float]) -> dict:
    """Open one table and play it to ``deals`` settled deals; what its connection saw last."""
    import websockets

    token = (await asyncio.to_thread(post, f"{base}/api/tables",
                                     {"game": game, "pace": 0, "seed": seed, "opponents": ["heuristic"]}))["token"]
    rng = random.Random(seed)
    sent_at = None
    async with websockets.connect(f"{base.replace('http', 'ws')}/ws/{token}", max_size=2**22) as ws:
        for _ in range(MAX_MOVES):
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message["type"] != "table" or message["setup"]["game"] != game:
                raise AssertionError(f"table {token[:6]} ({game}) got {str(message)[:200]}")
            if sent_at is not None:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            done = message["settlement"] is not None and message["settlement"]["number"] >= deals
            if message["session_over"] or done:
                return {"token": token, "message": message}
            if message["settlement"] is not None:
                await ws.send(json.dumps({"type": "next"}))
            elif message["legal"]:
                await ws.send(json.dumps({"type": "move", "action": rng.choice(message["legal"])["label"]}))
                sent_at = time.perf_counter()
    raise AssertionError(f"table {token[:6]} ({game}) did not finish {deals} deals in {MAX_MOVES} messages")


def check_record(base: str, seen: dict) -> None:
    """The table's record replays through the engine (which checks every deal's result), and its results add up
    to the scores the connection was last shown (seat 0: relative seats are absolute)."""
    record = get(f"{base}/api/tables/{seen['token']}/record")
    records.replay(record)
    totals = [sum(deal["result"][s] for deal in record["deals"]) for s in range(record["num_players"])]
    shown = seen["message"]["settlement"]["scores"]
    if totals != shown:
        raise AssertionError(f"table {seen['token'][:6]}: the record adds up to {totals}, the page showed {shown}")


async def run(base: str, tables: int, deals: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    began = time.perf_counter()
    seen = await asyncio.gather(*(play_table(base, GAMES[k % len(GAMES)], deals, k, latencies)
                                  for k in range(tables)))
    wall = time.perf_counter() - began
    for table in seen:
        check_record(base, table)
    return latencies, wall


def start_server() -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            get(f"{base}/api/catalog")
            return server, base
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("rams serve did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=40, help="tables played at once (default 40)")
    parser.add_argument("--deals", type=int, default=2, help="deals per table (default 2)")
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds (default 600)")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    server, base = start_server()
    try:
        latencies, wall = asyncio.run(asyncio.wait_for(run(base, args.tables, args.deals), args.timeout))
    finally:
        server.terminate()
        server.wait(10)
    report = {"tables": args.tables, "deals": args.deals, "moves": len(latencies), "wall_s": round(wall, 2),
              "median_ms": round(1000 * percentile(latencies, 0.5), 1),
              "p95_ms": round(1000 * percentile(latencies, 0.95), 1),
              "max_ms": round(1000 * max(latencies), 1)}
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
