"""The Toepen heuristic player and its personalities for the bluffing studies.

One rule-based player a club player would recognise (source 004, "Advice on skilful play"):
keep the card most likely to win the last trick, win the third trick to lead the last, win
tricks cheaply or duck with the lowest card, knock with a likely winner ("knock before
revealing your 10"), fold when the winning chance is low for the stake, redraw dirty hands.
Its estimate is :func:`agents.heuristics.toepen_strength.hand_strength`.

Personalities are parameter sets of the same player (``STYLES``):

- ``cautious``: never knocks and folds to every knock (and to the poverty raise), the text's
  recipe for never losing a rubber;
- ``honest``: knocks only with a likely winner, never bluffs, never claims a dirty hand falsely,
  never whistles with jacks;
- ``bluffer``: honest, plus bluff knocks and false dirty-hand claims at known rates;
- ``caller``: the default player who never folds.

**Bluff rate, exactly.** At every decision where knocking is legal (a turn to play with
``knock`` offered, or an any-time knock window), the player computes ``s = hand_strength(view,
rules)``. If ``s < weak_threshold`` it draws one uniform number from its own generator and
knocks iff the number is below ``bluff_rate``: P(knock | knock legal and s < weak_threshold) =
``bluff_rate``, per decision (not per deal). With ``s >= weak_threshold`` it never bluffs; it
knocks for value iff its knock-adjusted estimate reaches ``knock_threshold``. Likewise a
dirty-hand claim on a hand that is not dirty happens with probability ``false_dirty_rate`` per
dirty-phase decision with ``s < weak_threshold``, and never otherwise.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from agents.heuristics.base import HeuristicAgent, Params
from agents.heuristics.toepen_strength import (
    Card,
    Seen,
    digest,
    is_dirty,
    last_trick_chance,
    legal_cards,
    strength,
    trick_chance,
    two_card_value,
)
from rams_env.games.toepen.state import Act


@dataclass(frozen=True)
class ToepenParams(Params):
    """Thresholds of the Toepen heuristic; chances are its own last-trick estimates in [0, 1]."""

    knock_threshold: float = 0.5
    """Knock for value when the estimate (lowered after another player's knock) reaches this."""
    weak_threshold: float = 0.2
    """Below this estimate a hand is weak: a knock with it is a bluff; a false dirty claim is possible."""
    bluff_rate: float = 0.03
    """P(knock | knock legal, estimate < weak_threshold), one independent draw per such decision."""
    false_dirty_rate: float = 0.0
    """P(claim dirty | hand not dirty, estimate < weak_threshold), per dirty-phase decision."""
    fold_threshold: float = 0.6
    """Stay against a raise to stake 2 iff the adjusted estimate reaches this; at stake k, this * 2 / k
    (0.5 is break-even: folding costs k - 1 lives for sure, staying k with the losing chance)."""
    knock_respect: float = 0.6
    """How much a knock by another player still in lowers our estimate p: p * (1 - respect * (1 - p))."""
    danger_margin: float = 0.15
    """Extra winning chance demanded to stay (or to knock for value) when losing would cost our last lives."""
    challenge_rate: float = 0.05
    """P(challenge) of another's dirty-hand claim; never when a lost challenge would cost our last life."""
    jack_announce_rate: float = 0.5
    """P(whistle / stand up) holding three / four jacks: an allowed bluff that looks like tens."""
    never_knock: bool = False
    """Never knock (value or bluff)."""
    never_fold: bool = False
    """Stay in against every knock and the poverty raise."""
    always_fold: bool = False
    """Fold against every knock and the poverty raise."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" or isinstance(f.default, bool):
                if not isinstance(value, bool):
                    raise ValueError(f"{f.name}={value!r}: must be true or false")
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"{f.name}={value!r}: must be a number in [0, 1]")
        if self.weak_threshold > self.knock_threshold:
            raise ValueError(f"weak_threshold={self.weak_threshold} exceeds knock_threshold={self.knock_threshold}")
        if self.never_fold and self.always_fold:
            raise ValueError("never_fold and always_fold cannot both be true")


HONEST = {"bluff_rate": 0.0, "false_dirty_rate": 0.0, "jack_announce_rate": 0.0}


class ToepenHeuristic(HeuristicAgent):
    """Rule-based Toepen player; reads only the view and the public rules."""

    params_type = ToepenParams
    params: ToepenParams
    STYLES: ClassVar[dict[str, dict[str, Any]]] = {
        "default": {},
        "cautious": {**HONEST, "never_knock": True, "always_fold": True, "challenge_rate": 0.0},
        "honest": dict(HONEST),
        "bluffer": {**HONEST, "bluff_rate": 0.5, "false_dirty_rate": 0.3, "jack_announce_rate": 1.0},
        "caller": {"never_fold": True},
    }

    # ------------------------------------------------------------------ decisions
    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        seen = digest(view, self.rules)
        phase = view["phase"]
        if phase == "play":
            if Act.KNOCK in legal and self._knocks(view, seen):
                return Act.KNOCK
            return self._card(seen, [label for label in legal if label != Act.KNOCK])
        if phase == "window":
            return Act.KNOCK if self._knocks(view, seen) else Act.PASS
        if phase == "respond":
            return Act.STAY if self._stays(view, seen) else Act.FOLD
        if phase == "dirty":
            return Act.DIRTY if self._claims_dirty(view, seen) else Act.KEEP
        if phase == "challenge":
            lives_left = view["lives"] - view["lives_lost"][0]
            return Act.CHALLENGE if lives_left > 1 and self._draw(self.params.challenge_rate) else Act.ACCEPT
        if phase == "announce":  # everyone is asked; only three or four jacks may announce (and then we draw)
            return Act.ANNOUNCE if Act.ANNOUNCE in legal and self._draw(self.params.jack_announce_rate) else Act.SILENT
        raise ValueError(f"{self.name}: unknown Toepen phase {phase!r}")

    def _draw(self, rate: float) -> bool:
        """One uniform draw from the agent's own generator (so its stream depends on the views seen only)."""
        return bool(self.rng.random() < rate)

    def _respected(self, view: dict[str, Any], p: float) -> float:
        """Our estimate lowered when another player still in has knocked this deal (she may well hold it)."""
        knocked = any(k and view["in_play"][r] for r, k in enumerate(view["knocks"]) if r)
        return p * (1.0 - self.params.knock_respect * (1.0 - p)) if knocked else p

    def _knocks(self, view: dict[str, Any], seen: Seen) -> bool:
        """Value knock with a likely winner; with a weak hand, a bluff at exactly ``bluff_rate`` per decision."""
        if self.params.never_knock:
            return False
        s = strength(seen)
        if s < self.params.weak_threshold:
            return self._draw(self.params.bluff_rate)
        at_risk = view["lives"] - view["lives_lost"][0] <= view["stake"] + 1  # losing now would end our session
        needed = self.params.knock_threshold + (self.params.danger_margin if at_risk else 0.0)
        return self._respected(view, s) >= needed

    def _stays(self, view: dict[str, Any], seen: Seen) -> bool:
        """Stay iff the adjusted chance beats the stake's threshold (more when our last lives are at stake)."""
        p = self.params
        if p.never_fold or p.always_fold:
            return p.never_fold
        stake, lives_left = view["stake"], view["lives"] - view["lives_lost"][0]
        if lives_left <= stake - 1:
            return True  # folding loses the session as surely as losing the trick would
        needed = p.fold_threshold * 2.0 / stake + (p.danger_margin if lives_left <= stake else 0.0)
        return self._respected(view, strength(seen)) >= needed

    def _claims_dirty(self, view: dict[str, Any], seen: Seen) -> bool:
        """Always redraw a real dirty hand; a weak clean hand is claimed dirty at ``false_dirty_rate``."""
        if is_dirty(view["hand"]):
            return True
        return strength(seen) < self.params.weak_threshold and self._draw(self.params.false_dirty_rate)

    # ------------------------------------------------------------------ card play
    def _card(self, seen: Seen, legal: list[str]) -> str:
        cards = [c for c in legal_cards(seen) if c.code in legal]
        if len(cards) != len(legal):
            raise RuntimeError(f"{self.name}: view and legal cards disagree: {legal}")
        if len(cards) == 1:
            return cards[0].code
        if 4 - seen.tricks_played == 2:
            return self._third_trick(seen, cards).code
        return self._early_trick(seen, cards).code

    @staticmethod
    def _third_trick(seen: Seen, cards: list[Card]) -> Card:
        """Two cards left: play the one whose (chance of winning this trick, card kept) is best."""
        def value(card: Card) -> tuple[float, int]:
            keep = next(c for c in seen.hand if c != card)
            return two_card_value(seen, card, keep), -card.power

        return max(cards, key=value)

    @staticmethod
    def _early_trick(seen: Seen, cards: list[Card]) -> Card:
        """Keep the best last-trick card and a second good card; spend the rest, cheaply."""
        def rank(card: Card) -> tuple[float, int]:
            return last_trick_chance(seen, card), card.power

        keep, entry = sorted(seen.hand, key=rank, reverse=True)[:2]
        spare = ([c for c in cards if c not in (keep, entry)] or [c for c in cards if c != keep] or cards)
        if not seen.trick:
            others = [c for c in seen.hand if c != keep]
            if all(trick_chance(seen, c) >= 0.5 for c in others):
                return max(spare, key=lambda c: (trick_chance(seen, c), c.power))  # keep the lead to the end
            return min(spare, key=rank)
        beaters = [c for c in spare if trick_chance(seen, c) > 0.0]
        if beaters:
            return min(beaters, key=lambda c: c.power)  # win it cheaply
        return min(spare, key=rank)  # the trick is lost: duck with the lowest card
