"""The search agent: any agent, improved at play time by rollouts over re-deals of the cards its seat cannot see.

    search:<base>                                   e.g. ``search:pretrained``, ``search:heuristic``
    search,worlds=N,confidence=T,model=<style>:<base>

At every decision with a choice, it deals the hidden cards again ``worlds`` times so that its seat would see the
same (``Game.shuffle_unseen``: hands, face-down discards and piles it cannot see, never where they actually lie),
plays each legal action out to the deal's end in every world, with ``base`` in its own seat and the heuristic's
``model`` style in the others, and plays the action of the best mean payoff, but only where it beats the base's
own choice clearly (a t-statistic above ``confidence`` over the worlds; agents/rollout.py's
:func:`~agents.rollout.clearly_better`), so a few noisy worlds do not talk it out of a good move.

That is the rollout algorithm of Tesauro and Galperin (1996) on perfect-information Monte Carlo worlds (PIMC, as
in Ginsberg's GIB for bridge): a policy improvement step over ``base``, as strong as the model of the other seats
is right. It is the search of the teacher of expert iteration (training/batched/imitation.py, through
evaluation/ceiling.py's ``Searcher``) played as an agent, one decision at a time (the rollouts of a decision side
by side, the base network batched across them): slower (milliseconds a decision, not microseconds) and stronger,
for people who want a harder opponent. ``pretrained`` stays the agent the gate measures; docs/results.md measures
this one beside it.

Unlike every other agent it reads the game state, since its worlds are re-deals of it, so it is seated through
the deal loop of agents/table.py (every ``rams`` command, :func:`agents.table.chosen`), which asks
:meth:`SearchAgent.act_at`; its choice depends on the hidden cards only through ``shuffle_unseen``, whose draw
depends on which cards are hidden and never on where they lie (tests/test_search_agent.py swaps them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.registry import AgentFactory, AgentSpecError, agent_factory, is_search_spec, parse_params
from agents.rollout import RolloutSearch

DEFAULT_WORLDS = 8
DEFAULT_CONFIDENCE = 2.0
"""The defaults: 8 worlds, and a switch away from the base's choice only at a t-statistic above 2 (about 95%
one-sided), the settings docs/results.md measured."""


@dataclass(frozen=True)
class SearchSpec:
    """A parsed ``search`` spec: the agent improved upon, how many worlds, how sure a switch must be, and the
    heuristic style that models the other seats."""

    base: str
    worlds: int = DEFAULT_WORLDS
    confidence: float = DEFAULT_CONFIDENCE
    model: str = "default"

    @property
    def model_spec(self) -> str:
        return "heuristic" if self.model == "default" else f"heuristic:{self.model}"


def parse_search_spec(spec: str) -> SearchSpec:
    """``search,worlds=16:pretrained`` -> SearchSpec; :class:`AgentSpecError` names what is wrong."""
    head, colon, base = spec.partition(":")
    if not colon or not base:
        raise AgentSpecError(f"agent {spec!r}: a search agent names the agent it improves upon, e.g. "
                             "search:pretrained or search,worlds=16:heuristic")
    if is_search_spec(base):
        raise AgentSpecError(f"agent {spec!r}: a search agent cannot improve upon another search agent")
    options = parse_params([item for item in head.split(",")[1:] if item])
    unknown = set(options) - {"worlds", "confidence", "model"}
    if unknown:
        raise AgentSpecError(f"agent {spec!r}: unknown search option(s) {sorted(unknown)}; "
                             "options: worlds, confidence, model")
    worlds, confidence = options.get("worlds", DEFAULT_WORLDS), options.get("confidence", DEFAULT_CONFIDENCE)
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 2:
        raise AgentSpecError(f"agent {spec!r}: worlds must be an integer of at least 2, not {worlds!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not confidence >= 0:
        raise AgentSpecError(f"agent {spec!r}: confidence must be a number of at least 0, not {confidence!r}")
    return SearchSpec(base, worlds, float(confidence), str(options.get("model", "default")))


def search_factory(spec: str, game) -> AgentFactory:
    """Search agents of ``spec`` at a table of ``game``: the base agent's factory is built once (a checkpoint
    loaded once), each search agent gets its own base agent and its own model players."""
    parsed = parse_search_spec(spec)
    model_factory = agent_factory(parsed.model_spec, game)  # validates the style, as every heuristic spec
    base_factory = agent_factory(parsed.base, game)
    # the base in the searcher's own seat; None when it is the model itself (the model player of that seat)
    own_factory = None if parsed.base == parsed.model_spec else base_factory
    return lambda seed: SearchAgent(game, parsed, spec, model_factory, own_factory, seed)


class SearchAgent:
    """One seat's search agent (see the module docstring); ``act_at`` is its decision."""

    searches = True
    """Read by agents/table.py: this agent chooses from the state (:meth:`act_at`), never from ``act``."""
    reads_observation = False
    reads_view = False

    def __init__(self, game, spec: SearchSpec, name: str, model_factory: AgentFactory,
                 own_factory: AgentFactory | None, seed: int | None) -> None:
        self.name, self.game = name, game
        self.own = own_factory(seed) if own_factory is not None else None
        # its generator is seeded by reset, below
        self.searcher = RolloutSearch(game, model_factory, self.own, spec.worlds, spec.confidence,
                                      np.random.default_rng())
        self.players: list = []
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Seed the re-deals, the model players of every seat and the base agent from ``seed``."""
        seeds = np.random.SeedSequence(seed).generate_state(self.game.num_players + 2, dtype=np.uint32)
        self.searcher.rng = np.random.default_rng(int(seeds[0]))
        self.players = self.searcher.scripted([int(s) for s in seeds[2:]])
        if self.own is not None:
            self.own.reset(int(seeds[1]))

    def act_at(self, state) -> int:
        """The search's action in the seat to act at ``state`` (a rams_env State)."""
        return self.searcher.improved(state, self.players)

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        raise TypeError(f"{self.name} searches re-deals of the game state, which act() is not given: seat it "
                        "through agents/table.py's play() or chosen() (every rams command does), not act()")
