"""The Toepen heuristic's own estimate of winning the last trick, from one seat's view only.

A club player's count, not a search: for each card she might keep for the last trick,
how many higher cards of its suit are still unseen, how likely each is to sit in the
hand of a player still in (cards they hold / cards unseen; players who failed to follow
the current trick's suit hold none of it; a player who whistled or stood up probably
holds tens), and how likely she is to lead the last trick (a second good card to win
the third trick) or else to be led her suit. Everything is computed from the view dict
(``rams_env.games.toepen.observe.view``) and the public rules, so
:func:`hand_strength` is a pure function another tool (the bluff analyser) may import.

The four constants below were fitted (grid search on the Brier score) to 1,500 deals of
4-player heuristic self-play with no knocks or folds, so that the estimate is roughly
calibrated: there, at 3, 4 and 8 players, its mean per trick matches the observed
last-trick win rate within 0.065, and its Brier score at 4 players is 0.164, 0.164, 0.119,
0.040 for tricks 1-4 (a constant 1/4 scores 0.1875). It remains a heuristic's estimate,
cheap enough for thousands of deals, not an exact probability.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from rams_env.core.cards import PIQUET_32
from rams_env.games.toepen.game import DIRTY_RANKS, RANKS
from rams_env.games.toepen.rules import FoldedWinner, ToepenRules

ALL_CODES: tuple[str, ...] = PIQUET_32.codes
FOLLOW_SHARE = 0.1
"""Chance that another leader of the last trick leads the suit of our kept card (about one suit in four)."""
ENTRY_SHARE = 0.3
"""How much each other good card turns into the lead of the last trick (it must win the third trick)."""
LAST_BIAS = 2.0
"""Players keep their best card for the last trick: a higher unseen card is that much likelier still held."""
KEEP_BIAS = 1.5
"""The same, for the card we plan to keep while earlier tricks are still to come."""
SIGNAL_TRUST = 0.8
"""How far a whistle / standing up is read as tens (three or four jacks may also be announced)."""
SIGNAL_TENS = {"whistle": 3, "stand": 4}


class Card(NamedTuple):
    """A card as the heuristic reasons about it: its label, suit letter and power (10 = 8 ... J = 1)."""

    code: str
    suit: str
    power: int


def parse(code: str) -> Card:
    return Card(code, code[-1], RANKS.power[code[:-1]])


def is_dirty(hand: list[str]) -> bool:
    """A hand that may be discarded honestly: only aces, kings, queens and jacks ("Deal")."""
    return bool(hand) and all(c[:-1] in DIRTY_RANKS for c in hand)


@dataclass
class Seen:
    """What one seat knows, digested once per decision (seats are relative: 0 is the observer)."""

    hand: list[Card]
    unseen: dict[str, list[int]]  # suit -> powers of the cards this seat has not seen
    n_unseen: int
    sizes: list[int]  # cards in hand of each player still in (0 for folded / out players)
    in_play: list[bool]
    trick: list[tuple[int, Card]]
    voids: list[set[str]]  # suits a player is known to lack (failed to follow the current trick)
    tens: list[int]  # tens a player still probably holds after a whistle / standing up (0 if no signal)
    tricks_played: int
    cannot_win: bool  # folded players' cards cannot win a trick (de Laaier, Waalwijk)

    @property
    def led(self) -> str | None:
        return self.trick[0][1].suit if self.trick else None

    @property
    def my_trick_card(self) -> Card | None:
        return next((c for r, c in self.trick if r == 0), None)

    def opponents(self) -> list[int]:
        return [r for r in range(1, len(self.sizes)) if self.in_play[r] and self.sizes[r] > 0]

    def still_to_play(self) -> list[int]:
        """Opponents still in who have not played to the current trick (all of them if we lead)."""
        done = {r for r, _ in self.trick}
        return [r for r in self.opponents() if r not in done]


def digest(view: dict[str, Any], rules: ToepenRules) -> Seen:
    """The facts the estimate needs, from the view (no hidden information exists in it)."""
    n = view["num_players"]
    known = set(view["hand"]) | set(view["own_discards"]) | set(view["revealed"])
    for cards in view["played"]:
        known.update(cards)
    unseen: dict[str, list[int]] = {s: [] for s in "cshd"}
    for code in ALL_CODES:
        if code not in known:
            card = parse(code)
            unseen[card.suit].append(card.power)
    in_play = list(view["in_play"])
    sizes = [4 - len(view["played"][r]) if in_play[r] else 0 for r in range(n)]
    trick = [(r, parse(c)) for r, c in view["trick"]]
    voids: list[set[str]] = [set() for _ in range(n)]
    if trick:
        led = trick[0][1].suit
        for r, c in trick:
            if c.suit != led:
                voids[r].add(led)
    tens = [0] * n
    for r, signal in enumerate(view["signals"]):
        if r and signal in SIGNAL_TENS and sizes[r]:
            shown = sum(c.startswith("10") for c in view["played"][r])
            tens[r] = max(0, min(sizes[r], SIGNAL_TENS[signal] - shown))
    return Seen(hand=[parse(c) for c in view["hand"]], unseen=unseen, n_unseen=sum(map(len, unseen.values())),
                sizes=sizes, in_play=in_play, trick=trick, voids=voids, tens=tens,
                tricks_played=view["tricks_played"], cannot_win=rules.folded_winner is FoldedWinner.CANNOT_WIN)


def unbeaten(seen: Seen, card: Card, players: list[int], bias: float = 1.0) -> float:
    """Chance that none of ``players`` holds an unseen card of ``card``'s suit above it."""
    higher = [p for p in seen.unseen[card.suit] if p > card.power]
    if not higher or not players:
        return 1.0
    room = seen.n_unseen - sum(seen.sizes[r] for r in range(1, len(seen.sizes)) if card.suit in seen.voids[r])
    holding = sum(seen.sizes[r] for r in players if card.suit not in seen.voids[r])
    q = min(1.0, bias * holding / room) if room > 0 else 0.0
    unseen_tens = sum(RANKS.power["10"] in ps for ps in seen.unseen.values())
    chance = 1.0
    for p in higher:
        miss = 1.0 - q
        if p == RANKS.power["10"] and unseen_tens:
            for r in players:
                if seen.tens[r] and card.suit not in seen.voids[r]:
                    miss *= 1.0 - SIGNAL_TRUST * min(1.0, seen.tens[r] / unseen_tens)
        chance *= miss
    return chance


def current_best(seen: Seen) -> Card | None:
    """The card now winning the trick among the others' cards (only players still in, if folders cannot win)."""
    led = seen.led
    cards = [c for r, c in seen.trick if r != 0 and c.suit == led and (seen.in_play[r] or not seen.cannot_win)]
    return max(cards, key=lambda c: c.power, default=None)


def trick_chance(seen: Seen, card: Card) -> float:
    """Chance that ``card``, played (or already played) by us to the current trick, wins it."""
    led = seen.led or card.suit
    best = current_best(seen) if seen.trick else None
    if card.suit != led or (best is not None and best.power > card.power):
        return 0.0
    return unbeaten(seen, card, seen.still_to_play(), LAST_BIAS if seen.tricks_played == 3 else 1.0)


def last_trick_chance(seen: Seen, card: Card) -> float:
    """Chance that ``card``, led to the last trick, wins it."""
    return unbeaten(seen, card, seen.opponents(), KEEP_BIAS)


def keep_value(seen: Seen, keep: Card, lead_chance: float) -> float:
    """Winning chance when keeping ``keep`` for the last trick and leading it with ``lead_chance``."""
    win = last_trick_chance(seen, keep)
    return lead_chance * win + (1.0 - lead_chance) * FOLLOW_SHARE * win


def legal_cards(seen: Seen) -> list[Card]:
    """Cards we may play now: follow the led suit if we can."""
    led = seen.led
    follow = [c for c in seen.hand if c.suit == led]
    return follow or list(seen.hand)


def two_card_value(seen: Seen, play: Card, keep: Card) -> float:
    """Third trick: ``play`` now (winning it gives us the last lead), ``keep`` for the last trick."""
    return keep_value(seen, keep, trick_chance(seen, play))


def early_value(seen: Seen, keep: Card) -> float:
    """First or second trick: the lead of the last trick comes from other good cards (or luck)."""
    miss = 1.0
    for card in seen.hand:
        if card != keep:
            miss *= 1.0 - ENTRY_SHARE * last_trick_chance(seen, card)
    share = 1.0 / (1 + len(seen.opponents()))
    return keep_value(seen, keep, share + (1.0 - share) * (1.0 - miss))


def strength(seen: Seen) -> float:
    """Estimated chance of winning the last trick (see :func:`hand_strength`)."""
    if not seen.in_play[0]:
        return 0.0
    if not any(seen.in_play[1:]):
        return 1.0
    mine = seen.my_trick_card
    left = 4 - seen.tricks_played
    if left <= 0:
        return 0.0
    if left == 1:
        card = mine or (seen.hand[0] if seen.hand else None)
        return trick_chance(seen, card) if card else 0.0
    if left == 2:
        if mine is not None:
            return two_card_value(seen, mine, seen.hand[0])
        return max(two_card_value(seen, p, k) for p in legal_cards(seen) for k in seen.hand if k != p)
    return max(early_value(seen, k) for k in seen.hand)


def hand_strength(view: dict[str, Any], rules: ToepenRules) -> float:
    """The heuristic's own estimate, in [0, 1], of winning the last trick from this view.

    0 for a player who has folded or is out; 1 for the only player left in. Pure: the same
    view and rules always give the same number; only what the seat may know is used.
    """
    return strength(digest(view, rules))
