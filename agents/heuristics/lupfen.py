"""Lupfen's rule-based player, for every preset (dealer stake, shoving, compulsory, blind, plain).

A trick earns a third of the pot, a trickless player pays the pot (double after a blind lift).
The lift is decided before the trump is turned, so its value is averaged over every card that
may be turned; joining ("mit") and scrap are decided with the trump known. Three Unters always
lift. The trick chances and the card play are :mod:`agents.heuristics.trumpplay`'s, with
Lupfen's rank order (Sow, 10, King, Ober, Unter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from agents.heuristics.base import HeuristicAgent
from agents.heuristics.potbids import expected_bete, expected_opponents, others_in, play_in_trick
from agents.heuristics.trumpplay import CardPlayParams, TrumpTable, estimate_hand, played_cards, unseen_cards
from rams_env.core.cards import LUPFEN_20
from rams_env.games.lupfen.game import RANKS, three_unters
from rams_env.games.lupfen.rules import HAND_SIZE
from rams_env.games.lupfen.state import Act

ACTIVE = ("lift", "join", "forced")
"""View bids of players who play this deal."""
PACK = LUPFEN_20.codes


@dataclass(frozen=True)
class LupfenParams(CardPlayParams):
    lift_margin: float = 0.2
    """Lift when the expected chips exceed this share of the pot (the estimate is optimistic: it takes
    the cards as independent and the players who come in as average hands, so a margin pays)."""
    mit_margin: float = 0.1
    """Play along ("mit") when the expected chips exceed this share of the pot."""
    scrap_margin: float = 0.0
    """Call scrap when playing on is expected to lose more than this share of the pot."""
    blind_lift: bool = False
    """Lift blind (before looking) whenever allowed: double bêtes for the deal's losers."""
    shove: bool = True
    """The dealer shoves the deal on when allowed: her fee is paid either way, the next dealer pays one too
    (against random players shoving raised the advantage from 0.3 to 2.4 chips a deal; even in self-play)."""


class LupfenHeuristic(HeuristicAgent):
    """Lifts and plays along with an expected gain, scraps hopeless hands, wins tricks cheaply, ducks low."""

    params_type = LupfenParams
    STYLES: ClassVar[dict[str, dict[str, Any]]] = {
        "default": {},
        "tight": {"lift_margin": 0.4, "mit_margin": 0.2, "join_rate": 0.9, "shove": False},
        "loose": {"lift_margin": 0.0, "mit_margin": 0.0, "join_rate": 0.5},
    }
    params: LupfenParams

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase, pot = view["phase"], view["pot"]
        if phase == "play":
            return self._play(view, legal)
        if phase == "lift":
            if Act.LOOK in legal:
                return Act.BLIND if self.params.blind_lift else Act.LOOK
            return Act.LIFT if self._lift_value(view) >= self.params.lift_margin * pot else Act.PASS
        if phase == "join":
            return Act.MIT if self._play_value(view) >= self.params.mit_margin * pot else Act.PASS
        if phase == "scrap":
            return Act.SCRAP if self._play_value(view) < -self.params.scrap_margin * pot else Act.KEEP
        if phase == "shove":
            return Act.SHOVE if self.params.shove else Act.DEAL
        raise ValueError(f"{self.name}: unknown Lupfen phase {phase!r}")

    def _gone(self, view: dict[str, Any]) -> list[str]:
        """Cards out of every hand: those played and the turned trump card (it stays on the stock)."""
        return played_cards(view) + ([view["turned"]] if view["turned"] else [])

    def _lift_value(self, view: dict[str, Any]) -> float:
        """Expected chips of lifting, averaged over the card the lift will turn."""
        hand, pot = view["hand"], view["pot"]
        if self.rules.three_unters and three_unters(list(LUPFEN_20.parse(hand))):
            return float(pot)
        _, undecided = others_in(view["bids"], ACTIVE)
        rate = self.params.join_rate
        p_alone = (1 - rate) ** undecided
        opponents = expected_opponents(0, undecided, rate)  # nobody is in before a lift
        candidates = unseen_cards(PACK, hand)
        total = 0.0
        for turned in candidates:
            table = TrumpTable.make(RANKS, turned[-1])
            est = estimate_hand(table, hand, [c for c in candidates if c != turned], opponents, HAND_SIZE)
            total += est.tricks * self.rules.share_per_trick(pot) - expected_bete(
                est, lambda tricks: self.rules.bete_for(pot, tricks))
        return p_alone * pot + (1 - p_alone) * total / len(candidates)

    def _play_value(self, view: dict[str, Any]) -> float:
        """Expected chips of playing with the trump known: shares minus the (doubled when blind) bête."""
        pot = view["pot"]
        opponents = expected_opponents(*others_in(view["bids"], ACTIVE), self.params.join_rate)
        table = TrumpTable.make(RANKS, view["trump"])
        est = estimate_hand(table, view["hand"], unseen_cards(PACK, view["hand"], self._gone(view)), opponents,
                            HAND_SIZE)
        return est.tricks * self.rules.share_per_trick(pot) - expected_bete(
            est, lambda tricks: self.rules.bete_for(pot, tricks, view["blind"]))

    def _play(self, view: dict[str, Any], legal: list[str]) -> str:
        unseen = unseen_cards(PACK, view["hand"], self._gone(view))
        return play_in_trick(TrumpTable.make(RANKS, view["trump"]), view, legal, unseen, ACTIVE, self.params.play_style)
