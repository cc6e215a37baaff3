"""The contract every game fills in: Game (fixed parameters) and State (the position).

As in OpenSpiel, a :class:`Game` holds what does not change during play (rules,
number of players, action and observation layouts) and knows how to act on a
:class:`State` (the mutable position, including its own random generator so that a
seeded state is reproducible whatever else uses ``random`` or ``numpy``).

The base class handles everything generic: reset options, the deal/session loop,
score bookkeeping for rewards, cloning. A game module implements the hooks marked
"fill in". Nothing here imports Gymnasium or PettingZoo.
"""

from __future__ import annotations

import copy
import functools
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from operator import sub
from typing import Any, ClassVar

import numpy as np

from rams_env.core.actions import ActionLayout
from rams_env.core.cards import CardError, Pack, check_disjoint, code
from rams_env.core.global_state import Place, state_layout
from rams_env.core.observation import ObservationLayout
from rams_env.core.perdeal import PER_DEAL, per_deal_dict, per_deal_list
from rams_env.core.phases import PhaseTable
from rams_env.core.rules import Rules, RulesError
from rams_env.core.tricks import TrickOrder


class OptionError(ValueError):
    """A reset option whose value the game cannot use (a bad deal, dealer, carry-over state)."""


class UnknownResetOption(UserWarning):
    """A reset option key the game does not know (ignored, with this warning)."""



class StateEnum(Enum):
    """Base of the enums a State holds (phases, bids, signals): hashed by identity.

    Members are singletons (copies and pickles give the same object back), so identity is
    their equality; Enum's own hash hashes the name in Python, and the observations hash
    phases and bids at every decision (the phase index, the seat block's cache key).

    Code that runs at every decision tests members bound to module names (``DEALER = Phase.DEALER``) or
    frozensets of them, not members read from their class (``Phase.DEALER``): CPython 3.11 has no specialized
    path for a class attribute, and reading one from an enum costs about 1,000 machine instructions (at Tippen
    3p, 7 such reads a decision made 4% of its instructions).
    """

    __hash__ = object.__hash__

@dataclass
class State:
    """Fields every game's state has; games subclass it with their own fields.

    scores: each seat's net result so far in this episode, in the game's units
            (Toepen: minus lives lost; pot games: chips won minus chips paid). The
            environment's rewards are the changes of these numbers.
    Fields declared with rams_env/core/perdeal.py's helpers start every deal afresh (:meth:`clear_deal`).
    """

    num_players: int
    rng: np.random.Generator
    dealer: int = 0
    to_act: int | None = None
    deal_over: bool = False
    terminal: bool = False
    scores: list[int] = field(default_factory=list)
    deal_start_scores: list[int] = field(default_factory=list)
    deals_played: int = 0
    deal_results: list[list[int]] = field(default_factory=list)
    breakdown: dict[str, Any] = per_deal_dict(kept_on_redeal=True)  # how this deal was settled
    queue: list[int] = per_deal_list()  # seats still to ask in turn, the first to act (rams_env/core/turns.py)
    deal_breakdowns: list[dict[str, Any]] = field(default_factory=list)
    history: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.scores:
            self.scores = [0] * self.num_players

    def clear_deal(self, redeal: bool = False) -> None:
        """Every per-deal field as a deal starts; ``redeal``: the cards are dealt again within the deal,
        the fields kept on a redeal stay."""
        constants, made = deal_start(type(self), redeal)
        self.__dict__.update(constants)
        n = self.num_players
        for name, make in made:
            setattr(self, name, make(n))

    def clone(self) -> State:
        """An independent copy (its generator too), for search and tests."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> State:
        """``copy.deepcopy``'s copy, field by field, with the generator copied by its state
        (:func:`copied_generator`) where the generic copy pickles it: a search clones a state for every branch."""
        return deep_copied(self, memo)


def copied_generator(rng: np.random.Generator) -> np.random.Generator:
    """A generator of ``rng``'s kind in ``rng``'s state: the same draws from here on, drawn independently (a third
    of ``copy.deepcopy``'s time, which goes through pickle)."""
    bit_generator = type(rng.bit_generator)(0)  # seeded only to exist: its state is overwritten
    bit_generator.state = rng.bit_generator.state
    return np.random.Generator(bit_generator)


def deep_copied(obj: Any, memo: dict, shared: frozenset[str] = frozenset()) -> Any:
    """What ``copy.deepcopy`` makes of an object whose attributes live in its ``__dict__``, for a
    ``__deepcopy__``: each attribute deep-copied (``memo`` kept, so what is shared stays shared), a generator by
    :func:`copied_generator`, the attributes named in ``shared`` (fixed for the object's life) not copied."""
    clone = object.__new__(type(obj))
    memo[id(obj)] = clone
    for key, value in vars(obj).items():
        if key in shared:
            copied = value
        elif isinstance(value, np.random.Generator):
            if id(value) not in memo:
                memo[id(value)] = copied_generator(value)
            copied = memo[id(value)]
        else:
            copied = copy.deepcopy(value, memo)
        setattr(clone, key, copied)
    return clone


@functools.cache
def deal_start(state_type: type[State], redeal: bool) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]]:
    """How a State class's per-deal fields start a deal (or a redeal), read once per class, not per deal: the
    fields that start as one immutable value, by name (one dict update sets them all), and the others with
    the function that makes each anew."""
    fresh = [(f.name, f.metadata[PER_DEAL]) for f in fields(state_type) if PER_DEAL in f.metadata]
    fresh = [(name, how) for name, how in fresh if not (redeal and how.kept_on_redeal)]
    return ({name: how.make(0) for name, how in fresh if how.constant},
            tuple((name, how.make) for name, how in fresh if not how.constant))


def redeal_unseen(groups: Sequence[list[int]], rng: np.random.Generator) -> None:
    """Deal the cards of ``groups`` (lists changed in place) anew among them, every size kept.

    The helper behind every game's ``shuffle_unseen``: pass the places a seat cannot see. The cards are sorted
    before they are dealt, so the deal drawn depends only on which cards are hidden, never on where they lie: a
    searcher that samples its worlds with it chooses alike whatever the true deal behind what it saw.
    """
    pool = sorted(c for g in groups for c in g)
    pool = [pool[i] for i in rng.permutation(len(pool))]
    at = 0
    for g in groups:
        g[:] = pool[at:at + len(g)]
        at += len(g)


def _card_group(pack: Pack, given: Any, what: str) -> tuple[int, ...]:
    """Cards of a fixed deal given as a list of codes (or one string of codes), checked against the pack."""
    if not isinstance(given, (str, list, tuple)):
        raise CardError(f"{what} must be a list of card codes, got {given!r}")
    return tuple(pack.parse(given))


@dataclass(frozen=True)
class DealSpec:
    """A fixed deal from reset options: hands per seat and the stock top first."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    extra: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Other named cards a game accepts in ``deal`` (e.g. ``"turned"``, ``"skat"``)."""


class Game(ABC):
    """Base of every game. Subclasses set the class attributes and fill in the hooks."""

    name: ClassVar[str]
    rules_type: ClassVar[type[Rules]]
    default_players: ClassVar[int] = 4
    score_unit: ClassVar[str] = "chips"
    """What a score counts, for tables printed to people (Toepen: lives; a loss of 2 lives scores -2)."""
    carry_options: ClassVar[tuple[str, ...]] = ()
    """Reset options that set state carried across deals (lives, pot, bankrolls)."""
    preset_aliases: ClassVar[tuple[str, ...]] = ()
    """Other keyword names for ``preset`` in ``make`` (Tippen's ``ruleset``, Fipsen's ``variant``)."""
    deal_options: ClassVar[tuple[str, ...]] = ("hands", "stock")
    """Keys accepted inside ``options["deal"]``."""
    card_places: ClassVar[dict[str, Place]] = {"hands": Place.SEATS}
    """State fields that hold cards nobody, or not everybody, sees (global_state.py puts them in ``state()``)."""
    observer: ClassVar[Any]
    """The game's observe module: ``encode``, ``view`` and ``render`` of (game, state, seat), which the
    methods of the same names call."""
    phase_table: ClassVar[PhaseTable]
    """The deal as a table of phases (rams_env/core/phases.py): ``PHASE_TABLE`` at the end of the game's
    game.py, set there with ``<Game>.phase_table = PHASE_TABLE`` (its steps name the class's methods)."""

    def __init__(self, num_players: int | None = None, rules: Rules | None = None, *, session: bool = False):
        self.rules = rules if rules is not None else self.rules_type()
        if not isinstance(self.rules, self.rules_type):
            raise RulesError(f"{self.name} needs {self.rules_type.__name__}, got {type(self.rules).__name__}")
        lo, hi = self.player_range()
        n = self.default_players if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not lo <= n <= hi:
            raise RulesError(f"num_players={n!r}: {self.name} with these rules takes {lo} to {hi} players")
        self.num_players = int(n)
        self.session = bool(session)
        self.actions: ActionLayout = self.build_actions()
        self.ids: dict[str, int] = self.actions.singles
        """Action id of each one-action segment by name (``self.ids["pass"]``)."""
        self.observation: ObservationLayout = self.build_observation()
        self.trick_orders: tuple[TrickOrder, ...] = ()
        """Every trick order a deal of this table may play under, one per slot of the observation's trump
        one-hot in suit order (one order for a game without a trump field), set by the game: the public card
        strengths the card-play features read (rams_env/core/card_features.py) and the batched kernels' trick
        tables."""

    @functools.cached_property
    def state_layout(self) -> ObservationLayout:
        """Named fields of the global state vector (PettingZoo's ``state()``; see global_state.py)."""
        return state_layout(self)

    # ----------------------------------------------------------------- fill in
    @abstractmethod
    def player_range(self) -> tuple[int, int]:
        """Smallest and largest table these rules allow."""

    @abstractmethod
    def build_actions(self) -> ActionLayout: ...

    @abstractmethod
    def build_observation(self) -> ObservationLayout: ...

    @abstractmethod
    def new_session(self, rng: np.random.Generator, dealer: int, carry: Mapping[str, Any]) -> State:
        """A state at the start of a session, carry-over state applied, no deal yet."""

    @abstractmethod
    def start_deal(self, state: State, deal: DealSpec | None) -> None:
        """Deal (``deal`` fixed, or shuffled from ``state.rng``) and set who acts."""

    def legal_actions(self, state: State) -> list[int]:
        """Sorted legal action ids of the seat to act (empty when terminal): the phase's, from the table."""
        return [] if state.terminal else self.phase_table.legal(self, state)

    def apply_action(self, state: State, action: int) -> None:
        """Play a legal action through the phase table (its handler sets ``state.deal_over`` when the deal is
        settled), then bring the scores up to date."""
        self.phase_table.apply(self, state, action)
        self.update_scores(state)

    def update_scores(self, state: State) -> None:
        """Recompute ``state.scores`` after a move: nothing here (Toepen's lives move as they are paid); the
        pot games derive theirs from the ledger (``PotGame.update_scores``)."""
        return

    def encode(self, state: State, seat: int, out: np.ndarray) -> None:
        """Write what ``seat`` may know into the zeroed vector ``out`` (default: the observer's ``encode``)."""
        self.observer.encode(self, state, seat, out)

    def view(self, state: State, seat: int) -> dict[str, Any]:
        """Structured, seat-relative view of exactly what ``seat`` may know (default: the observer's)."""
        return self.observer.view(self, state, seat)

    def render(self, state: State, seat: int | None = None) -> str:
        """A readable table, from a seat's view, or every hand when ``seat`` is None (default: the observer's)."""
        return self.observer.render(self, state, seat)

    @abstractmethod
    def shuffle_unseen(self, state: State, seat: int, rng: np.random.Generator) -> State:
        """A clone where the cards ``seat`` cannot see are dealt anew among the places
        they may be (other hands, stock, face-down discards), every size kept.

        ``seat``'s observation and view must not change: the conformance tests check
        it for every game, and analysis tools sample possible worlds with it.
        """

    def conserved(self, state: State) -> dict[str, Any]:
        """Quantities no action may change (cards in play, chips in the game).

        The conformance tests compare them before and after every step of thousands
        of random deals; games return e.g. ``{"cards": sorted(all cards), "chips": ledger.total}``.
        """
        return {}

    def compulsory_reveals(self, state: State) -> Any:
        """What the rules oblige players to make public about cards the others cannot see, as it stands now
        (Toepen's whistle for three tens, Lupfen's Ständer and three Unters, Mauscheln's quartets,
        the trump suit a knocking Tippen dealer announces).

        Two deals that differ here are told apart by the rules themselves, not by a leak: the hidden-information
        check (tests/conformance.py) stops comparing them there. Keep it to what the source makes compulsory;
        a choice belongs in an action (see rams_env/core/private_choice.py).
        """
        return None

    def session_over(self, state: State) -> bool:
        """Whether the session has ended (default: sessions are single deals)."""
        return True

    def end_deal(self, state: State, reason: str) -> None:
        """Every way a deal ends: its breakdown records ``reason`` and :meth:`deal_facts`, the next seat deals."""
        state.breakdown.update({"reason": reason, **self.deal_facts(state)})
        state.dealer = (state.dealer + 1) % self.num_players
        state.deal_over, state.to_act, state.queue = True, None, []

    def deal_facts(self, state: State) -> dict[str, Any]:
        """What the breakdown of every finished deal records besides its reason (fill in; default nothing)."""
        return {}

    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        """Plausible carried-over state for training on mid-session deals."""
        return {}

    @property
    def measured_mid_session(self) -> bool:
        """Whether a deal measured for strength starts from :meth:`random_carry`'s state rather than a session's
        start: true where a session's first deal is not the game these rules are played for (a forced round, the
        first deal of a race), so fresh deals would measure little (``rams strength``'s gate reads it)."""
        return False

    def pack(self) -> Pack:
        """The pack dealt by these rules (used to validate fixed deals)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- generic
    def new_state(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None,
                  random_carry: bool = False) -> State:
        """A new episode: options may fix the deal, the dealer and carry-over state.

        Bad options raise :class:`OptionError` and leave ``rng`` as it was: the options are
        checked before anything is drawn, and the game's own checks of carried-over state
        (made while building the state) put the generator back, so a refused reset never
        changes the deals that follow. (Without carry-over options or a fixed deal nothing can be refused
        there, and the generator's state, which costs as much to read as a draw, is not saved.)
        """
        options = self._known_options(options)
        dealer = self._check_dealer(options.pop("dealer", None))
        deal = self.parse_deal(options.pop("deal")) if "deal" in options else None
        saved = rng.bit_generator.state if options or deal is not None else None
        try:
            if dealer is None:
                dealer = int(rng.integers(self.num_players))
            carry = {**(self.random_carry(rng) if random_carry else {}), **options}
            state = self.new_session(rng, dealer, carry)
            self._start_deal(state, deal)
        except OptionError:
            if saved is not None:
                rng.bit_generator.state = saved
            raise
        return state

    def _known_options(self, options: Any) -> dict[str, Any]:
        """The reset options as a new dict, unknown keys dropped with a warning; not a mapping: OptionError."""
        if options is None:
            return {}
        allowed = {"deal", "dealer", *self.carry_options}
        if not isinstance(options, Mapping):
            raise OptionError(f"reset options must be a mapping such as {{'dealer': 0}} (keys: "
                              f"{', '.join(sorted(allowed))}), got {type(options).__name__} {options!r}")
        options = dict(options)
        unknown = sorted(set(options) - allowed, key=repr)
        if unknown:  # PettingZoo's api_test passes arbitrary options: warn, never guess
            warnings.warn(
                f"ignoring unknown reset option {', '.join(map(repr, unknown))} for {self.name}; "
                f"valid: {', '.join(sorted(allowed))}", UnknownResetOption, stacklevel=4)
            for key in unknown:
                del options[key]
        return options

    def _check_dealer(self, dealer: Any) -> int | None:
        """The ``dealer`` option as a seat (None: draw one)."""
        if dealer is None:
            return None
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < self.num_players:
            raise OptionError(f"option 'dealer'={dealer!r} is not a seat 0..{self.num_players - 1}")
        return int(dealer)

    def _start_deal(self, state: State, deal: DealSpec | None) -> None:
        state.deal_start_scores = list(state.scores)
        self.start_deal(state, deal)
        if state.deal_over or state.to_act is None:  # a programming error in a game module
            raise RuntimeError(f"{self.name}: a deal must begin with a decision (to_act is {state.to_act})")

    def apply(self, state: State, action: int, settled: Callable[[State], None] | None = None) -> None:
        """Apply a legal action and run the deal/session loop (no legality check here).

        ``settled`` hears every finished deal: it is called with the state as the deal left it (its last
        table, ``breakdown``, the bookkeeping below done) before a session deals the next one, so a caller
        that shows or records finished deals needs no copy of the state (cli/play.py, agents/table.py).
        """
        seat = state.to_act
        self.apply_action(state, action)
        state.history.append((seat, action))
        if state.deal_over:
            state.deals_played += 1
            state.deal_results.append(list(map(sub, state.scores, state.deal_start_scores)))
            # kept as it is, not copied: every game's start_deal makes a fresh breakdown, filled with fresh values
            state.deal_breakdowns.append(state.breakdown)
            if not self.session or self.session_over(state):
                state.terminal = True
                state.to_act = None
            if settled is not None:
                settled(state)
            if not state.terminal:
                state.deal_over = False
                self._start_deal(state, None)

    def parse_deal(self, spec: Any) -> DealSpec:
        """Validate a fixed deal given as ``{"hands": [[codes...], ...], "stock": [...]}``."""
        if not isinstance(spec, Mapping):
            raise OptionError("option 'deal' must be a mapping with 'hands' (and optionally 'stock')")
        unknown = sorted(set(spec) - set(self.deal_options))
        if unknown:
            raise OptionError(f"unknown key {', '.join(map(repr, unknown))} in option 'deal'; "
                              f"valid: {', '.join(self.deal_options)}")
        pack = self.pack()
        hands_given = spec.get("hands")
        if not isinstance(hands_given, (list, tuple)):
            raise OptionError(f"option 'deal': 'hands' must be a list of {self.num_players} hands "
                              f"(each a list of card codes), got {hands_given!r}")
        stock_given = "stock" in spec
        try:
            hands = tuple(_card_group(pack, h, f"hand {seat}") for seat, h in enumerate(hands_given))
            stock = _card_group(pack, spec["stock"], "'stock'") if stock_given else ()
            extra = {k: _card_group(pack, v, repr(k)) for k, v in spec.items() if k not in ("hands", "stock")}
        except CardError as err:
            raise OptionError(f"option 'deal': {err}") from None
        if len(hands) != self.num_players:
            raise OptionError(f"option 'deal' needs {self.num_players} hands, got {len(hands)}")
        try:
            check_disjoint([*hands, stock, *extra.values()], "option 'deal'")
        except CardError as err:
            raise OptionError(str(err)) from None
        used = {c for group in (*hands, stock, *extra.values()) for c in group}
        if stock_given and len(used) != len(pack):
            missing = [code(c) for c in pack.cards if c not in used]
            raise OptionError(f"option 'deal': hands and stock must hold the whole pack; missing {' '.join(missing)}")
        self.check_deal(hands, extra)
        return DealSpec(hands, stock, extra)

    def check_deal(self, hands: Sequence[Sequence[int]], extra: Mapping[str, Sequence[int]]) -> None:
        """Game-specific checks of a fixed deal (hand sizes...); raise OptionError."""
        return None

    def complete_deal(self, state: State, deal: DealSpec | None,
                      hand_size: int | Sequence[int]) -> tuple[list[list[int]], list[int]]:
        """Hands and stock (top first) for a deal: fixed ones completed, or shuffled.

        ``hand_size`` may differ per seat (0 for a seat that sits out).
        """
        pack = self.pack()
        sizes = [hand_size] * self.num_players if isinstance(hand_size, int) else list(hand_size)
        if deal is None:
            order = pack.shuffled(state.rng)
            hands, at = [], 0
            for size in sizes:
                hands.append(order[at:at + size])
                at += size
            return hands, order[at:]
        for seat, hand in enumerate(deal.hands):
            if len(hand) != sizes[seat]:
                raise OptionError(f"option 'deal': seat {seat} needs {sizes[seat]} cards, got {len(hand)}")
        stock = list(deal.stock)
        if not stock:
            used = {c for group in (*deal.hands, *deal.extra.values()) for c in group}
            rest = [c for c in pack.cards if c not in used]
            stock = [rest[i] for i in state.rng.permutation(len(rest))]
        return [list(h) for h in deal.hands], stock

    def legal_labels(self, state: State) -> list[str]:
        return [self.actions.label(a) for a in self.legal_actions(state)]
