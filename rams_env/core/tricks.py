"""The trick, written once for every game: which cards are legal and who wins.

Games differ only in data: the rank order, the trump suit (or none), permanent top
trumps (Belli, Weli, the Rutenas), and :class:`PlayRules` flags (follow suit, trump
when void, overtrump, head the trick, lead a trump). A :class:`TrickOrder` turns that
data into flat lookup tables once per deal, so the hot path is a few list lookups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rams_env.core.cards import NUM_CARD_CODES, SUITS, RankOrder, code, suit_of

NO_TRUMP = -1
"""Trump suit value for games and deals without a trump suit."""


class Lead(Enum):
    """What a player leading to a trick may lead."""

    ANY = "any"
    TRUMP_IF_ABLE = "trump_if_able"  # e.g. Tippen 1859: the first lead must be a trump


TRUMP_LEAD = Lead.TRUMP_IF_ABLE
"""Tested at every lead, so bound to a module name (see ``rams_env.core.game.StateEnum``)."""


@dataclass(frozen=True)
class PlayRules:
    """Obligations of a player who does not lead (the classic Rams-group rules).

    follow:          must follow the led suit if able.
    trump_when_void: unable to follow, must play a trump if able.
    overtrump:       when trumping a trick that already holds a trump, must beat it if able.
    head:            must beat the card currently winning the trick if able, among the
                     cards the rules above leave (Tippen, Mauscheln: "head the trick").
    """

    follow: bool = True
    trump_when_void: bool = False
    overtrump: bool = False
    head: bool = False


class TrickOrder:
    """Card strengths for one deal: rank order, trump suit and permanent trumps.

    Permanent trumps (``top_trumps``, highest first) belong to the trump suit whatever
    their printed suit and rank just below the first ``top_trumps_below`` trump ranks
    (0: above every trump; 1: after the trump ace, as Belli and Weli). With no trump
    suit they form a trump suit of their own (Mecklenburg's "Ruten oewer").
    """

    TRUMP = len(SUITS)  # effective suit id of every trump when the trump suit is virtual

    def __init__(
        self,
        ranks: RankOrder,
        trump: int = NO_TRUMP,
        top_trumps: Sequence[int] = (),
        top_trumps_below: int = 0,
    ) -> None:
        self.ranks = ranks
        self.trump = trump
        self.top_trumps = tuple(top_trumps)
        self.trump_suit_id = trump if trump != NO_TRUMP else (self.TRUMP if top_trumps else NO_TRUMP)
        self.suit = [suit_of(c) for c in range(NUM_CARD_CODES)]
        self.power = [ranks.strength(c) for c in range(NUM_CARD_CODES)]
        self._place_top_trumps(top_trumps_below)

    def _place_top_trumps(self, below: int) -> None:
        if not self.top_trumps:
            return
        # Trump powers are spread by 100 so top trumps slot in between the ranks.
        for c in range(NUM_CARD_CODES):
            self.power[c] *= 100
        threshold = len(self.ranks.high_to_low) + 1 - below  # powers above stay above
        for i, c in enumerate(self.top_trumps):
            self.suit[c] = self.trump_suit_id
            self.power[c] = threshold * 100 - 1 - i if below else (threshold + 1) * 100 + len(self.top_trumps) - i

    def is_trump(self, card_id: int) -> bool:
        return self.trump_suit_id != NO_TRUMP and self.suit[card_id] == self.trump_suit_id

    def beats(self, challenger: int, holder: int, led_suit: int) -> bool:
        """Whether ``challenger`` beats the currently winning ``holder`` in a trick led in ``led_suit``."""
        s_c, s_h = self.suit[challenger], self.suit[holder]
        trump = self.trump_suit_id
        if s_c == s_h:
            return self.power[challenger] > self.power[holder]
        if trump != NO_TRUMP and s_c == trump:
            return True
        return False if s_h in (trump, led_suit) else s_c == led_suit

    def winning_index(self, cards: Sequence[int]) -> int:
        """Index (in play order) of the card that wins a trick of ``cards``; the first was led."""
        led = self.suit[cards[0]]
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best], led):
                best = i
        return best

    def legal_plays(
        self,
        hand: Sequence[int],
        trick: Sequence[int],
        rules: PlayRules,
        lead: Lead = Lead.ANY,
    ) -> list[int]:
        """The cards of ``hand`` that may be played to ``trick`` (cards so far, led first)."""
        if not trick:
            if lead is TRUMP_LEAD:
                trumps = [c for c in hand if self.is_trump(c)]
                return trumps or list(hand)
            return list(hand)
        led = self.suit[trick[0]]
        followers = [c for c in hand if self.suit[c] == led] if rules.follow else []
        if not rules.head and (followers or not rules.trump_when_void):
            return followers or list(hand)  # following suit, or free to discard: who is winning does not matter
        winner = trick[self.winning_index(trick)]
        if followers:
            return self._beating(followers, winner, led)
        if rules.trump_when_void:
            trumps = [c for c in hand if self.is_trump(c)]
            if trumps:
                trick_trumped = self.is_trump(winner)
                must_beat = rules.head or (rules.overtrump and trick_trumped)
                return self._beating(trumps, winner, led) if must_beat else trumps
        if rules.head:
            return self._beating(list(hand), winner, led)
        return list(hand)

    def _beating(self, candidates: list[int], winner: int, led: int) -> list[int]:
        """Candidates that beat ``winner``, or all of them when none can."""
        beating = [c for c in candidates if self.beats(c, winner, led)]
        return beating or candidates

    def describe(self) -> str:
        trump = "no trump" if self.trump_suit_id == NO_TRUMP else (
            f"trump {SUITS[self.trump]}" if self.trump != NO_TRUMP else "trump: permanent cards only")
        tops = f", permanent trumps {' '.join(code(c) for c in self.top_trumps)}" if self.top_trumps else ""
        return f"{' '.join(self.ranks.high_to_low)}; {trump}{tops}"


def winner_with_precedence(
    order: TrickOrder,
    plays: Sequence[tuple[int, int]],
    eligible: Sequence[bool],
    suit_precedence: Sequence[int],
) -> int:
    """Seat winning ``plays`` ((seat, card) in play order) among eligible seats only.

    Used where a folded player cannot win a trick (a Toepen variation): the highest
    eligible card of the led suit wins; if no eligible player followed, the eligible
    card of the highest-ranking suit in ``suit_precedence`` wins, highest card first.
    """
    candidates = [(seat, c) for seat, c in plays if eligible[seat]]
    if not candidates:
        raise ValueError("no eligible player in the trick")
    led = order.suit[plays[0][1]]
    for suit in (led, *suit_precedence):
        in_suit = [(order.power[c], seat) for seat, c in candidates if order.suit[c] == suit]
        if in_suit:
            return max(in_suit)[1]
    raise ValueError("suit precedence does not cover the cards played")
