"""A private decision asked of every seat in turn, so that being asked gives nothing away.

Some rules offer a choice only to the holder of a hidden combination: Lupfen's scrap (two Unters
and an Ober), Toepen's whistle for three jacks, Tippen's robbing with the trump seven. Asking the
holder alone would make the public part of the position (the phase, the seat to act, PettingZoo's
``agent_selection``) tell everybody who holds it, even when she declines. So every seat that could
hold it is asked, one after the other in seat order: a holder gets the real choice, everyone else
the decline alone (a single legal action). The answer is public; the question is not news.

The seats are asked in turn (rams_env/core/turns.py), as for the games' other rounds; the caller
sets the phase and decides what follows the last answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rams_env.core.turns import ask_in_turn, ask_next


@dataclass(frozen=True)
class PrivateChoice:
    """One such decision: the actions a holder may choose from, the decline, and who holds.

    holds(state, seat): whether ``seat`` holds the combination now (read from the hidden state;
    used only for the legal actions of the seat to act, which only she sees).
    """

    choices: tuple[int, ...]
    decline: int
    holds: Callable[[Any, int], bool]

    def __post_init__(self) -> None:
        if self.decline not in self.choices:
            raise ValueError("a holder must be able to decline too: the decline is one of the choices")

    def begin(self, state: Any, seats: Sequence[int]) -> bool:
        """Ask ``seats`` in this order, the first now; False (nothing changed) when there is nobody to ask."""
        return ask_in_turn(state, seats)

    def legal(self, state: Any) -> list[int]:
        """The whole choice for a holder, the decline alone for everybody else."""
        return sorted(self.choices) if self.holds(state, state.to_act) else [self.decline]

    def ask_next(self, state: Any) -> bool:
        """The seat to act has answered: the next seat is asked; False once everybody has been."""
        return ask_next(state)
