"""Fipsen's cross-check (tests/vector_crosscheck.py): deals queued, bidding styles, sheets, settlements.

Deals the reference starts (a new episode, the session's next deal, a redeal after all passed)
are queued into the batched slot before the step that starts them there. Before every step the
batched dealer and score sheet must equal the reference's; a settlement is compared by its
reason, declarer, points and contract.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

import rams_env
import rams_env.vector as vector
from rams_env.games.fipsen.contracts import Talon
from rams_env.games.fipsen.rules import Auction
from rams_env.vector.fipsen.state import REASONS
from tests.vector_crosscheck import Slot

STYLES = ("uniform", "passing", "low", "always_pass")
"""How a slot's random player bids: uniformly (high contracts, mostly lost), passing often (all-pass
redeals), the lowest bid or a pass (contracts made: play on, stop, Durch; a bid that needs a
holding, Kieker or Ruten, whenever the hand allows it), always passing (slot 0 only: redeals until
the deal ends unplayed). Every way a deal ends is then reached in a few hundred deals."""
PASS_BIAS = 0.5
"""How often the "passing" and "low" styles pass where they may."""


def deal_order(game, state) -> np.ndarray:
    """The pack permutation the reference dealt: hands seat by seat, the turned card, the skat, the talon."""
    turned = [] if state.turned is None else [state.turned]
    cards = [c for hand in state.hands for c in hand] + turned + list(state.skat) + list(state.aside)
    return np.array([game.pack().index[c] for c in cards], np.int64)


def reasons(variant: str) -> list[str]:
    """The ways a deal of ``variant`` can end (the reference's breakdown reasons); "redeals" for all-pass redeals."""
    spec = rams_env.make_game("fipsen", variant=variant).spec
    out = ["played"]
    if spec.play_on:
        out += ["failed", "stopped"]
    if any(c.talon is Talon.KIEKER_ALL for c in spec.ladder):
        out.append("kieker_conceded")
    if spec.auction in (Auction.OPEN, Auction.HOLD):
        out += ["all_passed", "redeals"]
    return out


class FipsenSlot(Slot):
    game_name = "fipsen"

    def start_episode(self):
        """The reference's new episode (with random carry: Thedinghausen's race and pot drawn), queued."""
        state = self.game.new_state(self.rng, None, random_carry=self.random_carry)
        carried = {"races": [state.race], "pots": [state.ledger.pot]} if self.random_carry else {}
        self.env.queue_deals([self.b], deal_order(self.game, state), [state.dealer], **carried)
        return state

    def remember(self) -> int:
        self.redealt = False
        return self.state.redeals

    def queue_started(self, redeals, breakdown) -> None:
        self.redealt = breakdown is None and self.state.redeals > redeals
        if breakdown is not None or self.redealt:
            self.env.queue_deals([self.b], deal_order(self.game, self.state))

    def choose(self, legal: list[int], chooser: np.random.Generator) -> int:
        """A random legal action in the slot's bidding style (see STYLES); uniform outside the auction."""
        style = "always_pass" if self.b == 0 else STYLES[self.b % (len(STYLES) - 1)]
        game, pass_id = self.game, self.game.ids["pass"]
        if pass_id not in legal or style == "uniform":
            return legal[chooser.integers(len(legal))]
        if style == "always_pass" or chooser.random() < PASS_BIAS:
            return pass_id
        bids = [a for a in legal if game.actions.segment(a)[0] == "bid"]
        if style != "low" or not bids:
            return legal[chooser.integers(len(legal))]
        special = [a for a in bids if game.ladder[a - game.actions.start["bid"]].needs]
        return max(special) if special else min(bids)

    def compare_record(self, record) -> None:
        n, b, state = self.game.num_players, self.b, self.state
        assert record["sheet"][:n].tolist() == state.sheet, f"deal {b}: sheets differ"
        assert record["dealer"] == state.dealer, f"deal {b}: dealer differs"
        if self.game.thedinghausen:
            got = (record["race"][:n].tolist(), int(record["pot"]), record["bankrolls"][:n].tolist())
            assert got == (state.race, state.ledger.pot, state.ledger.bankrolls), f"deal {b}: race, pot or hedewigs"

    def compare_settlement(self, record, breakdown) -> None:
        b = self.b
        assert REASONS[record["reason"]] == breakdown["reason"], f"deal {b}: reason {REASONS[record['reason']]}"
        if "declarer" in breakdown:
            got = (int(record["result_declarer"]), int(record["result_points"]),
                   self.game.ladder[record["result_contract"]].label)
            assert got == (breakdown["declarer"], breakdown["points"], breakdown["contract"]), f"deal {b}: {got}"

    def count(self, counts: Counter, action: int, breakdown) -> None:
        counts["redeals"] += self.redealt
        if breakdown is not None:
            counts[breakdown["reason"]] += 1
            counts["races_won"] += "race_winner" in breakdown


class FixedDeal(FipsenSlot):
    """One slot playing one fixed deal (the reset options ``deal`` and ``dealer``) from the start."""

    def __init__(self, game, env, options: dict) -> None:
        self.deal = options
        super().__init__(game, env, 0, 0, False)

    def start_episode(self):
        state = self.game.new_state(np.random.default_rng(0), self.deal)
        self.env.queue_deals([self.b], deal_order(self.game, state), [state.dealer])
        return state


def replay(variant: str, hands: list[str], stock: str, dealer: int, labels: list[str]) -> tuple[list, np.ndarray]:
    """One fixed deal played by both engines with the actions ``labels``, compared on every step;
    returns the reference's breakdowns and the batched rewards summed over the deal."""
    game = rams_env.make_game("fipsen", variant=variant)
    env = vector.make("fipsen", num_envs=1, variant=variant)
    deal = {"hands": [h.split() for h in hands], "stock": stock.split()}
    slot = FixedDeal(game, env, {"deal": deal, "dealer": dealer})
    env.reset(seed=0)
    total = np.zeros(game.num_players, np.float32)
    state = slot.state
    for label in labels:
        slot.compare_position()
        reward, ended, breakdown = slot.step(game.actions.parse(label))
        env.step(np.array([game.actions.parse(label)]))
        assert np.array_equal(env.rewards[0], reward)
        total += env.rewards[0]
    assert ended and env.done[0]
    slot.compare_settlement(env.deals[0], breakdown)
    return state.deal_breakdowns, total
