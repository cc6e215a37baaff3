"""The pot games' base (Tippen, Mauscheln, Lupfen; a new pot game starts here): state, session, settlement.

A pot game keeps every chip in a :class:`~rams_env.core.stakes.Ledger`: antes and fees go into the
pot, the players who come in play tricks, each trick earns a share of the pot as it stood when play
began, and a player who missed what she undertook pays a bête into the pot for the next deal (shares
first, bêtes after). A session runs ``rules.session_deals`` deals; each seat's score is its chips won
since the session began. The base does all of that; a game declares its State fields (on
:class:`PotState`), its rules' ``share_per_trick(pot)`` and its bêtes (:meth:`PotGame.seat_bete`), and
its phases. docs/architecture.md has the recipe for a new one.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import sub
from typing import Any, ClassVar

import numpy as np

from rams_env.core.actions import Segment
from rams_env.core.game import DealSpec, Game, OptionError, StateEnum
from rams_env.core.perdeal import per_deal
from rams_env.core.stakes import Ledger
from rams_env.core.trickplay import TrickState

POT_CARRY_OPTIONS = ("pot", "bankrolls")
"""Reset options of a pot game: chips in the pot and each player's bankroll."""


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def ledger_from_carry(carry: Mapping[str, Any], n: int, bankroll: int) -> Ledger:
    """A ledger from reset options ``pot`` (>= 0) and ``bankrolls`` (n whole numbers), validated."""
    if "bankrolls" in carry:
        bankrolls = carry["bankrolls"]
        if not isinstance(bankrolls, (list, tuple)) or len(bankrolls) != n or not all(map(_whole, bankrolls)):
            raise OptionError(f"option 'bankrolls' must be {n} whole numbers, got {bankrolls!r}")
        bankrolls = [int(b) for b in bankrolls]
    else:  # every reset: the rules' bankroll, nothing to check
        bankrolls = [bankroll] * n
    pot = carry.get("pot", 0)
    if type(pot) is not int and not _whole(pot) or pot < 0:  # a plain int (every reset) tested first
        raise OptionError(f"option 'pot' must be a whole number >= 0, got {pot!r}")
    return Ledger(bankrolls, int(pot))


@dataclass
class LedgerState(TrickState):
    """A session played for chips kept in a ledger (the pot games, Fipsen's Thedinghausen hedewigs)."""

    ledger: Ledger = field(default_factory=lambda: Ledger([]))
    session_start: list[int] = field(default_factory=list)  # bankrolls when the session began

    def clear_deal(self, redeal: bool = False) -> None:
        """The per-deal fields, and (a new deal, not a redeal) what each seat paid in this deal."""
        super().clear_deal(redeal)
        if not redeal:
            self.ledger.paid_in = [0] * self.num_players

    def net_results(self) -> list[int]:
        """Each seat's chips won (negative: lost) since the session began: the pot games' scores."""
        return list(map(sub, self.ledger.bankrolls, self.session_start))  # after every move: a loop in C


@dataclass
class PotState(LedgerState):
    """Fields of every pot game: the ledger, each seat's bid this deal, the pot play began with.

    Subclasses set ``NO_BID`` (their Bid enum's undecided member) and fill in ``active``.
    """

    NO_BID: ClassVar[Any]
    """Every seat's bid as a deal starts (the game's Bid.NONE)."""
    bids: list[Any] = field(default_factory=list)  # each seat's public decision this deal
    pot_at_play: int = per_deal(0)  # the pot when trick play began: what shares and bêtes are measured by
    shoves: int = per_deal(0, kept_on_redeal=True)  # games with shoving: times this deal was shoved on
    pending_deal: DealSpec | None = None  # games with shoving: a fixed deal waiting for the dealer who deals

    def clear_deal(self, redeal: bool = False) -> None:
        super().clear_deal(redeal)
        self.bids = [self.NO_BID] * self.num_players

    def active(self, seat: int) -> bool:
        """Whether ``seat`` plays this deal's tricks (fill in from ``bids``)."""
        raise NotImplementedError


def shove_segments(fee: str) -> list[Segment]:
    """The actions of a dealer who may shove: deal, or pass the deal on leaving her ``fee`` in the pot."""
    return [Segment("deal", doc="dealer: deal the cards"),
            Segment("shove", doc=f"dealer: leave the {fee} in the pot and pass the deal on")]


class PotGame(Game):
    """Base of the pot games: session and ledger, play measured by the pot, shares then bêtes, end of a deal.

    A subclass sets ``state_type`` (its PotState) and ``play_phase``, and fills in :meth:`seat_bete`;
    its rules provide ``bankroll``, ``session_deals``, ``pack()``, ``player_range()`` and
    ``share_per_trick(pot)``. Every action handler ends with :meth:`update_scores`.
    """

    carry_options = POT_CARRY_OPTIONS
    state_type: ClassVar[type[PotState]]
    """The game's State class."""
    play_phase: ClassVar[StateEnum]
    """The phase of trick play."""

    def player_range(self) -> tuple[int, int]:
        return self.rules.player_range()

    def pack(self):
        return self.rules.pack()

    def new_session(self, rng: np.random.Generator, dealer: int, carry: Mapping[str, Any]) -> PotState:
        ledger = ledger_from_carry(carry, self.num_players, self.rules.bankroll)
        return self.state_type(num_players=self.num_players, rng=rng, dealer=dealer, ledger=ledger,
                               session_start=list(ledger.bankrolls))

    def session_over(self, state: PotState) -> bool:
        return state.deals_played >= self.rules.session_deals

    def update_scores(self, state: PotState) -> None:
        """Scores are the chips won since the session began (rewards are their changes)."""
        state.scores = state.net_results()

    # ------------------------------------------------------------ play and settlement
    def begin_play(self, state: PotState, leader: int) -> None:
        """Trick play begins, ``leader`` to lead; the pot as it stands now measures the shares and bêtes."""
        state.phase = self.play_phase
        state.pot_at_play = state.ledger.pot
        state.leader = state.to_act = leader

    @abstractmethod
    def seat_bete(self, state: PotState, seat: int, pot: int) -> int:
        """What active ``seat`` pays into the pot after play (0: nothing), ``pot`` being the pot at play."""

    def settle(self, state: PotState) -> None:
        """The end of play: every active seat takes ``rules.share_per_trick(pot)`` per trick won out of the pot,
        then pays its bête into it: shares first, so a bête waits in the pot for the next deal (the order
        every Rams-group source describes). Recorded in the deal's breakdown."""
        pot = state.pot_at_play
        per_trick = self.rules.share_per_trick(pot)
        active = [s for s in range(self.num_players) if state.active(s)]
        shares = {s: per_trick * state.tricks_won[s] for s in active}
        betes = {s: self.seat_bete(state, s, pot) for s in active}
        state.ledger.settle_tricks(shares, betes)
        state.breakdown.update({"shares": shares, "betes": betes, "pot_at_play": pot,
                                "tricks_won": list(state.tricks_won)})

    # ------------------------------------------------------------ shoving
    def shove_actions(self, state: PotState) -> list[int]:
        """Deal, or shove the deal on: each player may shove once per deal, so a deal always happens."""
        ids = self.ids
        return [ids["deal"], ids["shove"]] if state.shoves < self.num_players - 1 else [ids["deal"]]

    def shove(self, state: PotState, seat: int, fee: int) -> None:
        """``seat``'s ante or fee stays in the pot; the next player pays ``fee`` too and decides as dealer."""
        state.shoves += 1
        state.dealer = (seat + 1) % self.num_players
        state.ledger.pay_in(state.dealer, fee)
        state.to_act = state.dealer

    # ------------------------------------------------------------ the end of a deal
    def deal_facts(self, state: PotState) -> dict[str, Any]:
        """A finished deal records the pot left for the next one and what each seat paid in."""
        return {"pot": state.ledger.pot, "paid_in": list(state.ledger.paid_in)}

    def conserved(self, state: PotState) -> dict[str, Any]:
        """Every card in its places (:meth:`card_places_now`) and every chip in the ledger."""
        return {"cards": sorted(c for place in self.card_places_now(state) for c in place),
                "chips": state.ledger.total}

    def card_places_now(self, state: PotState) -> list[list[int]]:
        """Every place a card of the pack is in now (hands, played cards, talon...): fill in."""
        raise NotImplementedError
