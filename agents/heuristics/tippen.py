"""Tippen's rule-based player, for every rule set (modern, 1905, 1859, 1821, Loup and the variations).

Bidding weighs the chips a hand should win against the bête it risks: a trick earns the
rule set's share (a third of the pot or a counter), a trickless player pays the bête (the
pot or the basic stake). The hand's trick chances come from :mod:`agents.heuristics.trumpplay`,
improved by the exchange where the rule set has one; the undecided players are expected to
play at ``join_rate``. The dealer's privileges (knock, sniff), robbing and dropping out use the
same expected values; card play is the shared trump-game policy.
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
from rams_env.core.cards import NATURAL_ORDER
from rams_env.games.tippen.rules import DealerOption, TrumpFrom
from rams_env.games.tippen.state import Act

ACTIVE = ("play", "forced", "privileged")
"""View bids of players who play this deal."""


@dataclass(frozen=True)
class TippenParams(ExchangeParams):
    tap_margin: float = 0.3
    """Tap when the expected chips of playing exceed this share of what the tricks can win (the pot when
    a trick earns a third, the hand size in counters when it earns one). The estimate is optimistic
    (cards taken as independent, the players who come in as average hands): self-play deals showed
    taps estimated at a quarter of the pot losing about a tenth of it, at half the pot winning a quarter."""
    knock_min_pot: float = 2.0
    """The dealer knocks blind when the pot holds at least this many basic stakes (the knocker risks at
    most a double stake for a third of the pot per trick: in self-play knocking from two stakes gained
    about 0.35 chips a deal over knocking from six)."""
    sniff_margin: float = -0.3
    """Sniff when sniffing is estimated worth this many basic stakes more than declining (negative: the
    value of declining is estimated optimistically; in self-play sniffing nearly always paid)."""
    rob: bool = True
    """The holder of the trump 7 robs the upcard (a free trump for the weakest card)."""
    shove: bool = True
    """The dealer shoves the deal on when allowed: her ante is paid either way, the next dealer antes too
    (against random players shoving raised the advantage from 1.1 to 1.7 chips a deal; even in self-play)."""


class TippenHeuristic(HeuristicAgent):
    """Taps with an expected gain, exchanges weak side cards, wins tricks cheaply, ducks low."""

    params_type = TippenParams
    STYLES: ClassVar[dict[str, dict[str, Any]]] = {
        "default": {},
        "tight": {"tap_margin": 0.5, "join_rate": 0.9, "knock_min_pot": 4.0, "sniff_margin": 0.0, "shove": False},
        "loose": {"tap_margin": 0.1, "join_rate": 0.5, "knock_min_pot": 1.0, "sniff_margin": -1.0},
    }
    params: TippenParams

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if phase == "play":
            return self._play(view, legal)
        if phase == "exchange":
            return self._exchange(view, legal)
        if phase == "discard":
            return f"{Act.DISCARD} " + discard_order(self._table(view), view["hand"], self._unseen(view))[0]
        if phase == "bid":
            return Act.TAP if self._tap_value(view) >= self.params.tap_margin * self._tricks_worth(view) else Act.PASS
        if phase == "dealer":
            return self._dealer(view, legal)
        if phase == "drop":
            return Act.TAP if self._drop_play_value(view) >= -view["stake"] else Act.DROP
        if phase == "rob":
            return Act.ROB if self.params.rob else Act.DECLINE
        if phase == "shove":
            return Act.SHOVE if self.params.shove and Act.SHOVE in legal else Act.DEAL
        raise ValueError(f"{self.name}: unknown Tippen phase {phase!r}")

    # ------------------------------------------------------------ knowledge
    def _table(self, view: dict[str, Any], trump: str | None = None) -> TrumpTable:
        return TrumpTable.make(NATURAL_ORDER, trump or view["trump"])

    def _unseen(self, view: dict[str, Any]) -> list[str]:
        """Cards that may lie in other hands: not ours, not played, not our discards, not the upcard on the table."""
        gone = played_cards(view) + view["own_discards"]
        upcard = view["trump_card"]
        if upcard and view["upcard_holder"] is None and self.rules.trump_from is TrumpFrom.TURNED:
            gone.append(upcard)
        return unseen_cards(self.game.pack().codes, view["hand"], gone)

    def _tricks_worth(self, view: dict[str, Any]) -> int:
        """What taking every trick earns: the scale of a bid's margin."""
        return self.rules.share_per_trick(view["pot"]) * self.rules.hand_size

    def _bete(self, est: HandEstimate, pot: int, privileged: bool = False) -> float:
        """The bête the hand should pay on average, by the engine's rule (a privileged dealer's own scale)."""
        return expected_bete(est, lambda tricks: self.rules.bete_for(pot, tricks, privileged))

    def _estimate(self, view: dict[str, Any], table: TrumpTable, hand: list[str], unseen: list[str],
                  opponents: float, exchange: bool) -> HandEstimate:
        limit = min(self.rules.exchange, max(view["talon"], 0)) if exchange else 0
        return estimate_with_exchange(table, hand, unseen, opponents, self.rules.hand_size, limit)

    # ------------------------------------------------------------ bidding
    def _tap_value(self, view: dict[str, Any]) -> float:
        """Expected chips of tapping: the lone player's pot, else shares minus the bête."""
        active, undecided = others_in(view["bids"], ACTIVE)
        pot = view["pot"]
        p_alone = (1 - self.params.join_rate) ** undecided if active == 0 else 0.0
        opponents = expected_opponents(active, undecided, self.params.join_rate)
        table = self._table(view)
        est = self._estimate(view, table, view["hand"], self._unseen(view), opponents, exchange=True)
        played = est.tricks * self.rules.share_per_trick(pot) - self._bete(est, pot)
        return p_alone * pot + (1 - p_alone) * played

    def _drop_play_value(self, view: dict[str, Any]) -> float:
        """Alvensleben's sniffer: playing on risks a double bête."""
        opponents = max(self.params.join_rate * (view["num_players"] - 1), 1.0)
        table = self._table(view)
        est = self._estimate(view, table, view["hand"], self._unseen(view), opponents, exchange=True)
        pot = view["pot"]
        return est.tricks * self.rules.share_per_trick(pot) - self._bete(est, pot, privileged=True)

    def _dealer(self, view: dict[str, Any], legal: list[str]) -> str:
        stake = view["stake"]
        if Act.KNOCK in legal:  # blind: the hand is not seen, only the pot counts
            return Act.KNOCK if view["pot"] >= self.params.knock_min_pot * stake else Act.DECLINE
        sniff, decline = self._sniff_values(view)
        return Act.SNIFF if sniff >= decline + self.params.sniff_margin * stake else Act.DECLINE

    def _sniff_values(self, view: dict[str, Any]) -> tuple[float, float]:
        """Expected chips of sniffing and of declining, averaged over the unfaced upcard."""
        hand, pot, option = view["hand"], view["pot"], self.rules.dealer_option
        candidates = unseen_cards(self.game.pack().codes, hand)
        opponents = max(self.params.join_rate * (view["num_players"] - 1), 1.0)
        share, stake = self.rules.share_per_trick(pot), self.rules.stake
        sniff = decline = 0.0
        for upcard in candidates:
            table = self._table(view, trump=upcard[-1])
            unseen = [c for c in candidates if c != upcard]
            taken = hand + [upcard]
            kept = [c for c in taken if c != discard_order(table, taken, unseen)[0]]
            est = self._estimate(view, table, kept, unseen, opponents, exchange=True)
            played = est.tricks * share - self._bete(est, pot, privileged=True)
            if option is DealerOption.SNIFF_GRUPP:  # must take two tricks
                sniff += played
            else:  # Alvensleben: play on for a double bête, or drop out for a single stake
                sniff += max(played, -stake)
            plain = self._estimate(view, table, hand, unseen + [upcard], opponents, exchange=True)
            decline += max(plain.tricks * share - self._bete(plain, pot), 0.0)
        return sniff / len(candidates), decline / len(candidates)

    # ------------------------------------------------------------ exchange and play
    def _exchange(self, view: dict[str, Any], legal: list[str]) -> str:
        others, _ = others_in(view["bids"], ACTIVE)
        return exchange_choice(self._table(view), view["hand"], self._unseen(view), others, self.rules.hand_size,
                               self.params.exchange_margin, legal, Act)

    def _play(self, view: dict[str, Any], legal: list[str]) -> str:
        return play_in_trick(self._table(view), view, legal, self._unseen(view), ACTIVE, self.params.play_style)
