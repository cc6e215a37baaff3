"""What a deciding Toepen player knows about the cards she cannot see.

The winning-chance estimator (``winchance.py``) re-deals the unseen cards many times and
plays each possible world out. A world must be consistent with everything the decider has
seen, so this module collects, from the State but only from public facts and her own cards:

- the **pool**: the cards she cannot see: the other hands, the others' face-down cards
  (dirty discards, folded hands), the stock, an open dirty claim that is not hers. These are
  exactly the places ``Toepen.shuffle_unseen(state, seat, rng)`` re-deals (a test pins it);
- the **hand sizes** of the opponents still in play (a world gives each that many pool cards);
- **voids**: a player who did not follow the led suit holds no card of it (hands only shrink
  during trick play, so the inference lasts the whole deal). ``shuffle_unseen`` ignores this;
- **signals**: after the announcements, a player who whistled held three tens or three jacks,
  one who stood up held four, and one who stayed silent held fewer than three tens (tens must
  be announced). Counted on her current hand plus the cards she has played since. Also ignored
  by ``shuffle_unseen``.

Not used (documented approximations): what players' knocks, stays and folds suggest about their
cards (the estimator measures card strength, not reads), and the signals of folded players
(their cards only change which cards remain in the pool).
"""

from __future__ import annotations

from dataclasses import dataclass

from rams_env.core.cards import rank_of, suit_of
from rams_env.games.toepen.state import Act, Phase, Signal, ToepenState

PRE_ANNOUNCE = (Phase.DIRTY, Phase.CHALLENGE)
"""Phases in which no announcement has been made yet (signals say nothing)."""


@dataclass(frozen=True)
class SignalRule:
    """What a signal says about one player's hand at the announcements."""

    signal: Signal
    tens_played: int
    jacks_played: int

    def holds(self, hand: list[int] | tuple[int, ...]) -> bool:
        tens = self.tens_played + sum(rank_of(c) == "10" for c in hand)
        jacks = self.jacks_played + sum(rank_of(c) == "J" for c in hand)
        if self.signal is Signal.NONE:
            return tens < 3
        need = 3 if self.signal is Signal.WHISTLE else 4
        return tens == need or (tens < 3 and jacks == need)


@dataclass(frozen=True)
class Position:
    """The decider's information at one decision, plus the true hands (for hindsight only)."""

    seat: int
    num_players: int
    hands: tuple[tuple[int, ...], ...]  # true hands: only ``hands[seat]`` is known to the decider
    in_play: tuple[bool, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    leader: int
    tricks_played: int
    pool: tuple[int, ...]  # cards the decider cannot see
    opponents: tuple[int, ...]  # seats still in play whose hands a world must fill
    voids: tuple[frozenset[int], ...]  # per seat: suits she has shown she lacks
    signals: tuple[SignalRule | None, ...]  # per seat: constraint from the announcements

    def size(self, seat: int) -> int:
        return len(self.hands[seat])

    def consistent(self, seat: int, hand: list[int] | tuple[int, ...]) -> bool:
        """Whether ``hand`` could be ``seat``'s hand given the public voids and signals."""
        voids = self.voids[seat]
        if voids and any(suit_of(c) in voids for c in hand):
            return False
        rule = self.signals[seat]
        return rule is None or rule.holds(hand)


def unseen_pool(state: ToepenState, seat: int) -> list[int]:
    """The cards ``seat`` cannot see: the same places ``Toepen.shuffle_unseen`` re-deals."""
    others = [s for s in range(state.num_players) if s != seat]
    pool = [c for s in others for c in state.hands[s]]
    pool += [c for s in others for c in state.face_down[s]]
    pool += state.stock
    if state.claimant is not None and state.claimant != seat:
        pool += state.claim
    return sorted(pool)


def public_voids(game, state: ToepenState) -> tuple[list[frozenset[int]], list[tuple[int, int]]]:
    """Suits each player has shown void in, replayed from this deal's action history.

    Also returns the current trick as replayed (tests compare it with ``state.trick``).
    Needs one-deal episodes: in a session the history spans several deals.
    """
    n = game.num_players
    voids: list[set[int]] = [set() for _ in range(n)]
    in_play = [not o for o in state.out]
    trick: list[tuple[int, int]] = []
    for seat, action in state.history:
        name, item = game.actions.segment(action)
        if name is Act.PLAY:
            c = game.pack().cards[item]
            if trick and suit_of(c) != suit_of(trick[0][1]):
                voids[seat].add(suit_of(trick[0][1]))
            trick.append((seat, c))
        elif name == "fold":
            in_play[seat] = False
        else:
            continue
        played = {s for s, _ in trick}
        if trick and all(s in played for s in range(n) if in_play[s]):
            trick = []
    return [frozenset(v) for v in voids], trick


def signal_rules(game, state: ToepenState, seat: int) -> list[SignalRule | None]:
    """Per seat, the announcement constraint on its hand (None where nothing is known)."""
    n = game.num_players
    if not game.rules.announcements or state.phase in PRE_ANNOUNCE:
        return [None] * n
    rules: list[SignalRule | None] = []
    for s in range(n):
        if s == seat or not state.in_play(s):
            rules.append(None)
            continue
        played = state.played[s]
        rules.append(SignalRule(state.signals[s], sum(rank_of(c) == "10" for c in played),
                                sum(rank_of(c) == "J" for c in played)))
    return rules


def position(game, state: ToepenState, seat: int, voids: list[frozenset[int]] | None = None) -> Position:
    """The decider's information at ``state`` (voids replayed from the history unless given)."""
    n = game.num_players
    if voids is None:
        voids, _ = public_voids(game, state)
    in_play = tuple(state.in_play(s) for s in range(n))
    opponents = tuple(s for s in range(n) if s != seat and in_play[s] and state.hands[s])
    return Position(
        seat=seat, num_players=n, hands=tuple(tuple(h) for h in state.hands), in_play=in_play,
        trick=tuple(state.trick), leader=state.leader, tricks_played=state.tricks_played,
        pool=tuple(unseen_pool(state, seat)), opponents=opponents,
        voids=tuple(frozenset() if s == seat else voids[s] for s in range(n)),
        signals=tuple(signal_rules(game, state, seat)),
    )
