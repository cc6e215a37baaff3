"""Mauscheln's rule-based player, for every preset (knocking, quartets, Belli, Weli, the 52-card table).

The sneaker undertakes two tricks (a single bête for one, a double bête for none), a joiner one
(the pot for none); a trick earns a quarter of the pot (or of the Pinke). Each bid weighs those
chips with the hand's trick chances from :mod:`agents.heuristics.trumpplay`, improved by the
exchange of up to four cards, against ``join_rate`` of the undecided players coming in. The
Belli and the Weli are permanent trumps just below the trump ace, as in the engine's trick order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from agents.heuristics.base import HeuristicAgent
from agents.heuristics.potbids import (
    ExchangeParams,
    estimate_with_exchange,
    exchange_choice,
    expected_bete,
    expected_opponents,
    others_in,
    play_in_trick,
)
from agents.heuristics.trumpplay import HandEstimate, TrumpTable, discard_order, played_cards, unseen_cards
from rams_env.core.cards import NATURAL_ORDER, code
from rams_env.games.mauscheln.game import BELLI, WELI
from rams_env.games.mauscheln.rules import HAND_SIZE, TRICKS
from rams_env.games.mauscheln.state import Act

ACTIVE = ("sneak", "join")
"""View bids of players who play this deal."""


@dataclass(frozen=True)
class MauschelnParams(ExchangeParams):
    sneak_margin: float = 0.6
    """Sneak when the expected chips exceed this share of what the four tricks earn (the pot, or the
    Pinke when a trick earns a quarter of it). The estimate is optimistic (cards taken as independent,
    joiners as average hands): in self-play sneaks estimated at half the pot lost about a third of it,
    and only those estimated from three quarters of the pot won."""
    join_margin: float = 0.3
    """Join when the expected chips exceed this share of what the tricks earn (joins estimated at a
    quarter of the pot lost about a tenth of it)."""
    knock: bool = True
    """The dealer knocks on a high turn-up (the trump ace is hers, the hand unseen)."""


class MauschelnHeuristic(HeuristicAgent):
    """Sneaks and joins with an expected gain, exchanges weak side cards, wins tricks cheaply, ducks low."""

    params_type = MauschelnParams
    STYLES: ClassVar[dict[str, dict[str, Any]]] = {
        "default": {},
        "tight": {"sneak_margin": 0.8, "join_margin": 0.5, "join_rate": 0.9, "knock": False},
        "loose": {"sneak_margin": 0.3, "join_margin": 0.1, "join_rate": 0.5},
    }
    params: MauschelnParams

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase, worth = view["phase"], self.rules.share_per_trick(view["pot"]) * TRICKS
        if phase == "play":
            return self._play(view, legal)
        if phase == "exchange":
            return self._exchange(view, legal)
        if phase == "sneak":
            return Act.SNEAK if self._bid_value(view, sneaker=True) >= self.params.sneak_margin * worth else Act.PASS
        if phase == "join":
            return Act.JOIN if self._bid_value(view, sneaker=False) >= self.params.join_margin * worth else Act.PASS
        if phase == "knock":
            return Act.KNOCK if self.params.knock else Act.DECLINE
        raise ValueError(f"{self.name}: unknown Mauscheln phase {phase!r}")

    # ------------------------------------------------------------ knowledge
    def _table(self, view: dict[str, Any]) -> TrumpTable:
        tops = (code(BELLI),) if self.rules.belli else (code(WELI),) if self.rules.weli else ()
        return TrumpTable.make(NATURAL_ORDER, view["trump"], tops, 1)

    def _unseen(self, view: dict[str, Any]) -> list[str]:
        """Cards that may lie in other hands: not ours, not played, not our discards, not the turn-up
        (unless a knocking dealer took it)."""
        gone = played_cards(view) + view["own_discards"]
        if not view["knocked"]:
            gone.append(view["turned"])
        return unseen_cards(self.game.pack().codes, view["hand"], gone)

    def _estimate(self, view: dict[str, Any], opponents: float) -> HandEstimate:
        limit = min(self.rules.max_exchange, view["talon"])
        return estimate_with_exchange(self._table(view), view["hand"], self._unseen(view), opponents, HAND_SIZE,
                                      limit)

    # ------------------------------------------------------------ bidding
    def _bid_value(self, view: dict[str, Any], sneaker: bool) -> float:
        """Expected chips of sneaking (or joining): the pot if nobody comes in, else shares minus bêtes."""
        active, undecided = others_in(view["bids"], ACTIVE)
        rate, pot = self.params.join_rate, view["pot"]
        est = self._estimate(view, expected_opponents(active, undecided, rate))
        played = est.tricks * self.rules.share_per_trick(pot) - expected_bete(
            est, lambda tricks: self.rules.bete_for(pot, tricks, sneaker))
        if sneaker:
            p_alone = (1 - rate) ** undecided
            return p_alone * pot + (1 - p_alone) * played
        return played

    # ------------------------------------------------------------ exchange and play
    def _exchange(self, view: dict[str, Any], legal: list[str]) -> str:
        table, unseen, hand = self._table(view), self._unseen(view), view["hand"]
        if Act.DONE not in legal:  # the knocking dealer makes room for the turn-up
            return f"{Act.DISCARD} " + discard_order(table, hand, unseen)[0]
        others, _ = others_in(view["bids"], ACTIVE)
        return exchange_choice(table, hand, unseen, others, HAND_SIZE, self.params.exchange_margin, legal, Act)

    def _play(self, view: dict[str, Any], legal: list[str]) -> str:
        return play_in_trick(self._table(view), view, legal, self._unseen(view), ACTIVE, self.params.play_style)
