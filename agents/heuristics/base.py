"""What every heuristic player shares: named styles of validated parameters, a private
generator, and the step from the structured view to a legal action id.

A heuristic reads only ``view`` (the seat-relative dict of what its seat may know), the
mask and the public rules (``game.rules``, rank orders, action labels). It never reads
tensor indices of the observation nor the State.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from agents.registry import AgentSpecError
from rams_env.core.game import deep_copied


@dataclasses.dataclass(frozen=True)
class Params:
    """Base for a heuristic's thresholds; subclasses add commented fields with defaults."""


class HeuristicAgent:
    """Base class: ``choose(view, legal)`` returns an action label; the base maps it to an id."""

    params_type: ClassVar[type[Params]] = Params
    reads_observation: ClassVar[bool] = False  # the view only: evaluators may skip encoding the vector
    reads_view: ClassVar[bool] = True
    STYLES: ClassVar[dict[str, dict[str, Any]]] = {"default": {}}
    """Named parameter sets (the default style is the plain parameters)."""

    def __init__(self, game, style: str = "default", seed: int | None = None, name: str | None = None,
                 **overrides: Any) -> None:
        self.validate(style, overrides)
        self.game = game
        self.rules = game.rules
        self.style = style
        self.params = self.params_type(**{**self.STYLES[style], **overrides})
        self.name = name or (f"heuristic:{style}" if style != "default" else "heuristic")
        self.rng = np.random.default_rng(seed)

    @classmethod
    def validate(cls, style: str, overrides: dict[str, Any]) -> None:
        """Raise :class:`AgentSpecError` naming an unknown style or parameter, or a bad value."""
        if style not in cls.STYLES:
            raise AgentSpecError(f"unknown style {style!r} of {cls.__name__}; styles: {', '.join(cls.STYLES)}")
        known = {f.name for f in dataclasses.fields(cls.params_type)}
        unknown = set(overrides) - known
        if unknown:
            raise AgentSpecError(f"unknown parameter(s) {sorted(unknown)} of {cls.__name__}; "
                                 f"parameters: {', '.join(sorted(known))}")
        try:  # values too: each Params checks its own ranges in __post_init__
            cls.params_type(**{**cls.STYLES[style], **overrides})
        except (TypeError, ValueError) as err:
            raise AgentSpecError(f"{cls.__name__} style {style!r}: {err}") from None

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    SHARED_WHEN_COPIED: ClassVar[frozenset[str]] = frozenset({"game", "rules", "style", "params", "name"})
    """Attributes a copy shares: the table, its rules and the frozen parameters never change during play."""

    def __deepcopy__(self, memo: dict) -> HeuristicAgent:
        """An independent player that continues exactly as this one would: its generator's state copied, the
        fixed attributes shared. The rollout search (agents/rollout.py) copies every seat's player with every
        branch, and ``copy.deepcopy``'s generic walk (the generator through pickle) took three times as long."""
        return deep_copied(self, memo, self.SHARED_WHEN_COPIED)

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        legal = [int(a) for a in np.flatnonzero(mask)]
        if not legal:
            raise ValueError(f"{self.name} asked to act with an empty action mask")
        labels = {self.game.actions.label(a): a for a in legal}
        choice = self.choose(view, list(labels))
        if choice not in labels:
            raise RuntimeError(f"{self.name} chose {choice!r}, not among the legal {list(labels)}")
        return labels[choice]

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        """The label of the action to take; ``legal`` is never empty."""
        raise NotImplementedError
