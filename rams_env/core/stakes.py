"""Chips and lives: pots, antes, shares per trick, bêtes, all conserving exactly.

Every movement of chips goes through a :class:`Ledger`, which only moves whole
chips between bankrolls, the pot and a set-aside reserve (Tippen's maximum bête).
Nothing is created or destroyed, so ``ledger.total`` is an invariant that tests
check after every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class StakeError(ValueError):
    """An impossible stake operation (negative amount, unknown seat)."""


@dataclass
class Ledger:
    """Bankrolls per seat, the pot, and chips set aside for later deals.

    Bankrolls may go negative: players settle up after the session, as at the table.
    """

    bankrolls: list[int]
    pot: int = 0
    set_aside: int = 0
    paid_in: list[int] = field(default_factory=list)  # per seat, this deal (for breakdowns)

    def __post_init__(self) -> None:
        if not self.paid_in:
            self.paid_in = [0] * len(self.bankrolls)

    @property
    def total(self) -> int:
        """Bankrolls + pot + set-aside: constant for the life of the ledger."""
        return sum(self.bankrolls) + self.pot + self.set_aside

    def pay_in(self, seat: int, amount: int) -> None:
        """Seat pays ``amount`` into the pot (ante, stake, bête)."""
        self._check(seat, amount)
        self.bankrolls[seat] -= amount
        self.pot += amount
        self.paid_in[seat] += amount

    def take_out(self, seat: int, amount: int) -> None:
        """Seat takes ``amount`` out of the pot (a share for tricks, the whole pot)."""
        self._check(seat, amount)
        if amount > self.pot:
            raise StakeError(f"seat {seat} cannot take {amount} from a pot of {self.pot}")
        self.pot -= amount
        self.bankrolls[seat] += amount
        self.paid_in[seat] -= amount

    def settle_tricks(self, shares: dict[int, int], betes: dict[int, int]) -> None:
        """The pot games' settlement: every share taken out first, then every bête paid in.

        The order matters: bêtes are paid into the pot that the shares left, for the next deal.
        """
        for seat, amount in shares.items():
            self.take_out(seat, amount)
        for seat, amount in betes.items():
            self.pay_in(seat, amount)

    def transfer(self, payer: int, payee: int, amount: int) -> None:
        """Direct payment between players (scores settled without the pot)."""
        self._check(payer, amount)
        self._check(payee, amount)
        self.bankrolls[payer] -= amount
        self.bankrolls[payee] += amount
        self.paid_in[payer] += amount
        self.paid_in[payee] -= amount

    def cap_pot(self, maximum: int) -> None:
        """Move everything above ``maximum`` from the pot to the set-aside reserve."""
        if self.pot > maximum:
            self.set_aside += self.pot - maximum
            self.pot = maximum

    def release_set_aside(self, maximum: int | None = None) -> None:
        """Return set-aside chips to the pot (up to ``maximum`` in the pot if given)."""
        room = self.set_aside if maximum is None else max(0, min(self.set_aside, maximum - self.pot))
        self.set_aside -= room
        self.pot += room

    def _check(self, seat: int, amount: int) -> None:
        if not 0 <= seat < len(self.bankrolls):
            raise StakeError(f"no seat {seat}")
        if amount < 0 or int(amount) != amount:
            raise StakeError(f"amounts are whole non-negative chips, got {amount}")
