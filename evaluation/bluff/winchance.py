"""The decider's chance of winning the last trick, estimated from her own information only.

Estimator (docs/bluffing.md, "The winning-chance estimator"):

1. Possible worlds. The cards the decider cannot see (``position.unseen_pool``: the places
   ``Toepen.shuffle_unseen`` re-deals) are dealt anew to the opponents still in play, each
   keeping her hand size, and a world is kept only if it agrees with every public fact the
   decider has seen: suits players have shown void in, and the announcements (whistle / stand
   up / silence). Worlds are equally likely: the uniform re-deal conditioned on those facts.
2. Reference play-out. In each world the rest of the deal is played with a fixed reference
   policy: nobody knocks or folds any more (the decider stays in), and every player still in
   plays ``low`` (the lowest legal card by Toepen rank, 10 9 8 7 A K Q J, ties by suit order c s h d:
   save the strong cards for the last trick, which alone counts) or, with ``policy="random"``, a
   uniformly random legal card. The win is 1 if the decider takes the last trick.
3. The chance is the mean over worlds. With few unseen cards (at most ``exact_limit`` possible
   hand combinations, e.g. on the last trick) every consistent world is enumerated: exact, error 0
   (for ``random`` play, every card choice is averaged too). Otherwise ``samples`` worlds are
   drawn (rejection sampling on the uniform re-deal), each play-out a Bernoulli trial: the
   standard error is sqrt(p(1-p)/k); ``ChanceEstimate.interval`` gives the Wilson 95% interval.
   If rejection cannot meet a rare announcement constraint (three tens among few unseen cards)
   within its budget, the signals are dropped for that estimate and it is marked ``relaxed``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from evaluation.bluff.position import Position, position
from rams_env.core.cards import RANKS, suit_of
from rams_env.games.toepen.play import FOLLOW_SUIT, trick_winner
from rams_env.games.toepen.rules import FoldedWinner
from rams_env.games.toepen.state import Signal, ToepenState

REFERENCE_POLICIES = ("low", "random")
TEN, JACK = RANKS.index("10"), RANKS.index("J")
Chooser = Callable[[list[int]], list[int]]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (sensible at 0 and 1, unlike p +- 2 se)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class ChanceEstimate:
    """A winning chance with its error: ``se`` is 0 for exact enumeration."""

    p: float
    se: float
    samples: int  # worlds sampled, or consistent worlds enumerated
    exact: bool
    relaxed: bool = False  # announcement constraints dropped (see the module docstring)

    @property
    def interval(self) -> tuple[float, float]:
        return (self.p, self.p) if self.exact else wilson(self.p * self.samples, self.samples)


class WinChance:
    """Estimates for one Toepen game (rules and table size fixed)."""

    def __init__(self, game, samples: int = 32, exact_limit: int = 1000, policy: str = "low",
                 max_proposals: int = 40_000) -> None:
        if getattr(game, "name", None) != "toepen":
            raise ValueError(f"the winning-chance estimator is for Toepen, not {getattr(game, 'name', game)!r}")
        if not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples={samples!r}: need a whole number >= 1")
        if not isinstance(exact_limit, int) or exact_limit < 0:
            raise ValueError(f"exact_limit={exact_limit!r}: need a whole number >= 0")
        if policy not in REFERENCE_POLICIES:
            raise ValueError(f"policy={policy!r}: choose one of {', '.join(REFERENCE_POLICIES)}")
        self.game, self.samples, self.exact_limit, self.policy = game, samples, exact_limit, policy
        self.max_proposals = max_proposals
        self.n = game.num_players
        self.suit, self.power = game.order.suit, game.order.power
        self.keeps = game.rules.folded_winner is FoldedWinner.KEEPS_TRICK
        self.low_key = [self.power[c] * 64 + c for c in range(len(self.power))]
        self._orders: dict[tuple[tuple[bool, ...], int], list[int]] = {}

    # ------------------------------------------------------------------ public
    def estimate(self, state: ToepenState, seat: int, rng: np.random.Generator,
                 voids: list[frozenset[int]] | None = None) -> ChanceEstimate:
        """``seat``'s chance of winning the last trick at ``state`` (she must still be in play)."""
        if not state.in_play(seat):
            raise ValueError(f"seat {seat} has folded or is out: no winning chance to estimate")
        return self.estimate_position(position(self.game, state, seat, voids), rng)

    def estimate_position(self, pos: Position, rng: np.random.Generator) -> ChanceEstimate:
        if self.keeps and pos.tricks_played == 3:
            return self.last_trick(pos)
        if self.world_count(pos) <= self.exact_limit:
            return self.exact(pos)
        return self.sampled(pos, rng, self.samples)

    def last_trick(self, pos: Position) -> ChanceEstimate:
        """Exact on the last trick, vectorised: every opponent holds one card, no choice is left.

        Same worlds and weights as :meth:`exact` (tuples of distinct allowed cards), so a test can
        compare the two; only for ``keeps_trick`` rules (the highest card of the led suit wins).
        """
        seats = self._remaining(pos.in_play, list(pos.trick), pos.leader)
        allowed = [np.array([c for c in pos.pool if pos.consistent(s, (c,))], dtype=np.int64) for s in pos.opponents]
        grids = [g.ravel() for g in np.meshgrid(*allowed, indexing="ij")] if allowed else []
        size = grids[0].size if grids else 1
        distinct = np.ones(size, dtype=bool)
        for i in range(len(grids)):
            for j in range(i + 1, len(grids)):
                distinct &= grids[i] != grids[j]
        column = dict(zip(pos.opponents, grids, strict=True))
        cards = [np.full(size, c) for _, c in pos.trick]
        cards += [column[s] if s in column else np.full(size, pos.hands[s][0]) for s in seats]
        played = np.stack(cards, axis=1)[distinct]
        order = [s for s, _ in pos.trick] + seats
        suit, power = np.asarray(self.suit)[played], np.asarray(self.power)[played]
        score = np.where(suit == suit[:, :1], power, -1)
        wins = score.argmax(axis=1) == order.index(pos.seat)
        if not len(wins):
            raise RuntimeError("no world is consistent with the decider's information (a bug: the true one is)")
        return ChanceEstimate(float(wins.mean()), 0.0, int(len(wins)), exact=True)

    def _remaining(self, in_play: tuple[bool, ...], trick: list[tuple[int, int]], leader: int) -> list[int]:
        """Seats still to play to the current trick, in order (the whole trick's seats if none has played)."""
        if not trick:
            return self._order(in_play, leader)
        n, done, last = self.n, {s for s, _ in trick}, trick[-1][0]
        return [s for s in ((last + i) % n for i in range(1, n)) if in_play[s] and s not in done]

    def hindsight(self, pos: Position, rng: np.random.Generator) -> float:
        """The reference play-out of the true hands (what staying in would have given)."""
        return self._value(pos, [list(h) for h in pos.hands], self._chooser(rng, exact=False))

    def world_count(self, pos: Position) -> int:
        """Hand combinations to enumerate (before the void/signal filter)."""
        count, left = 1, len(pos.pool)
        for s in pos.opponents:
            count *= math.comb(left, pos.size(s))
            left -= pos.size(s)
        return count

    def exact(self, pos: Position) -> ChanceEstimate:
        """Mean over every consistent world (and every card choice, for ``random`` play)."""
        total, worlds = 0.0, 0
        choose = self._chooser(None, exact=True)
        for hands in self._worlds(pos, 0, list(pos.pool), [list(h) for h in pos.hands]):
            total += self._value(pos, [list(h) for h in hands], choose)
            worlds += 1
        if worlds == 0:
            raise RuntimeError("no world is consistent with the decider's information (a bug: the true one is)")
        return ChanceEstimate(total / worlds, 0.0, worlds, exact=True)

    def sampled(self, pos: Position, rng: np.random.Generator, k: int) -> ChanceEstimate:
        """Mean over ``k`` sampled consistent worlds, one play-out each."""
        worlds, relaxed = self._sample_worlds(pos, rng, k)
        choose = self._chooser(rng, exact=False)
        wins = sum(self._value(pos, hands, choose) for hands in worlds)
        p = wins / len(worlds)
        return ChanceEstimate(p, math.sqrt(p * (1 - p) / len(worlds)), len(worlds), exact=False, relaxed=relaxed)

    # ------------------------------------------------------------------ worlds
    def _worlds(self, pos: Position, i: int, pool: list[int], hands: list[list[int]]):
        """Every assignment of pool cards to the opponents' hands that fits the public facts."""
        if i == len(pos.opponents):
            yield hands
            return
        seat = pos.opponents[i]
        for hand in combinations(pool, pos.size(seat)):
            if pos.consistent(seat, hand):
                hands[seat] = list(hand)
                rest = [c for c in pool if c not in hand]
                yield from self._worlds(pos, i + 1, rest, hands)

    def _sample_worlds(self, pos: Position, rng: np.random.Generator, k: int) -> tuple[list, bool]:
        """``k`` consistent worlds by rejection; announcements dropped (relaxed) if they starve it."""
        worlds = self._reject(pos, rng, k, use_signals=True)
        if len(worlds) >= k:
            return worlds, False
        worlds = self._reject(pos, rng, k, use_signals=False)
        while len(worlds) < k:  # voids so tight that rejection starves: deal the tightest hands first
            worlds.append(self._greedy_world(pos, rng))
        return worlds, True

    @staticmethod
    def _greedy_world(pos: Position, rng: np.random.Generator) -> list[list[int]]:
        """One world respecting the voids, dealt seat by seat (most constrained first): approximate."""
        for _ in range(1000):
            pool = list(pos.pool)
            hands = [list(h) for h in pos.hands]
            allowed = {s: [c for c in pool if suit_of(c) not in pos.voids[s]] for s in pos.opponents}
            for seat in sorted(pos.opponents, key=lambda s: len(allowed[s]) - pos.size(s)):
                fits = [c for c in pool if suit_of(c) not in pos.voids[seat]]
                if len(fits) < pos.size(seat):
                    break
                hands[seat] = [fits[i] for i in rng.choice(len(fits), pos.size(seat), replace=False)]
                pool = [c for c in pool if c not in hands[seat]]
            else:
                return hands
        raise RuntimeError("no deal of the unseen cards fits the public voids (a bug: the true one does)")

    def _reject(self, pos: Position, rng: np.random.Generator, k: int, use_signals: bool) -> list:
        """Uniform re-deals of the pool, kept when they fit; batches grow when few fit (a whistle)."""
        pool = np.asarray(pos.pool, dtype=np.int64)
        sizes = [pos.size(s) for s in pos.opponents]
        total = sum(sizes)
        worlds: list[list[list[int]]] = []
        proposed, batch = 0, max(2 * k, 64)
        while len(worlds) < k and proposed < self.max_proposals:
            batch = min(batch, self.max_proposals - proposed)
            deals = rng.permuted(np.tile(pool, (batch, 1)), axis=1)[:, :total]
            proposed += batch
            ok = np.ones(batch, dtype=bool)
            at = 0
            for seat, size in zip(pos.opponents, sizes, strict=True):
                ok &= self._fits(pos, seat, deals[:, at:at + size], use_signals)
                at += size
            for row in deals[ok][:k - len(worlds)]:
                hands = [list(h) for h in pos.hands]
                at = 0
                for seat, size in zip(pos.opponents, sizes, strict=True):
                    hands[seat] = [int(c) for c in row[at:at + size]]
                    at += size
                worlds.append(hands)
            accepted = max(len(worlds), 1) / proposed
            batch = max(64, int(1.5 * (k - len(worlds)) / accepted))
        return worlds

    @staticmethod
    def _fits(pos: Position, seat: int, block: np.ndarray, use_signals: bool) -> np.ndarray:
        """Vectorised ``Position.consistent`` over sampled hands (rows)."""
        ok = np.ones(len(block), dtype=bool)
        if pos.voids[seat]:
            ok &= ~np.isin(block // len(RANKS), list(pos.voids[seat])).any(axis=1)
        rule = pos.signals[seat]
        if use_signals and rule is not None:
            ranks = block % len(RANKS)
            tens = rule.tens_played + (ranks == TEN).sum(axis=1)
            jacks = rule.jacks_played + (ranks == JACK).sum(axis=1)
            if rule.signal is Signal.NONE:
                ok &= tens < 3
            else:
                need = 3 if rule.signal is Signal.WHISTLE else 4
                ok &= (tens == need) | ((tens < 3) & (jacks == need))
        return ok

    # ----------------------------------------------------------------- play-out
    def _chooser(self, rng: np.random.Generator | None, exact: bool) -> Chooser:
        """Cards to average over at a turn: one for ``low`` or a sampled play, all for exact random."""
        if self.policy == "low":
            key = self.low_key.__getitem__
            return lambda legal: [min(legal, key=key)]
        if exact:
            return lambda legal: list(legal)
        py = random.Random(int(rng.integers(2**63)))
        return lambda legal: [legal[py.randrange(len(legal))]]

    def _value(self, pos: Position, hands: list[list[int]], choose: Chooser) -> float:
        return self._play(pos.seat, pos.in_play, hands, list(pos.trick), pos.leader, pos.tricks_played, choose)

    def _play(self, me: int, in_play: tuple[bool, ...], hands: list[list[int]], trick: list[tuple[int, int]],
              leader: int, played: int, choose: Chooser) -> float:
        """Win value (0..1) of the rest of the deal: no knocks, no folds, ``choose`` plays the cards.

        The engine's trick rules decide (Toepen's follow-suit ``legal_plays`` and ``trick_winner``); the
        seats of a trick are listed once, as the engine's ``_next_to_play`` would call them with nobody
        folding any more (hot path: millions of cards per report).
        """
        legal_plays, game = self.game.order.legal_plays, self.game
        seats = self._remaining(in_play, trick, leader)
        cards = [c for _, c in trick]  # the trick's cards, kept beside it for legal_plays
        while True:
            for seat in seats:
                options = choose(legal_plays(hands[seat], cards, FOLLOW_SUIT))
                if len(options) > 1:
                    total = 0.0
                    for c in options:
                        branch = [list(h) for h in hands]
                        branch[seat].remove(c)
                        total += self._play(me, in_play, branch, [*trick, (seat, c)], leader, played, choose)
                    return total / len(options)
                card = options[0]
                hands[seat].remove(card)
                trick.append((seat, card))
                cards.append(card)
            winner = trick_winner(game, trick, in_play)
            played += 1
            if played == 4:
                return 1.0 if winner == me else 0.0
            trick, cards, seats = [], [], self._order(in_play, winner)

    def _order(self, in_play: tuple[bool, ...], leader: int) -> list[int]:
        """Seats playing a trick led by ``leader`` (or the next player in, if she folded), clockwise."""
        key = (in_play, leader)
        seats = self._orders.get(key)
        if seats is None:
            n = self.n
            seats = self._orders[key] = [s for s in ((leader + i) % n for i in range(n)) if in_play[s]]
        return seats
