"""The Fipsen heuristic player, every regional variant: Thedinghausen, Grossenaspe, Prisdorf,
Mecklenburg Anseggerfips and Duttfips.

A club player's reasoning: count the likely tricks of the hand in its best trump suit (trumps
with their guards, aces, kings behind aces; a skat or Dutt to pick up improves the weakest
cards), turn that into the chance of making each contract of the variant's ladder and its
expected points, and bid the best contract worth bidding, or pass. After the auction: keep the
five cards with the best chances, name the suit that makes the contract likeliest (the doubling
preference suit when it pays), play on for a Durch or call fipsen only when nearly sure, and in
play win tricks cheaply, duck what is lost anyway, and trump when it pays (see fipsen_play.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from agents.heuristics.base import HeuristicAgent, Params
from agents.heuristics.fipsen_eval import HAND, Knowledge, estimate, judge_bid, judge_hand, trump_choices
from agents.heuristics.fipsen_play import choose_play, knowledge
from agents.heuristics.trumpplay import PlayStyle
from rams_env.games.fipsen.state import Act


@dataclasses.dataclass(frozen=True)
class FipsenParams(Params):
    """Thresholds of the Fipsen heuristic (chances are probabilities, points are the variant's)."""

    min_make: float = 0.5
    """Bid (or hold) a contract only when the chance to make it is at least this."""
    min_ev: float = 0.1
    """... and its expected points exceed this (0: any contract better than passing)."""
    talon_scale: float = 1.0
    """Weight on the value of cards picked up (skat, Dutt, Kieker cards): above 1 is optimistic."""
    ruff_weight: float = 1.0
    """How much the chance that an opponent void in a suit trumps it lowers a side card's chance."""
    kieker_value: float = 1.5
    """Grossenaspe: expected points of bidding a Kieker (the dealt hand is thrown away, so the hand
    says nothing about it; measured +1.6 over 300 Kiekers with this player's keep/concede choices)."""
    kieker_play: float = 0.25
    """Grossenaspe Kieker: play it when all five tricks are at least this likely, else concede five
    (play scores +10 or -10, conceding -5: playing pays from 0.25 on)."""
    play_on: float = 0.67
    """Grossenaspe: play on for a Durch when winning every remaining trick is at least this likely
    (a Durch doubles the score, a failed one loses it: it pays from 2/3 on)."""
    fipsen_call: float = 0.5
    """Thedinghausen: announce fipsen when all five tricks are at least this likely (+5 or -5)."""
    lead_trumps_from: int = 2
    """Lead the top trump to draw the others when holding at least this many trumps."""
    take_unsafe: bool = True
    """Not last to play, no sure winner: still take the trick with a card that may be overtaken."""

    def __post_init__(self) -> None:
        for name in ("min_make", "kieker_play", "play_on", "fipsen_call"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"FipsenParams.{name} must be a probability in [0, 1], got {value!r}")
        if self.talon_scale < 0 or self.ruff_weight < 0:
            raise ValueError("FipsenParams.talon_scale and ruff_weight must be >= 0")
        if not isinstance(self.lead_trumps_from, int) or self.lead_trumps_from < 1:
            raise ValueError("FipsenParams.lead_trumps_from must be a whole number >= 1, "
                             f"got {self.lead_trumps_from!r}")


class FipsenHeuristic(HeuristicAgent):
    """Rule-based Fipsen player for every variant (see the module docstring)."""

    params_type = FipsenParams
    params: FipsenParams
    STYLES: ClassVar[dict[str, dict[str, Any]]] = {
        "default": {},
        "tight": {"min_make": 0.65, "min_ev": 0.3, "talon_scale": 0.85, "ruff_weight": 1.5, "play_on": 0.8,
                  "fipsen_call": 0.8, "kieker_play": 0.35, "kieker_value": 1.0, "take_unsafe": False},
        "loose": {"min_make": 0.4, "min_ev": 0.0, "talon_scale": 1.2, "ruff_weight": 0.5, "play_on": 0.55,
                  "fipsen_call": 0.45, "kieker_value": 2.5, "kieker_play": 0.2, "lead_trumps_from": 1},
    }

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "play":
            style = PlayStyle(self.params.lead_trumps_from, self.params.take_unsafe)
            return choose_play(self.game, view, legal, style)
        handler = {"auction": self._auction, "discard": self._discard, "trump": self._trump,
                   "call": self._call, "kieker": self._kieker, "play_on": self._play_on}[phase]
        return handler(view, legal)

    # ------------------------------------------------------------------ bidding
    def _auction(self, view: dict[str, Any], legal: list[str]) -> str:
        """The bid (or hold) with the best expected points among those likely enough, else pass;
        a forehand who may not pass (Duttfips) bids the best of its options."""
        know = knowledge(self.game, view)
        labels = [c.label for c in self.game.ladder]
        options = []
        for label in legal:
            if label.startswith(f"{Act.BID} ") or label == Act.HOLD:
                level = labels.index(view["highest_bid"] if label == Act.HOLD else label)
                out = judge_bid(self.game, self.game.ladder[level], view["hand"], know, self.params.talon_scale,
                                self.params.kieker_value, self.params.ruff_weight)
                options.append((out.ev, level, label, out.make))
        worth = [o for o in options if o[3] >= self.params.min_make and o[0] > self.params.min_ev]
        if worth:
            return max(worth)[2]
        return Act.PASS if Act.PASS in legal else max(options)[2]

    # -------------------------------------------------------- declarer's hand
    def _contract(self, view: dict[str, Any]):
        labels = [c.label for c in self.game.ladder]
        return self.game.ladder[labels.index(view["contract"])]

    def _discard(self, view: dict[str, Any], legal: list[str]) -> str:
        """Discard a card outside the best five for the contract (weakest first)."""
        know = knowledge(self.game, view)
        _, keep = judge_hand(self.game, self._contract(view), view["hand"], know, self.params.ruff_weight)
        spare = [c for c in view["hand"] if c not in keep]
        return f"{Act.DISCARD} {spare[0]}"

    def _trump(self, view: dict[str, Any], legal: list[str]) -> str:
        """Name the suit under which the contract is worth most."""
        know = knowledge(self.game, view)
        out, _ = judge_hand(self.game, self._contract(view), view["hand"], know, self.params.ruff_weight)
        label = f"{Act.TRUMP} {out.trump}"
        return label if label in legal else f"{Act.TRUMP} {trump_choices(self.game)[0]}"

    def _kieker(self, view: dict[str, Any], legal: list[str]) -> str:
        """Grossenaspe Kieker: play when a slam is likely enough, else concede five points."""
        know = knowledge(self.game, view)
        out, _ = judge_hand(self.game, self._contract(view), view["hand"], know, self.params.ruff_weight)
        return Act.PLAY_KIEKER if out.make >= self.params.kieker_play else Act.CONCEDE

    # ------------------------------------------------------ slams and Durch
    def _all_tricks(self, view: dict[str, Any], know: Knowledge) -> float:
        """Chance of winning every trick still to play with the trump of the deal."""
        est = estimate(view["trump"], view["hand"], know, self.params.ruff_weight)
        return est.dist[len(view["hand"])]

    def _call(self, view: dict[str, Any], legal: list[str]) -> str:
        """Thedinghausen: announce fipsen only with a near-certain five tricks."""
        p = self._all_tricks(view, knowledge(self.game, view))
        return Act.FIPSEN if p >= self.params.fipsen_call and len(view["hand"]) == HAND else Act.PASS

    def _play_on(self, view: dict[str, Any], legal: list[str]) -> str:
        """Grossenaspe: the bid is made; play on for a Durch only when the rest are likely ours."""
        p = self._all_tricks(view, knowledge(self.game, view))
        return Act.PLAY_ON if p >= self.params.play_on else Act.STOP
