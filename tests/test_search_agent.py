"""The search agent (agents/search.py): its spec, legal and reproducible play in every game, choices blind to the
cards its seat cannot see, and its seat in every loop that plays agents."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import rams_env
from agents.lockstep import play_together
from agents.registry import AgentSpecError, agent_factory, agent_file, heuristic_class, pretrained_for
from agents.search import DEFAULT_CONFIDENCE, DEFAULT_WORLDS, parse_search_spec
from agents.table import Turn, Watcher, chosen, play
from tests.conformance import cases

GAMES = sorted({game for game, _, _ in cases()})


class Recorder(Watcher):
    """Every decision of a deal: (seat, action)."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, int]] = []

    def acting(self, turn: Turn) -> None:
        self.moves.append((turn.seat, turn.action))


def _deal(game, spec: str, deal: int, searching_seats=(0,)) -> list[tuple[int, int]]:
    """One deal with ``spec`` in ``searching_seats`` and the heuristic elsewhere; its moves."""
    factories = {spec: agent_factory(spec, game), "heuristic": agent_factory("heuristic", game)}
    agents = [factories[spec if seat in searching_seats else "heuristic"](deal * 100 + seat)
              for seat in range(game.num_players)]
    recorder = Recorder()
    play(game, game.new_state(np.random.default_rng(deal), None), agents, recorder)
    return recorder.moves


# ------------------------------------------------------------------------------------------------------- the spec
def test_a_plain_search_spec_takes_the_defaults_and_options_override_them():
    assert parse_search_spec("search:pretrained") == parse_search_spec(
        f"search,worlds={DEFAULT_WORLDS},confidence={DEFAULT_CONFIDENCE},model=default:pretrained")
    spec = parse_search_spec("search,worlds=16,confidence=0,model=cautious:checkpoint:runs/x.zip")
    assert (spec.base, spec.worlds, spec.confidence, spec.model_spec) == \
        ("checkpoint:runs/x.zip", 16, 0.0, "heuristic:cautious")


@pytest.mark.parametrize("spec, message", [
    ("search", "names the agent it improves upon"),
    ("search:", "names the agent it improves upon"),
    ("search:search:heuristic", "cannot improve upon another search agent"),
    ("search,depth=3:heuristic", "unknown search option"),
    ("search,worlds=1:heuristic", "worlds must be an integer of at least 2"),
    ("search,worlds=2.5:heuristic", "worlds must be an integer of at least 2"),
    ("search,confidence=-1:heuristic", "confidence must be a number of at least 0"),
    ("search,confidence=yes:heuristic", "confidence must be a number of at least 0"),
    ("search,worlds:heuristic", "agent parameter"),
    ("search,model=nosuchstyle:heuristic", "unknown style 'nosuchstyle'"),
    ("search:nosuchagent", "unknown agent 'nosuchagent'"),
])
def test_a_bad_search_spec_is_refused_naming_what_is_wrong(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        agent_factory(spec, rams_env.make_game("tippen", 4))


def test_a_search_agent_names_the_weights_of_the_agent_it_improves_upon():
    game = rams_env.make_game("toepen", 4)
    assert agent_file("search,worlds=4:pretrained", game) == pretrained_for(game)
    assert agent_file("search:heuristic", game) is None


# ------------------------------------------------------------------------------------------------------ its play
@pytest.mark.parametrize("game_name", GAMES)
def test_a_search_agent_plays_legal_and_reproducible_deals_in_every_game(game_name):
    """Every seat searches (worlds=2): a whole deal of legal moves (agents/table.py refuses any other), the same
    moves again under the same seeds."""
    game = rams_env.make_game(game_name)
    seats = tuple(range(game.num_players))
    for deal in range(2):
        moves = _deal(game, "search,worlds=2:heuristic", deal, seats)
        assert moves and moves == _deal(game, "search,worlds=2:heuristic", deal, seats)


def test_the_search_agents_seed_decides_its_worlds():
    """Same deal, other seeds of the search agent: somewhere a choice differs (the worlds are drawn from its
    seed), so its reproducibility is not that of a search that ignores them."""
    game = rams_env.make_game("tippen", 4)
    state = game.new_state(np.random.default_rng(3), None)
    differs = 0
    while not state.terminal:
        if len(game.legal_actions(state)) > 1:
            choices = {_search_choice(game, state, seed) for seed in range(6)}
            differs += len(choices) > 1
        game.apply(state, game.legal_actions(state)[0])
    assert differs


def _search_choice(game, state, seed: int) -> int:
    agent = agent_factory("search,worlds=2,confidence=0:heuristic", game)(seed)
    return chosen(game, copy.deepcopy(state), agent)


def test_a_search_agent_with_a_model_other_than_its_base_keeps_them_apart():
    """``model`` plays the other seats in the worlds, the base the searcher's own: a checkpoint base is the one
    agent every seat's search shares (loaded once), a heuristic base is built per agent."""
    game = rams_env.make_game("toepen", 4)
    factory = agent_factory("search,model=cautious:pretrained", game)
    first, second = factory(1), factory(2)
    assert first.own is second.own and first.own is not None
    assert first.searcher.factory(0).name == "heuristic:cautious"
    plain = agent_factory("search:heuristic", game)(1)
    assert plain.own is None  # the base is the model: its own seat's model player
    styled = agent_factory("search:heuristic:bluffer", game)
    assert styled(1).own is not styled(2).own


def test_a_search_agent_refuses_to_be_asked_without_the_state():
    game = rams_env.make_game("tippen", 4)
    agent = agent_factory("search:heuristic", game)(0)
    mask = np.ones(game.actions.size, np.int8)
    with pytest.raises(TypeError, match="agents/table.py"):
        agent.act(np.zeros(game.observation.size, np.float32), mask, {})


# ------------------------------------------------------------------------------------------- hidden information
def _redealt_hidden(game, state, me: int, rng: np.random.Generator):
    """``state`` with every card ``me`` cannot see dealt again among the places that hold them: the other hands,
    their face-down discards, the piles (``Game.shuffle_unseen``), checked to look the same to ``me``."""
    moved = game.shuffle_unseen(state, me, rng)
    assert np.array_equal(_observed(game, state, me), _observed(game, moved, me))
    return moved


def _observed(game, state, seat: int) -> np.ndarray:
    out = np.zeros(game.observation.size, np.float32)
    game.encode(state, seat, out)
    return out


@pytest.mark.parametrize("game_name", GAMES)
def test_a_search_agents_choice_does_not_depend_on_the_cards_its_seat_cannot_see(game_name):
    """Deal the cards the seat to act cannot see again: it sees the same, so its search agent (same seed) must
    choose the same, at every decision of several deals. (A search that peeked at the real deal fails this.)"""
    game, rng = rams_env.make_game(game_name), np.random.default_rng(0)
    compared, search = 0, agent_factory("search,worlds=3:heuristic", game)
    for deal in range(3):
        state = game.new_state(np.random.default_rng(deal), None)
        heuristic = [agent_factory("heuristic", game)(seat) for seat in range(game.num_players)]
        while not state.terminal:
            me = state.to_act
            if len(game.legal_actions(state)) > 1:
                swapped = _redealt_hidden(game, state, me, rng)
                choices = [chosen(game, s, search(deal)) for s in (copy.deepcopy(state), swapped)]
                assert choices[0] == choices[1], (deal, me)
                compared += 1
            game.apply(state, chosen(game, state, heuristic[me]))
    assert compared >= 5


@pytest.mark.parametrize("game_name", GAMES)
def test_a_copied_heuristic_plays_on_as_the_original_would_and_draws_apart(game_name):
    """The rollouts copy every seat's player with every branch (``HeuristicAgent.__deepcopy__``, the fast copy):
    from a copy of a position halfway through a deal, the copied players choose what the originals choose, and a
    draw from a copy's generator leaves the original's untouched."""
    game = rams_env.make_game(game_name)
    styles = list(heuristic_class(game_name).STYLES) * game.num_players  # every style seated, where there are enough
    players = [agent_factory(f"heuristic:{styles[seat]}", game)(seat) for seat in range(game.num_players)]
    state = game.new_state(np.random.default_rng(5), None)
    for _ in range(4):
        if not state.terminal:
            game.apply(state, chosen(game, state, players[state.to_act]))
    copies = copy.deepcopy(players)
    assert all(c.params is p.params and c.rng is not p.rng for c, p in zip(copies, players, strict=True))
    twin = state.clone()
    while not state.terminal:
        action = chosen(game, state, players[state.to_act])
        assert chosen(game, twin, copies[twin.to_act]) == action
        game.apply(state, action)
        game.apply(twin, action)
    before = players[0].rng.bit_generator.state
    copies[0].rng.random(3)
    assert players[0].rng.bit_generator.state == before


def test_the_rollouts_played_side_by_side_value_every_branch_as_one_played_alone():
    """``RolloutSearch.rollout_values`` plays a decision's branches together so the base network batches its
    forwards (agents/lockstep.py): every branch must end as the same branch played alone through agents/table.py,
    at every decision with a choice of a Loup deal (six cards, the network in the searcher's seat)."""
    game = rams_env.make_game("tippen", 4, preset="loup")
    search, heuristic = agent_factory("search,worlds=3:pretrained", game)(2), agent_factory("heuristic", game)
    searcher, state, compared = search.searcher, game.new_state(np.random.default_rng(4), None), 0
    while not state.terminal:
        legal, me = game.legal_actions(state), state.to_act
        if len(legal) > 1:
            worlds = searcher.present_worlds(state, search.players)
            together = searcher.rollout_values(legal, worlds, me)
            for w, (world, world_agents) in enumerate(worlds):
                for a, action in enumerate(legal):
                    branch, branch_agents = searcher.branched(world, action, world_agents)
                    play(game, branch, searcher.seating(branch_agents, me)())
                    assert together[w, a] == branch.scores[me]
                    compared += 1
        game.apply(state, chosen(game, state, heuristic(me)))
    assert compared > 20


# ------------------------------------------------------------------------------------------------- every loop
def test_a_search_agent_plays_the_same_in_lockstep_as_at_one_table():
    """agents/lockstep.py steps unbatched agents through the same ``chosen``: the same deals, move for move."""
    game = rams_env.make_game("lupfen", 4)
    factory, heuristic = agent_factory("search,worlds=2:heuristic", game), agent_factory("heuristic", game)

    def seating(deal: int):
        return lambda: [factory(deal), heuristic(1), factory(deal + 7), heuristic(3)]

    alone = [game.new_state(np.random.default_rng(deal), None) for deal in range(3)]
    for state, deal in zip(alone, range(3), strict=True):
        play(game, state, seating(deal)())
    together = [game.new_state(np.random.default_rng(deal), None) for deal in range(3)]
    play_together(game, together, [seating(deal) for deal in range(3)])
    assert [s.scores for s in together] == [s.scores for s in alone]


def test_a_search_agent_sits_at_a_single_seat_training_table():
    """SB3's single-seat env steps its opponents through agents/table.py's ``chosen`` too: a search opponent
    plays there, and a deal ends."""
    from training.single_seat import SingleSeatEnv

    game = rams_env.make_game("lupfen", 3)
    factory = agent_factory("search,worlds=2:heuristic", game)
    env = SingleSeatEnv("lupfen", num_players=3,
                        opponents=lambda rng: [factory(int(seed)) for seed in rng.integers(99, size=3)])
    env.reset(seed=0)
    done, steps = False, 0
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        steps += 1
    assert steps > 0


# ----------------------------------------------------------------------------------------------- its strength
@pytest.mark.slow
def test_a_search_agent_beats_the_agent_it_improves_upon():
    """The point of the agent: on the same deals, ``search:heuristic`` in a seat (rotated deal by deal) among
    heuristics earns more than the heuristic in that seat. At Toepen's 4-player table the gain is large (docs/
    results.md, "Search at play time": +0.38 lives a deal over 400 other deals); over 200 fixed deals its 95% interval
    must lie above zero."""
    game = rams_env.make_game("toepen", 4)
    search, heuristic = agent_factory("search:heuristic", game), agent_factory("heuristic", game)
    gains = []
    for deal in range(200):
        seat, payoffs = deal % game.num_players, []
        for player in (search, heuristic):
            agents = [heuristic(deal * 10 + other) for other in range(game.num_players)]
            agents[seat] = player(deal)
            state = game.new_state(np.random.default_rng(deal), None)
            play(game, state, agents)
            payoffs.append(state.scores[seat])
        gains.append(payoffs[0] - payoffs[1])
    mean, error = np.mean(gains), np.std(gains, ddof=1) / np.sqrt(len(gains))
    assert mean - 1.96 * error > 0, (mean, error)
