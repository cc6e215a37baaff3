"""A deal as one table of phases: what each phase offers, who handles it, what may follow.

Every game declares its decision phases once, in a :class:`PhaseTable` beside its Game::

    PHASE_TABLE = PhaseTable({
        Phase.BID:  Step(offer(Act.TAP, Act.PASS), bid, then=(Phase.EXCHANGE, Phase.PLAY, END)),
        Phase.PLAY: Step(play.legal, play.play_card, then=(END,), enter=play.begin),
    }, first=(Phase.BID,))

A handler ``(game, state, seat, name, item)`` applies one action and returns what comes next:
``None`` (the same phase goes on; the handler has set who acts), a phase, or :data:`END` (the deal is
settled). Going to a phase runs its ``enter`` (who is asked, in which order), which returns ``None``
when a decision waits there, or the phase that follows instead when nobody has one (a rule switched
off, nobody left to ask). Every transition, skips included, must be listed in the ``then`` of the
phase it leaves: the table is what a reader follows from ``apply_action`` to the next decision, and
:meth:`PhaseTable.go` refuses a transition the table does not list, so the table cannot go stale.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

END = "end of the deal"
"""What a handler returns once it has settled the deal (the game's ``end_deal`` set ``deal_over``)."""

Next = Any
"""A handler's or an ``enter``'s result: None (stay or wait here), a phase of the game, or END."""
Legal = Callable[[Any, Any], list[int]]
Handler = Callable[[Any, Any, int, Any, int], Next]
Enter = Callable[[Any, Any], Next]


def offer(*names: str) -> Legal:
    """The legal-actions function of a phase that always offers the same one-action segments, in this order."""
    def legal(game: Any, state: Any) -> list[int]:
        return list(map(game.ids.__getitem__, names))
    legal.__qualname__ = f"offer({', '.join(names)})"
    return legal


def dealer_acts(game: Any, state: Any) -> Next:
    """The ``enter`` of a phase the dealer decides alone (shove the deal on, knock, sniff)."""
    state.to_act = state.dealer
    return None


@dataclass(frozen=True)
class Step:
    """One decision phase of a deal."""

    legal: Legal
    """The sorted legal action ids of the seat to act, ``(game, state)``."""
    act: Handler
    """Applies one action, ``(game, state, seat, segment name, item)``; returns what comes next. The item is
    the card itself in a card segment (play, discard: ``ActionLayout.decode``), else the index in its segment."""
    then: tuple[Hashable, ...]
    """Every phase (or END) that may follow this one, through the handler or a skip of ``enter``."""
    enter: Enter | None = None
    """Sets up the phase when play goes there (None: the handler leading here has set it up)."""


class PhaseTable:
    """A game's phases, each a :class:`Step`; the one dispatcher from an action to the next decision."""

    def __init__(self, steps: Mapping[Hashable, Step], first: Sequence[Hashable]) -> None:
        self.steps = dict(steps)
        self.first = tuple(first)
        """The phases a deal may open with (``start_deal``'s entry point, skips of ``enter`` after it)."""
        followers = {None: self.first, **{phase: step.then for phase, step in self.steps.items()}}
        for phase, then in followers.items():  # None: the start of a deal
            unknown = [p for p in then if p is not END and p not in self.steps]
            if unknown:
                raise ValueError(f"phase table: {phase} may be followed by {unknown}, which have no step")
        self._then = {phase: frozenset(then) for phase, then in followers.items()}
        # the columns as dicts: one lookup per decision instead of a lookup and an attribute
        self._legal = {phase: step.legal for phase, step in self.steps.items()}
        self._act = {phase: step.act for phase, step in self.steps.items()}
        self._enter = {phase: step.enter for phase, step in self.steps.items()}

    def legal(self, game: Any, state: Any) -> list[int]:
        return self._legal[state.phase](game, state)

    def apply(self, game: Any, state: Any, action: int) -> None:
        """Hand the action to its phase's handler, then go where it leads."""
        name, item = game.actions.decode(action)
        phase = state.phase
        nxt = self._act[phase](game, state, state.to_act, name, item)
        if nxt is not None:
            self.go(game, state, phase, nxt)

    def start(self, game: Any, state: Any, phase: Hashable) -> None:
        """Open a deal's decisions at ``phase`` (one of ``first``)."""
        self.go(game, state, None, phase)

    def go(self, game: Any, state: Any, source: Hashable, nxt: Next) -> None:
        """Enter phases from ``source`` until one waits for a decision or the deal is over."""
        while nxt is not None:
            if nxt not in self._then[source]:
                raise RuntimeError(f"{game.name}: {source} -> {nxt} is not in the phase table")
            if nxt is END:
                return
            state.phase = source = nxt
            enter = self._enter[nxt]
            nxt = None if enter is None else enter(game, state)

    def describe(self) -> str:
        """Markdown table of the phases (generated into the docs)."""
        rows = [f"A deal opens with {' or '.join(_name(p) for p in self.first)}.", "",
                "| phase | legal actions | handler | set up by | may follow |", "| --- | --- | --- | --- | --- |"]
        for phase, step in self.steps.items():
            then = ", ".join(_name(p) for p in step.then)
            enter = f"`{_qualname(step.enter)}`" if step.enter else "the handler leading here"
            rows.append(f"| {_name(phase)} | `{_qualname(step.legal)}` | `{_qualname(step.act)}` | {enter} | {then} |")
        return "\n".join(rows)


def _name(phase: Hashable) -> str:
    return "end" if phase is END else getattr(phase, "name", str(phase)).lower()


def _qualname(fn: Callable) -> str:
    module = getattr(fn, "__module__", "") or ""
    short = module.rsplit(".", 1)[-1]
    name = getattr(fn, "__qualname__", repr(fn))
    return name if short in ("", "phases", "game") or name.startswith("offer(") else f"{short}.{name}"

