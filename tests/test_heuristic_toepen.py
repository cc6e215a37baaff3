"""The Toepen heuristic and its personalities: exact decisions in hand-made positions, legal play
everywhere, the personalities' defining behaviour, hidden information, and its edge over random.

Positions are dealt with reset options (fixed hands, dealer, lives), as in tests/test_toepen.py.
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

import rams_env
from agents.heuristics.toepen import ToepenHeuristic, ToepenParams
from agents.heuristics.toepen_strength import hand_strength, is_dirty
from agents.registry import AgentSpecError, agent_factory
from evaluation.duplicate import duplicate_match
from rams_env.games.toepen import Phase
from rams_env.games.toepen.rules import ToepenRules
from tests import tiers
from tests.scripting import dealt, play

NO_EXTRAS = {"dirty_hands": False, "announcements": False}
STYLES = list(ToepenHeuristic.STYLES)
QUIET = {"never_knock": True}  # card-play tests: no knock decision in the way


def table(hands: list[str], dealer: int, moves: str = "", lives_lost=None, **rules):
    """An env dealt ``hands`` with ``dealer``, after the scripted ``moves`` ("seat:label ...")."""
    env, _ = dealt("toepen", hands, dealer, options=None if lives_lost is None else {"lives_lost": lives_lost}, **rules)
    play(env, moves)
    return env


def decide(env, style: str = "default", seed: int = 0, **params) -> str:
    """The label the heuristic chooses for the player to act."""
    raw = env.unwrapped
    agent = ToepenHeuristic(raw.game, style=style, seed=seed, **params)
    name = raw.agent_selection
    obs = raw.observe(name)
    return raw.action_label(agent.act(obs["observation"], obs["action_mask"], raw.view(name)))


def strength_of(env) -> float:
    raw = env.unwrapped
    return hand_strength(raw.view(raw.agent_selection), raw.game.rules)


FOUR = ["10h 8s 7c Jd", "9h 7h 10s Ac", "Kh Qs 9d 8c", "Qh Js Kd 9c"]


# ------------------------------------------------------------------- card play
def test_ducks_with_its_lowest_card_when_the_trick_is_lost():
    env = table(FOUR, dealer=3, moves="0:10h", **NO_EXTRAS)
    assert decide(env, **QUIET) == "7h"  # 9h cannot beat the 10h either: keep it


def test_wins_a_trick_with_the_cheapest_card_that_beats_it():
    env = table(["7h Jc Qc Kc", "10s 9h 8h 10c", "Kh Qs 9d 8c", "Qh Js Kd 9c"], dealer=3, moves="0:7h",
                **NO_EXTRAS)
    assert decide(env, **QUIET) == "8h"  # 8h and 9h both beat the 7h; the tens are kept


def test_void_discards_its_lowest_card_and_keeps_the_best_last_trick_card():
    env = table(["7d Jc 8h Kh", "10s 9s Kc Qc", "Kd Qs 9h 8c", "Qh Js Ad 9c"], dealer=3, moves="0:7d",
                **NO_EXTRAS)
    assert decide(env, **QUIET) == "Qc"  # no diamonds: throw the queen of clubs (below Kc), keep 10s 9s


def test_third_trick_discards_the_loser_and_keeps_the_ten():
    hands = ["9c 8c 7d Jh", "Ac Qc 10s Kh", "Jc Qs 9d 8h", "Kc Ks 10d 7h"]
    env = table(hands, dealer=3, moves="0:9c 1:Ac 2:Jc 3:Kc 0:8c 1:Qc 2:Qs 3:Ks 0:7d", **NO_EXTRAS)
    assert decide(env, **QUIET) == "Kh"  # cannot win this trick: keep the unbeatable 10s for the last


def test_third_trick_leads_the_nine_to_keep_the_lead_and_saves_the_ten():
    hands = ["9h 7s 8d Jd", "10h 10c 9s 10d", "Jh 8c Ks Ad", "Qh Kc Qs Kd"]
    env = table(hands, dealer=3, moves="0:9h 1:10h 2:Jh 3:Qh 1:10c 2:8c 3:Kc 0:Jd", **NO_EXTRAS)
    assert env.unwrapped.game_state.to_act == 1 and env.unwrapped.game_state.tricks_played == 2
    assert decide(env, **QUIET) == "9s"  # only the unseen 10s beats it; the 10d wins the last trick for sure


# -------------------------------------------------------------- knock, stay, fold
LAST_TRICK = "0:9c 1:Ac 2:Jc 3:Kc 0:8c 1:Qc 2:Qs 3:Ks 0:7d 1:Kh 2:9d 3:10d"  # player_3 leads the last trick


def last_trick(lead: str, hand1: str):
    """player_3 leads ``lead`` to the last trick, player_0 follows; player_1 holds ``hand1`` and decides."""
    hands = ["9c 8c 7d Qd", f"Ac Qc Kh {hand1}", "Jc Qs 9d 8h", f"Kc Ks 10d {lead}"]
    return table(hands, dealer=3, moves=LAST_TRICK + f" 3:{lead} 0:Qd", **NO_EXTRAS)


def test_a_sure_winner_knocks_before_showing_its_ten_unless_cautious():
    env = last_trick("7s", "10s")
    assert strength_of(env) == 1.0
    assert decide(env, "honest") == "knock"
    assert decide(env, "default") == "knock"
    assert decide(env, "cautious") == "10s"


def test_the_honest_player_never_knocks_with_a_hopeless_hand_and_the_bluffer_may():
    env = last_trick("7s", "Jh")
    assert strength_of(env) == 0.0
    assert {decide(env, "honest", seed=s) for s in range(200)} == {"Jh"}
    assert {decide(env, "bluffer", seed=s, bluff_rate=1.0) for s in range(5)} == {"knock"}


def knocked(hand1: str, **kw):
    """player_0 knocks before the first lead; player_1 (holding ``hand1``) must stay or fold."""
    hands = ["7d 8c 9c Js", hand1, "Jc Qs 9d 8h", "Kc Ks 10d 7h"]
    env = table(hands, dealer=3, moves="0:knock", **NO_EXTRAS, **kw)
    assert env.unwrapped.game_state.phase is Phase.RESPOND and env.unwrapped.game_state.to_act == 1
    return env


def test_folds_a_weak_hand_and_stays_with_a_strong_one():
    assert decide(knocked("Jh Qh As Ac")) == "fold"
    assert decide(knocked("10s 10h 10c 9h")) == "stay"


def test_a_folded_hand_has_no_strength():
    env = knocked("Jh Qh As Ac")
    env.step(env.unwrapped.action_id("fold"))
    raw = env.unwrapped
    assert hand_strength(raw.view("player_1"), raw.game.rules) == 0.0


def test_cautious_folds_to_every_knock_and_caller_never_folds():
    assert decide(knocked("10s 10h 10c 9h"), "cautious") == "fold"
    assert decide(knocked("Jh Qh As Ac"), "caller") == "stay"


def test_stays_when_folding_would_lose_the_session_anyway():
    assert decide(knocked("Jh Qh As Ac", lives_lost=[0, 9, 0, 0])) == "stay"  # fold costs the last life too


def test_cautious_folds_to_the_poverty_raise():
    hands = ["10h 9h 8h 7h", "Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Jd"]
    env = table(hands, dealer=3, lives_lost=[0, 9, 0, 0], preset="armoede", **NO_EXTRAS)
    assert env.unwrapped.game_state.phase is Phase.RESPOND
    assert decide(env, "cautious") == "fold"
    assert decide(env, "caller") == "stay"


# ------------------------------------------------- dirty hands, challenges, jacks
def dirty_phase(hand0: str, **kw):
    hands = [hand0, "9s 7s 10s Ac", "Ks Qs 9d 8c", "8s Js Kd 9c"]
    env = table(hands, dealer=3, announcements=False, **kw)
    assert env.unwrapped.game_state.phase is Phase.DIRTY and env.unwrapped.game_state.to_act == 0
    return env


def test_a_real_dirty_hand_is_always_redrawn_a_strong_one_never():
    assert is_dirty("Ad Kc Qh Jh".split()) and not is_dirty("Ad Kc Qh 7h".split())
    for style in STYLES:
        assert decide(dirty_phase("Ad Kc Qh Jh"), style) == "dirty"
        assert decide(dirty_phase("10d 10c 9h 10h"), style, false_dirty_rate=1.0) == "keep"


def test_false_dirty_claims_only_by_design():
    env = dirty_phase("7d Kc Qh Jh")  # not dirty (a seven), hopeless
    assert strength_of(env) < ToepenParams().weak_threshold
    assert {decide(env, "honest", seed=s) for s in range(100)} == {"keep"}
    assert decide(env, "bluffer", false_dirty_rate=1.0) == "dirty"


def test_challenges_at_its_rate_but_never_with_its_last_life():
    env = dirty_phase("Ad Kc Qh Jh")
    env.step(env.unwrapped.action_id("dirty"))
    assert env.unwrapped.game_state.phase is Phase.CHALLENGE
    assert decide(env, challenge_rate=1.0) == "challenge"
    assert decide(env, challenge_rate=0.0) == "accept"
    env = dirty_phase("Ad Kc Qh Jh", lives_lost=[0, 9, 0, 0])
    env.step(env.unwrapped.action_id("dirty"))
    assert decide(env, challenge_rate=1.0) == "accept"


def test_three_jacks_whistle_only_when_the_style_bluffs():
    env = table(["Jd Jc Jh 7h", "9h 8h 10s Ac", "Kh Qs 9d 8c", "Qh Js Kd 9c"], dealer=3, dirty_hands=False)
    assert env.unwrapped.game_state.phase is Phase.ANNOUNCE
    assert decide(env, "honest") == "silent"
    assert decide(env, "bluffer") == "announce"


# -------------------------------------------------------------- the bluff rate
def test_bluffer_knocks_a_weak_hand_at_its_configured_rate_per_decision():
    env = last_trick("7s", "Jh")
    raw = env.unwrapped
    agent = ToepenHeuristic(raw.game, style="bluffer", seed=7, bluff_rate=0.3)
    obs, view = raw.observe(raw.agent_selection), raw.view(raw.agent_selection)
    knock = raw.action_id("knock")
    n = 4000
    rate = sum(agent.act(obs["observation"], obs["action_mask"], view) == knock for _ in range(n)) / n
    assert abs(rate - 0.3) < 4 * np.sqrt(0.3 * 0.7 / n)


# ------------------------------------------------------ parameters and styles
def test_bad_styles_and_values_are_named():
    game = rams_env.make_game("toepen", 4)
    with pytest.raises(AgentSpecError, match="bluff_rate"):
        agent_factory("heuristic:bluffer,bluff_rate=1.5", game)
    with pytest.raises(AgentSpecError, match="never_fold"):
        agent_factory("heuristic:cautious,never_fold=true", game)
    with pytest.raises(AgentSpecError, match="weak_threshold"):
        agent_factory("heuristic:weak_threshold=0.9,knock_threshold=0.5", game)
    with pytest.raises(AgentSpecError, match="styles"):
        agent_factory("heuristic:reckless", game)


def test_example_yaml_configures_the_player():
    game = rams_env.make_game("toepen", 4)
    path = Path(__file__).resolve().parent.parent / "configs" / "agents" / "toepen.yaml"
    agent = agent_factory(f"heuristic:{path}", game)(0)
    assert isinstance(agent, ToepenHeuristic) and agent.style == "bluffer"
    assert agent.params.bluff_rate == 0.25 and agent.params.knock_threshold == 0.55


# ------------------------------------------- every preset, every table size
def watch(env, agents, seed: int, log: list) -> None:
    """Play one episode, logging (style, phase, label, strength, knock legal) for every heuristic decision."""
    raw = env.unwrapped
    env.reset(seed=seed)
    for i, agent in enumerate(agents):
        agent.reset(seed * 31 + i)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = raw.possible_agents.index(name)
        view = raw.view(name)
        action = agents[seat].act(obs["observation"], obs["action_mask"], view)
        if isinstance(agents[seat], ToepenHeuristic):
            s = hand_strength(view, raw.game.rules)
            assert 0.0 <= s <= 1.0
            knock_legal = bool(obs["action_mask"][raw.action_id("knock")])
            log.append((agents[seat].style, view["phase"], raw.action_label(action), s, knock_legal))
        env.step(action)


@tiers.parametrize("preset", ToepenRules.preset_names(), tiers.reference_preset("toepen"))
def test_every_style_plays_legally_in_every_preset_and_table_size(preset):
    log: list = []
    specs = [f"heuristic:{style}" for style in STYLES] + ["random"]
    for n in range(3, 9):
        envs = [rams_env.make("toepen", n, preset=preset, random_carry=True),
                rams_env.make("toepen", n, preset=preset, episode="session")]  # mid-session deals, whole sessions
        for deal in range(24):
            env = envs[deal % 12 == 0]
            agents = [agent_factory(specs[(deal + i) % len(specs)], env.unwrapped.game)(i) for i in range(n)]
            watch(env, agents, seed=deal, log=log)
    assert len(log) > 3000
    params = ToepenParams()
    for style, _, label, s, _ in log:
        if style == "cautious":
            assert label not in ("knock", "stay")
        if style == "caller":
            assert label != "fold"
        if style == "honest" and label == "knock":
            assert s >= params.knock_threshold
    weak = [label == "knock" for style, _, label, s, legal in log
            if style == "bluffer" and legal and s < params.weak_threshold]
    rate = ToepenHeuristic.STYLES["bluffer"]["bluff_rate"]
    assert len(weak) >= 50 and abs(np.mean(weak) - rate) < 4 * np.sqrt(rate * (1 - rate) / len(weak))
    assert {phase for _, phase, *_ in log} >= {"play", "respond", "dirty"}


def test_choices_do_not_change_when_unseen_cards_are_redealt():
    rng = np.random.default_rng(3)
    for preset, n in [("standard", 4), ("any_time", 3), ("armoede", 6)]:
        env = rams_env.make("toepen", n, preset=preset, random_carry=True)
        raw, game = env.unwrapped, env.unwrapped.game
        agents = [ToepenHeuristic(game, style=STYLES[i % len(STYLES)], seed=i) for i in range(n)]
        for seed in range(15):
            env.reset(seed=seed)
            while not raw.game_state.terminal:
                seat = raw.game_state.to_act
                other = game.shuffle_unseen(raw.game_state, seat, rng)
                twin = copy.deepcopy(agents[seat])
                mask = np.zeros(game.actions.size, dtype=np.int8)
                mask[game.legal_actions(raw.game_state)] = 1
                obs_a, obs_b = game.observation.zeros(), game.observation.zeros()
                game.encode(raw.game_state, seat, obs_a)
                game.encode(other, seat, obs_b)
                a = agents[seat].act(obs_a, mask, game.view(raw.game_state, seat))
                assert twin.act(obs_b, mask, game.view(other, seat)) == a
                env.step(a)


# ------------------------------------------------------------ strength vs random
@tiers.parametrize(("preset", "n", "deals"), [("standard", 4, 80), ("siwweschroom", 6, 30), ("any_time", 3, 60)],
                   tiers.reference_preset("toepen"))
def test_default_heuristic_beats_random_over_duplicate_deals(preset, n, deals):
    game = rams_env.make_game("toepen", n, preset=preset)
    result = duplicate_match("toepen", n, {"preset": preset}, agent_factory("heuristic", game)(1), "random", deals)
    assert result.mean - result.ci95 > 0.2, result
