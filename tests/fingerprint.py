"""Seeded behaviour fingerprint of every game x preset x table size, through the public env.

A refactoring that must not change behaviour (a faster encoder, a shared observation core,
new AEC bookkeeping) is checked by fingerprinting before and after: for each configuration
a few seeded random deals (with and without random carry-over) and a session are played
through ``rams_env.make``, and everything a user can see is hashed at every step: every
seat's observation and mask, ``agent_selection``, every seat's view, the renders (all hands
and each seat's), rewards, cumulative rewards, terminations, infos with the breakdowns,
and the legal action labels.

    python -m tests.fingerprint --out before.json         # one hash per configuration
    python -m tests.fingerprint --compare before.json     # which configurations differ
    python -m tests.fingerprint --games toepen --deals 20 --compare before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from enum import Enum
from typing import Any

import numpy as np

import rams_env
from rams_env.registry import GAMES, game_class, make_game


def configurations(games: list[str]) -> Iterator[tuple[str, str, int]]:
    """(game, preset, table size) for every preset and every table size its rules allow."""
    for game in games:
        for preset in game_class(game).rules_type.preset_names():
            lo, hi = make_game(game, None, preset=preset).player_range()
            for n in range(lo, hi + 1):
                yield game, preset, n


def canonical(value: Any) -> str:
    """A text form that keeps types apart (1, 1.0, True; list and tuple) and ignores dict order."""
    if isinstance(value, dict):
        items = sorted((repr(k), canonical(v)) for k, v in value.items())
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    if isinstance(value, (list, tuple)):
        inner = ",".join(canonical(v) for v in value)
        return ("[" + inner + "]") if isinstance(value, list) else ("(" + inner + ")")
    if isinstance(value, np.ndarray):
        return f"array{value.dtype}{value.shape}:{value.tobytes().hex()}"
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, (np.generic,)):
        return f"{type(value).__name__}({value!r})"
    return f"{type(value).__name__}({value!r})"


class Recorder:
    """Feeds everything observable at one moment of an episode into a hash."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()

    def add(self, *parts: Any) -> None:
        for part in parts:
            self.digest.update(canonical(part).encode())
            self.digest.update(b"|")

    def moment(self, env) -> None:
        raw = env.unwrapped
        self.add("sel", env.agent_selection, env.rewards, env._cumulative_rewards,
                 env.terminations, env.truncations, env.infos, raw.legal_actions(), raw.legal_labels())
        for agent in env.possible_agents:
            obs = env.observe(agent)
            self.add(agent, obs["observation"], obs["action_mask"], raw.view(agent))
        for seat in (None, *range(raw.game.num_players)):
            self.add(raw.game.render(raw.game_state, seat))
        self.add(raw.last_breakdown())


def play_episode(env, seed: int, recorder: Recorder, options: dict | None = None) -> None:
    """One seeded episode of uniform random legal play, every moment recorded."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed, options=options)
    recorder.moment(env)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        recorder.add("last", agent, obs["observation"], obs["action_mask"], reward, term, trunc, info)
        if term or trunc:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            recorder.add("act", action, env.unwrapped.action_label(action))
            env.step(action)
        recorder.moment(env)


def fingerprint(game: str, preset: str, n: int, deals: int, sessions: int) -> str:
    """The hash of ``deals`` single deals (half with random carry) and ``sessions`` sessions."""
    recorder = Recorder()
    plain = rams_env.make(game, n, preset=preset)
    carried = rams_env.make(game, n, preset=preset, random_carry=True)
    for seed in range(deals):
        play_episode(carried if seed % 2 else plain, seed, recorder)
    session = rams_env.make(game, n, preset=preset, episode="session")
    for seed in range(sessions):
        play_episode(session, 1000 + seed, recorder)
    return recorder.digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="FILE", help="write the hashes as JSON")
    parser.add_argument("--compare", metavar="FILE", help="report the configurations whose hash differs")
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="games to fingerprint (default all)")
    parser.add_argument("--deals", type=int, default=6, help="seeded deals per configuration (default 6)")
    parser.add_argument("--sessions", type=int, default=1, help="seeded sessions per configuration (default 1)")
    args = parser.parse_args(argv)
    hashes = {}
    for game, preset, n in configurations(args.games):
        key = f"{game}:{preset}:{n}"
        hashes[key] = fingerprint(game, preset, n, args.deals, args.sessions)
        print(f"{key:40} {hashes[key][:16]}", flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"deals": args.deals, "sessions": args.sessions, "hashes": hashes}, fh, indent=1)
    if not args.compare:
        return 0
    with open(args.compare) as fh:
        before = json.load(fh)
    if (before["deals"], before["sessions"]) != (args.deals, args.sessions):
        print(f"{args.compare} was made with --deals {before['deals']} --sessions {before['sessions']}")
        return 2
    differ = [k for k in hashes if before["hashes"].get(k) != hashes[k]]
    missing = sorted(set(before["hashes"]) - set(hashes)) if args.games == list(GAMES) else []
    for key in differ:
        print(f"DIFFERS {key}")
    for key in missing:
        print(f"MISSING {key}")
    print(f"{len(hashes) - len(differ)} of {len(hashes)} configurations identical")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
