"""The search bounds of evaluation/ceiling.py: the omniscient searcher is a best response, the PIMC searcher's
worlds agree with everything it saw."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import rams_env
from agents.rollout import clearly_better
from evaluation.ceiling import CeilingPlan, Searcher, main, run_ceiling
from evaluation.strength import seat_scores
from evaluation.tournament import deal_seed, game_seeds

PLAN = CeilingPlan("tippen", "meyers_1905", 4, "heuristic", deals=12)


def deal(plan: CeilingPlan, d: int) -> tuple[int, list[int]]:
    return deal_seed(plan.seed, d), game_seeds(plan.num_players, plan.seed, d, 0)


def scripted_until(searcher: Searcher, d: int, stop) -> tuple:
    """(state, start, history, agents): deal ``d`` of the searcher's plan played by the scripted players until
    ``stop(state)``."""
    env_seed, seeds = deal(searcher.plan, d)
    state = searcher.game.new_state(np.random.default_rng(env_seed), None)
    start, history, agents = copy.deepcopy(state), [], searcher.scripted(seeds)
    while not stop(state):
        action = searcher.scripted_action(state, agents)
        history.append((state.to_act, action))
        searcher.game.apply(state, action)
    return state, start, history, agents


def test_the_omniscient_searcher_never_earns_less_than_the_scripted_player_it_replaces():
    """With every card seen and deterministic opponents, playing as the heuristic would is one of the searcher's
    options: in every deal and every seat it earns at least what the heuristic earned there."""
    searcher = Searcher(PLAN, np.random.default_rng(0))
    better = 0
    for d in range(PLAN.deals):
        env_seed, seeds = deal(PLAN, d)
        base = searcher.play(env_seed, seeds, -1)
        for seat in range(PLAN.num_players):
            mine = searcher.play(env_seed, seeds, seat)[seat]
            assert mine >= base[seat], (d, seat, mine, base[seat])
            better += mine > base[seat]
    assert better > 0  # and it does find something


def test_a_redeal_keeps_the_searchers_hand_and_every_card_once():
    searcher = Searcher(PLAN, np.random.default_rng(1))
    state = searcher.game.new_state(np.random.default_rng(deal(PLAN, 0)[0]), None)
    world = searcher.redealt(state, 2)
    assert world.hands[2] == state.hands[2]
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands] and len(world.talon) == len(state.talon)
    before = sorted(c for h in state.hands for c in h) + sorted(state.talon)
    after = sorted(c for h in world.hands for c in h) + sorted(world.talon)
    assert sorted(before) == sorted(after)
    assert world.hands != state.hands or world.talon != state.talon


def test_pimc_worlds_agree_with_what_the_searcher_saw_and_the_true_deal_is_one_of_them():
    plan = CeilingPlan("tippen", "meyers_1905", 4, "heuristic", deals=2, mode="pimc", worlds=5)
    searcher = Searcher(plan, np.random.default_rng(2))
    seeds = deal(plan, 3)[1]
    # seat 0 in the second trick: play has been seen
    state, start, history, agents = scripted_until(searcher, 3, lambda s: s.tricks_played >= 1 and s.to_act == 0)
    true_world = searcher.replayed(copy.deepcopy(start), history, 0, seeds)
    assert true_world is not None and np.array_equal(searcher.observe(true_world[0], 0), searcher.observe(state, 0))
    for world, _ in searcher.worlds(state, start, history, agents, seeds):
        assert np.array_equal(searcher.observe(world, 0), searcher.observe(state, 0))
        assert world.hands[0] == state.hands[0]


@pytest.mark.parametrize("carried", [False, True])
def test_the_scripted_table_plays_the_strength_gates_deals(carried):
    """The searcher's all-scripted table is the gate's: the same deal seeds give every seat the payoff
    `rams strength` gives it, from a fresh session or (Thedinghausen's race, ``--carry gate``) a carried one."""
    plan = CeilingPlan("fipsen", "thedinghausen", 5, "heuristic", deals=2, random_carry=carried)
    searcher = Searcher(plan, np.random.default_rng(4))
    n = plan.num_players
    for d in range(4):
        env_seed, seeds = deal(plan, d)
        assert searcher.play(env_seed, seeds, -1) == seat_scores(searcher.game, [searcher.factory] * n, seeds,
                                                                 env_seed, carried)


def test_the_estimate_and_the_command(capsys):
    result, searcher = run_ceiling(CeilingPlan("tippen", "meyers_1905", 4, "heuristic", deals=6), progress=False)
    assert result.edge.n == 6 and result.edge.mean >= 0 and searcher.decisions > 0 and result.over_own is None
    main(["--game", "tippen", "--preset", "meyers_1905", "--deals", "3", "--quiet"])
    out = capsys.readouterr().out
    assert "omniscient searcher alone among heuristic" in out and "random carry" not in out
    main(["--game", "lupfen", "--deals", "2", "--quiet"])  # the gate's Lupfen deals start from a carried pot
    assert "lupfen default 4p, random carry, omniscient searcher" in capsys.readouterr().out


def true_world_searcher(plan: CeilingPlan, monkeypatch) -> Searcher:
    """A searcher whose one world at every decision is the true deal (the rollout algorithm's own setting)."""
    searcher = Searcher(plan, np.random.default_rng(5))
    monkeypatch.setattr(searcher, "worlds", lambda state, start, history, agents, seeds:
                        [(copy.deepcopy(state), copy.deepcopy(agents))])
    return searcher


def test_the_rollout_searcher_in_the_true_world_never_earns_less_than_the_scripted_player(monkeypatch):
    """The rollout algorithm's cost improvement: with the true deal as its only world and deterministic scripted
    players, the searcher's choice is worth at least the scripted choice played on by the scripted style (ties
    keep the scripted choice), so it ends every deal, in every seat, with at least what the heuristic earned."""
    plan = CeilingPlan("tippen", "loup", 4, "heuristic", deals=2, mode="rollout", worlds=1)
    searcher = true_world_searcher(plan, monkeypatch)
    better = 0
    for d in range(10):
        env_seed, seeds = deal(plan, d)
        base = searcher.play(env_seed, seeds, -1)
        for seat in range(plan.num_players):
            mine = searcher.play(env_seed, seeds, seat)[seat]
            assert mine >= base[seat] - 1e-9, (d, seat, mine, base[seat])
            better += mine > base[seat] + 1e-9
    assert better > 0


def test_the_rollout_searcher_over_an_agent_in_the_true_world_never_earns_less_than_that_agent(monkeypatch):
    """``own_policy``: the same improvement property over a trained agent. With the true deal as its only world,
    the searcher in seat k among heuristics ends every deal with at least what the agent earned in seat k among
    the same heuristics (its later choices in a rollout, and its choice on ties, are the agent's)."""
    plan = CeilingPlan("tippen", "loup", 4, "heuristic", deals=2, mode="rollout", worlds=1, own_policy="pretrained")
    searcher = true_world_searcher(plan, monkeypatch)
    better = 0
    for d in range(6):
        env_seed, seeds = deal(plan, d)
        for seat in range(plan.num_players):
            state, agents = searcher.game.new_state(np.random.default_rng(env_seed), None), searcher.scripted(seeds)
            while not state.terminal:
                searcher.game.apply(state, searcher.base_action(state, seat, agents))
            agent = float(state.scores[seat])
            mine = searcher.play(env_seed, seeds, seat)[seat]
            assert mine >= agent - 1e-9, (d, seat, mine, agent)
            better += mine > agent + 1e-9
    assert better > 0


def test_the_rollout_searcher_over_an_agent_keeps_the_agents_choice_when_no_action_is_better():
    plan = CeilingPlan("tippen", "loup", 4, "heuristic", deals=2, mode="rollout", worlds=3, tries_per_world=0,
                       own_policy="pretrained")
    searcher = Searcher(plan, np.random.default_rng(6))
    searcher.rollout_values = lambda legal, worlds, me: np.zeros((len(worlds), len(legal)))
    differs = 0
    for d in range(4):
        env_seed, seeds = deal(plan, d)
        state = searcher.game.new_state(np.random.default_rng(env_seed), None)
        agents = searcher.scripted(seeds)
        while not state.terminal:
            me = state.to_act
            choice = searcher.choose(state, copy.deepcopy(state), [], agents, seeds)
            assert choice == searcher.base_action(state, me, agents)
            differs += choice != searcher.scripted_action(state, agents)
            searcher.game.apply(state, choice)
    assert differs > 0  # the agent's choice, not the heuristic's


def test_the_rollout_searcher_plays_the_scripted_choice_when_no_action_is_better():
    """Every action worth the same in every world (every rollout worth 0): the scripted player's choice, not the
    first legal action."""
    plan = CeilingPlan("tippen", "loup", 4, "heuristic", deals=2, mode="rollout", worlds=3, tries_per_world=0)
    searcher = Searcher(plan, np.random.default_rng(6))
    searcher.rollout_values = lambda legal, worlds, me: np.zeros((len(worlds), len(legal)))
    env_seed, seeds = deal(plan, 1)
    state = searcher.game.new_state(np.random.default_rng(env_seed), None)
    agents = searcher.scripted(seeds)
    chosen = searcher.choose(state, copy.deepcopy(state), [], agents, seeds)
    assert chosen == searcher.scripted_action(state, agents)
    assert chosen != searcher.game.legal_actions(state)[0] or len(searcher.game.legal_actions(state)) == 1


def test_with_confidence_the_searcher_leaves_its_policys_choice_only_for_a_clearly_better_action():
    """Worlds x actions; the policy improved upon chose column 0. Plain rule: the best mean. With a t-test: only
    an advantage that stands out from its spread over the worlds, or is the same in every world."""
    noisy = np.array([[0.0, 5.0, 1.0], [0.0, -4.0, 1.0], [0.0, 3.0, 1.0], [0.0, -3.0, 1.0]])  # column 1: mean 0.25
    assert clearly_better(noisy, 0, 0.0) == 2  # column 2's mean (1.0) is the best
    assert clearly_better(noisy, 0, 2.0) == 2  # better by 1 in every world: clear
    lucky = np.array([[0.0, 6.0], [0.0, -4.0], [0.0, 2.0], [0.0, -2.0]])  # mean +0.5, t about 0.2
    assert clearly_better(lucky, 0, 0.0) == 1
    assert clearly_better(lucky, 0, 2.0) == 0
    steady = np.array([[1.0, 3.0, 9.0], [1.0, 3.0, -7.0], [1.0, 3.0, 9.0]])  # column 2 best by mean, unclear
    assert clearly_better(steady, 0, 0.0) == 2 and clearly_better(steady, 0, 1.0) == 1
    tie = np.array([[2.0, 2.0], [1.0, 1.0]])
    assert clearly_better(tie, 0, 0.0) == 0 and clearly_better(tie, 1, 0.0) == 1


def test_the_searchers_gain_over_the_agent_it_improves_upon_is_paired_deal_by_deal():
    """``over_own`` is the searcher's payoff minus the agent's own in the same seat of the same deal: the edge of
    the searcher minus that of the agent alone (what rams strength's agent_alone cell measures)."""
    plan = CeilingPlan("tippen", "loup", 4, "heuristic", deals=3, mode="rollout", worlds=2, tries_per_world=0,
                       own_policy="pretrained")
    result, searcher = run_ceiling(plan, progress=False)
    alone = []
    for d in range(plan.deals):
        env_seed, seeds = deal(plan, d)
        base = searcher.play(env_seed, seeds, -1)
        alone.append(sum(searcher.play(env_seed, seeds, k, searching=False)[k] - base[k] for k in range(4)) / 4)
    assert result.over_own.n == plan.deals
    assert result.over_own.mean == pytest.approx(result.edge.mean - np.mean(alone), abs=1e-9)


@pytest.mark.parametrize("bad", [{"mode": "oracle"}, {"deals": 1}, {"worlds": 0}, {"tries_per_world": -1},
                                 {"own_policy": "pretrained"},  # the default mode, omniscient, searches its seat
                                 {"confidence": -1.0}, {"confidence": 2.0}])  # only rollouts keep a choice
def test_a_bad_plan_is_refused(bad):
    with pytest.raises(ValueError):
        CeilingPlan(**{"game": "tippen", "preset": None, "num_players": 4, "opponent": "heuristic", "deals": 10,
                       **bad})


def test_pimc_stops_with_a_clear_error_when_no_redeal_looks_the_same(monkeypatch):
    """A game whose observation shows cards the re-deal moves would search for ever: it says so instead."""
    plan = CeilingPlan("tippen", "meyers_1905", 4, "heuristic", deals=2, mode="pimc", worlds=1)
    searcher = Searcher(plan, np.random.default_rng(3))
    env_seed, seeds = deal(plan, 0)
    state = searcher.game.new_state(np.random.default_rng(env_seed), None)
    fresh = iter(range(10**6))
    monkeypatch.setattr(searcher, "observe", lambda world, seat: np.array([next(fresh)], np.float32))
    with pytest.raises(RuntimeError, match="no re-deal of the hidden cards looks the same"):
        searcher.worlds(state, copy.deepcopy(state), [], searcher.scripted(seeds), seeds)


def test_a_world_where_the_searcher_could_not_have_played_as_it_did_is_dropped_not_a_crash():
    """Mauscheln's players draw from the stock: re-dealt from the deal's start, the stock hands the searcher other
    cards, and its own later play may be of a card it does not hold there. Such a world is inconsistent with what
    it saw, so it is dropped (it once raised from deep in the engine, 34 deals into a run)."""
    plan = CeilingPlan("mauscheln", "standard", 4, "heuristic", deals=2, mode="rollout", worlds=4)
    searcher = Searcher(plan, np.random.default_rng(0))
    game, seeds = searcher.game, deal(plan, 0)[1]
    _, start, history, _ = scripted_until(searcher, 0, lambda s: s.terminal)
    assert searcher.replayed(copy.deepcopy(start), history, 0, seeds) is not None  # the true deal is kept
    me = history[-1][0]  # the deal's last card, as if that seat had played one it does not hold
    world = copy.deepcopy(start)
    for _, action in history[:-1]:
        game.apply(world, action)
    illegal = next(a for a in range(game.actions.size) if a not in game.legal_actions(world))
    assert searcher.replayed(copy.deepcopy(start), [*history[:-1], (me, illegal)], me, seeds) is None


def test_the_teachers_choice_does_not_depend_on_the_cards_its_seat_cannot_see():
    """Expert iteration's teacher (Searcher.teacher) is handed the true state: it must use the hidden cards only as
    the pool it re-deals. Swapping two hidden cards between other seats leaves every choice it makes unchanged."""
    game = rams_env.make_game("tippen", 5, preset="loup")
    changed = 0
    for d in range(8):
        state = game.new_state(np.random.default_rng(100 + d), None)
        agents = Searcher(CeilingPlan("tippen", "loup", 5, "heuristic", deals=2), np.random.default_rng(0),
                          game).scripted(list(range(5)))
        while not state.terminal:
            me = state.to_act
            others = [seat for seat in range(5) if seat != me and state.hands[seat]]
            swapped = copy.deepcopy(state)
            if len(others) >= 2:
                a, b = others[:2]
                swapped.hands[a][0], swapped.hands[b][0] = state.hands[b][0], state.hands[a][0]
                changed += 1
            choices = [Searcher.teacher(game, "heuristic", 4, np.random.default_rng(7)).improved(s, agents)
                       for s in (state, swapped)]
            assert choices[0] == choices[1], (d, me)
            game.apply(state, choices[0])
    assert changed > 20


def test_a_branch_copies_the_scripted_agents_and_shares_only_the_table_definition():
    """Rollouts copy the scripted agents with every branch, sharing the game and its rules (copying those was three
    quarters of a rollout's time): each copy is its own object with its own generator, whose draws do not move
    the original's."""
    searcher = Searcher(PLAN, np.random.default_rng(0))
    agents = searcher.scripted(list(range(PLAN.num_players)))
    copies = searcher.copied(agents)
    for agent, twin in zip(agents, copies, strict=True):
        assert twin is not agent and twin.game is searcher.game and twin.rules is searcher.game.rules
        assert twin.rng is not agent.rng
        expected = copy.deepcopy(agent.rng).random()
        twin.rng.random()
        assert agent.rng.random() == expected



def _swap_hidden(state, me: int):
    """A copy of ``state`` where a card of another seat's face-down discards and one of a third seat's hand (both
    hidden from ``me``) trade places; None where no seat but ``me`` has discarded yet."""
    seats = range(len(state.hands))
    down = next((s for s in seats if s != me and state.face_down[s]), None)
    held = next((s for s in seats if s not in (me, down) and state.hands[s]), None)
    if down is None or held is None:
        return None
    swapped = copy.deepcopy(state)
    swapped.face_down[down][0], swapped.hands[held][0] = state.hands[held][0], state.face_down[down][0]
    return swapped


@pytest.mark.parametrize("game_name, preset", [("mauscheln", "standard"), ("fipsen", "grossenaspe"),
                                                ("tippen", "modern"), ("toepen", "standard")])
def test_the_searchers_worlds_do_not_depend_on_the_cards_others_discarded_face_down(game_name, preset):
    """Which cards another seat discarded face down is as hidden as its hand: a searcher's worlds, and so its
    choices, must not change when such a discard and a card of a third hand trade places. The searcher once
    re-dealt only the hands and piles, so every world it searched knew the others' discards."""
    plan = CeilingPlan(game_name, preset, 4, "heuristic", deals=2, mode="rollout", worlds=4, tries_per_world=0)
    game, compared = rams_env.make_game(game_name, 4, preset=preset), 0
    for d in range(40):
        searcher = Searcher(plan, np.random.default_rng(0), game)
        env_seed, seeds = deal(plan, d)
        state, agents = game.new_state(np.random.default_rng(env_seed), None), searcher.scripted(seeds)
        while not state.terminal and compared < 12:
            me, swapped = state.to_act, _swap_hidden(state, state.to_act)
            if swapped is not None and len(game.legal_actions(state)) > 1:
                worlds = [Searcher(plan, np.random.default_rng(7), game).redealt(s, me) for s in (state, swapped)]
                places = [[getattr(world, place) for place in game.card_places] for world in worlds]
                assert places[0] == places[1], (d, me)
                choices = [Searcher.teacher(game, "heuristic", 4, np.random.default_rng(7)).improved(s, agents)
                           for s in (state, swapped)]
                assert choices[0] == choices[1], (d, me)
                compared += 1
            game.apply(state, searcher.scripted_action(state, agents))
    assert compared == 12  # the case arises in each of these games


def test_a_search_restricted_to_some_actions_plays_the_policy_improved_upon_everywhere_else(monkeypatch):
    """``search_actions``: the searcher searches exactly its decisions where one of those actions is legal (here
    Mauscheln's bids), and at each of its other decisions plays what the scripted player in its seat would."""
    plan = CeilingPlan("mauscheln", "standard", 4, "heuristic", deals=2, mode="rollout", worlds=2,
                       tries_per_world=0, search_actions=("sneak", "pass", "join"))
    searcher = Searcher(plan, np.random.default_rng(0))
    game, bids = searcher.game, searcher.searched
    assert {game.actions.label(a) for a in bids} == {"sneak", "pass", "join"}
    searched, elsewhere = [], 0
    best, choose = searcher.best, searcher.choose
    monkeypatch.setattr(searcher, "best", lambda state, legal, *rest: searched.append(id(state)) or
                        best(state, legal, *rest))

    def watched(state, start, history, agents, seeds):
        nonlocal elsewhere
        legal, scripted = set(game.legal_actions(state)), searcher.scripted_action(state, searcher.copied(agents))
        before = len(searched)
        action = choose(state, start, history, agents, seeds)
        assert (len(searched) > before) == (len(legal) > 1 and bool(legal & bids))
        if not legal & bids:
            assert action == scripted
            elsewhere += len(legal) > 1
        return action

    monkeypatch.setattr(searcher, "choose", watched)
    for d in range(4):
        env_seed, seeds = deal(plan, d)
        searcher.play(env_seed, seeds, d % 4)
    assert searched and elsewhere  # bids searched; card play and exchanges with a choice played as scripted
    assert searcher.decisions == len(searched)


def test_search_actions_that_the_game_does_not_have_are_refused_naming_them():
    with pytest.raises(ValueError, match=r"\['snek'\]: not an action of mauscheln; one of play, discard, done, sneak"):
        Searcher(CeilingPlan("mauscheln", None, 4, "heuristic", deals=2, search_actions=("snek",)),
                 np.random.default_rng(0))
    every_card = Searcher(CeilingPlan("tippen", None, 4, "heuristic", deals=2, search_actions=("play",)),
                          np.random.default_rng(0))
    assert len(every_card.searched) == len(every_card.game.pack())
    every_discard = Searcher(CeilingPlan("mauscheln", None, 4, "heuristic", deals=2, search_actions=("discard",)),
                             np.random.default_rng(0))
    labels = [every_discard.game.actions.label(a) for a in every_discard.searched]
    assert len(labels) == len(every_discard.game.pack()) and all(label.startswith("discard ") for label in labels)
