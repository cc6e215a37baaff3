"""The Fipsen heuristic: exact decisions in hand-made positions of every variant, legal play of every
style over every preset, choices blind to unseen cards, and a duplicate-deal edge over random."""

from __future__ import annotations

import numpy as np
import pytest

import rams_env
from agents.heuristics.fipsen import FipsenHeuristic, FipsenParams
from agents.random_agent import RandomAgent
from agents.registry import AgentSpecError, agent_factory
from agents.table import play_episode
from evaluation.duplicate import duplicate_match
from tests import tiers
from tests.fipsen_helpers import table
from tests.scripting import play

PRESETS = ["thedinghausen", "grossenaspe", "prisdorf", "anseggerfips", "duttfips"]
STYLES = list(FipsenHeuristic.STYLES)


def decide(raw, style: str = "default", **params) -> str:
    """The heuristic's choice for the player to act."""
    agent = FipsenHeuristic(raw.game, style=style, seed=0, **params)
    return agent.choose(raw.view(f"player_{raw.game_state.to_act}"), raw.legal_labels())


# ================================================================ bidding
OTHERS = ["As Ks Qs 9s 10s", "Ad Kd Qd Jd 10d"]


def test_grossenaspe_bids_good_with_top_clubs_and_passes_a_hopeless_hand():
    env, raw = table("grossenaspe", ["Ac Kc Qc Jc Ah", "Js 8s 7h Qh 9d", *OTHERS], first="9c 8c")
    assert decide(raw) == "bid 4 good"  # four top trumps and an ace: Four, clubs doubling it
    play(env, "0:bid_1")
    assert decide(raw) == "pass"  # a queen and a jack without support: no contract is likely


def test_grossenaspe_kieker_is_bid_without_courts_and_conceded_when_the_pick_up_is_poor():
    poor = "7c 8c 9c 10c 7d 8d 9d 10d 9s 10s 9h 10h"  # the skat and talon the Kieker declarer takes
    env, raw = table("grossenaspe", ["7s 8s 7h 8h Ah", "Ac Kc Qc Jc As", "Ks Qs Js Kh Qh", "Ad Kd Qd Jd Jh"],
                     first=poor)
    assert decide(raw) == "bid kieker"  # no courts: the dealt hand goes, a Kieker is worth more than passing
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    while raw.game_state.phase.value == "discard":
        env.step(raw.action_id(decide(raw)))
    assert decide(raw) == "concede"  # five of those twelve cannot take every trick: concede five, not ten


def test_grossenaspe_kieker_with_top_trumps_is_played():
    rich = "Ac Kc Qc Jc 10c Ad 7d 8d 9d 10d 9s 10s"
    env, raw = table("grossenaspe", ["7s 8s 7h 8h Ah", "As Ks Qs Js 9c", "Kh Qh Jh 10h 9h", "Kd Qd Jd 8c 7c"],
                     first=rich)
    play(env, "0:bid_kieker 1:pass 2:pass 3:pass")
    while raw.game_state.phase.value == "discard":
        env.step(raw.action_id(decide(raw)))
    assert sorted(raw.view("player_0")["hand"]) == sorted("Ac Kc Qc Jc 10c".split())  # the five top clubs
    assert decide(raw) == "play_kieker"


def test_prisdorf_siebener_fips_is_always_bid():
    env, raw = table("prisdorf", ["7c 7s 7h 7d Ac", "Js 8s 9h Qh 10h", "As Ks Qs 9s 10s", "Ah Kh 8c Jh Jc"])
    assert decide(raw) == "bid siebener"  # thirty points without play


def test_prisdorf_holder_holds_or_overcalls_with_strength_and_passes_without():
    hands = ["Ah Kh Qh Jh As", "Js 8s 9h 9c 10c", "Ks Qs 9s 10s 7s", "Ac Kc 8c Qc Jc"]
    env, raw = table("prisdorf", hands)
    play(env, "0:bid_2 1:bid_2_hand")
    assert raw.game_state.holder_to_answer and decide(raw) == "bid 3 hand"  # four top hearts: overcall the 2 Hand
    weak = ["7s 8s 9c 10c Jh", "Js 8h 9h Qs 10s", "Ks Qc 9s 10h 7h", "Ac Kc 8c Qh Jc"]
    env, raw = table("prisdorf", weak)
    play(env, "0:bid_2 1:bid_2_hand")
    assert decide(raw) == "pass"


def test_mecklenburg_bids():
    env, raw = table("anseggerfips", ["Ad As Ah Ks 7c", "Js 8h 9h Qs 10s", "7s Qc 9s 10h 7h", "Ac Kc 8c Qh Jc"])
    assert decide(raw) == "bid 4 ruten"  # the Rutenas is the only trump: with two aces and a king, Four
    env, raw = table("anseggerfips", ["7c 8c Js 9h 10h", "Ac Kc Qc 9c Ah", "7s Jc 9s Qh 7h", "Ad As 8s Kh 10c"])
    assert decide(raw) == "pass"
    env, raw = table("duttfips", ["7s 8s 9c 10c Jh", "Js 8h 9h Qs 10s", "Ks Qc 9s 10h 7h", "Ac Kc 8c Qh Jc"])
    assert "pass" not in raw.legal_labels() and decide(raw) == "bid dutt"  # forced: the cheapest contract


def test_thedinghausen_calls_fipsen_only_with_five_sure_tricks():
    hands = ["Ah Kh Qh Jh 10h", "Ac Kc Qc Jc 10c", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d", "7c 8c 9c 7s 8s"]
    env, raw = table("thedinghausen", hands, first="9h")
    assert decide(raw) == "fipsen"  # the five top trumps
    play(env, "0:pass")
    assert decide(raw) == "pass"  # five top clubs, but hearts are trumps


# ========================================================= declarer's hand
def test_declarer_discards_weak_singletons_and_names_the_long_suit():
    hands = ["Ah Kh Qh 9h As", "7c 8s 7h 8h 9d", "Ac Ks Qs 9s 10s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="7s 8d")
    play(env, "0:bid_2 1:pass 2:pass 3:pass")
    assert decide(raw) == "discard 7s"
    play(env, "0:discard_7s")
    assert decide(raw) == "discard 8d"
    play(env, "0:discard_8d")
    assert decide(raw) == "trump h"  # four hearts with the top three, though clubs would double


def test_play_on_for_a_durch_only_with_the_rest_sure():
    hands = ["Ac Kc Qc Jc 10c", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", hands, first="9c 8c")
    play(env, "0:bid_1 1:pass 2:pass 3:pass 0:discard_8c 0:discard_9c 0:trump_c 0:Ac 1:Ah 2:As 3:Ad")
    assert raw.game_state.phase.value == "play_on" and decide(raw) == "play_on"  # four top trumps left
    weak = ["Ac 7s 8h 9d 7h", "Ah Kh Qh Jh 10h", "As Ks Qs Js 10s", "Ad Kd Qd Jd 10d"]
    env, raw = table("grossenaspe", weak, first="8s 9s")
    play(env, "0:bid_1 1:pass 2:pass 3:pass 0:discard_8s 0:discard_9s 0:trump_c 0:Ac 1:Ah 2:As 3:Ad")
    assert decide(raw) == "stop"


# ================================================================ card play
def defence(trick: str):
    """Grossenaspe, player_0 declares Two in clubs and leads ``trick`` cards for seats 0.. in turn."""
    hands = ["Ac Kc Qc Qs 7h", "7s 8h 9h 10h Ah", "8s 9d 10d Jd Kh", "Ks As 9s 7d 8d"]
    env, raw = table("grossenaspe", hands, first="7c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_7c 0:discard_8c 0:trump_c")
    for seat, card in enumerate(trick.split()):
        play(env, f"{seat}:{card}")
    return env, raw


def test_last_player_takes_the_trick_cheaply_and_ducks_what_is_lost():
    env, raw = defence("Qs 7s 8s")
    assert decide(raw) == "Ks"  # the king beats the queen; the ace is kept
    hands = ["Ac Kc Qc As 7h", "7s 8h 9h 10h Ah", "8s 9d 10d Jd Kh", "Ks Qs 9s 7d 8d"]
    env, raw = table("grossenaspe", hands, first="7c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_7c 0:discard_8c 0:trump_c 0:As 1:7s 2:8s")
    assert decide(raw) == "9s"  # nothing beats the ace: the lowest spade


def test_declarer_leads_the_top_trump_to_draw_trumps():
    env, raw = defence("")
    assert decide(raw) == "Ac"


def test_defender_lets_a_partners_winning_trick_stand():
    hands = ["Ac Kc Qc Qs 7h", "7s 9h 10h Kh 10d", "8s 9d Jd Ah 8h", "Ks As 9s 7d 8d"]
    env, raw = table("grossenaspe", hands, first="7c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_7c 0:discard_8c 0:trump_c 0:7h 1:Kh")
    assert decide(raw) == "8h"  # the partner's king holds and the declarer has played: keep the ace
    hands = ["Ac Kc Qc Qs 7h", "7s 9s 10s Js 10d", "8s 9d Jd Ah 9h", "Ks As Kh 7d 8d"]
    env, raw = table("grossenaspe", hands, first="7c 8c")
    play(env, "0:bid_2 1:pass 2:pass 3:pass 0:discard_7c 0:discard_8c 0:trump_c 0:7h 1:10d")
    assert decide(raw) == "9h"  # the declarer's seven would win: beat it, cheaply (a partner plays last)


def test_declarer_trumps_a_side_ace_with_the_lowest_trump():
    hands = ["Ac 7c Kh 9h 8d", "As Ah 8h 7h 10h", "7s Qh Jh 9d 10d", "8s Jd Qd Kd Ad"]
    env, raw = table("grossenaspe", hands, first="7d 9c", dealer=0)  # player_1 is forehand and leads
    play(env, "1:pass 2:pass 3:pass 0:bid_2 0:discard_7d 0:discard_9c 0:trump_c 1:As 2:7s 3:8s")
    assert decide(raw) == "7c"  # void in spades, last to play: ruff cheaply, keep the ace


# ===================================================== legality and blindness
@tiers.parametrize("preset", PRESETS, tiers.reference_preset("fipsen"))
def test_every_style_plays_legally_against_random(preset):
    """Thousands of decisions: every style, mixed with random players, over whole deals."""
    env = rams_env.make("fipsen", variant=preset, illegal_action="raise")
    raw = env.unwrapped
    n, steps = raw.game.num_players, 0
    for style in STYLES:
        for d in range(40):
            agents = [FipsenHeuristic(raw.game, style=style, seed=d) if (s + d) % 2 else RandomAgent(d + s)
                      for s in range(n)]
            play_episode(env, agents, seed=d)  # the deal loop raises IllegalActionError on any illegal choice
            steps += len(raw.game_state.history)
    assert steps >= 1000


@tiers.parametrize("preset", PRESETS, tiers.reference_preset("fipsen"))
def test_choices_do_not_depend_on_unseen_cards(preset):
    """Re-dealing what the seat to act cannot see changes none of its choices."""
    game = rams_env.make_game("fipsen", preset=preset)
    rng = np.random.default_rng(7)
    checked = 0
    for d in range(15):
        state = game.new_state(np.random.default_rng(d))
        while not state.terminal:
            seat = state.to_act
            legal = game.legal_labels(state)
            choices = set()
            for other in (state, game.shuffle_unseen(state, seat, rng), game.shuffle_unseen(state, seat, rng)):
                agent = FipsenHeuristic(game, style=STYLES[d % len(STYLES)], seed=1)
                choices.add(agent.choose(game.view(other, seat), legal))
            assert len(choices) == 1, f"seat {seat} chose {choices} in {state.phase}"
            checked += 1
            game.apply(state, game.actions.parse(choices.pop()))
    assert checked > 100


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "thedinghausen"])  # it has no auction
def test_cached_hand_values_are_those_computed_afresh(preset):
    """The auction's hand values are cached (an auction judges every contract, each asking again for the
    same hand and trumps): with the caches warm from every other seat's hands, every seat's judgement of
    every contract is the one computed with empty caches, so no argument is missing from a cache key."""
    from agents.heuristics import fipsen_eval
    from agents.heuristics.fipsen_play import knowledge

    game = rams_env.make_game("fipsen", preset=preset)
    caches = (fipsen_eval._estimate, fipsen_eval.talon_card_chance)

    def judged(view, ruff_weight):
        know = knowledge(game, view)
        return [fipsen_eval.judge_bid(game, contract, view["hand"], know, 1.0, 2.0, ruff_weight)
                for contract in game.ladder]

    checked = 0
    for d in range(20):
        state = game.new_state(np.random.default_rng(d))
        views = [game.view(state, seat) for seat in range(game.num_players)]
        for seat, view in enumerate(views):
            for ruff_weight in (0.5, 1.0):
                warm = [judged(other, ruff_weight) for other in views]  # every seat's values in the caches
                for cache in caches:
                    cache.cache_clear()
                assert judged(view, ruff_weight) == warm[seat]
                checked += 1
    assert checked == 40 * game.num_players and fipsen_eval._estimate.cache_info().currsize > 0


# ============================================================ strength
@tiers.parametrize("preset", PRESETS, tiers.reference_preset("fipsen"))
def test_default_beats_random_over_duplicate_deals(preset):
    game = rams_env.make_game("fipsen", preset=preset)
    result = duplicate_match("fipsen", None, {"variant": preset}, FipsenHeuristic(game, seed=3), "random",
                             deals=60, seed=500)
    assert result.mean - result.ci95 > 0, result


# ============================================================ parameters
def test_styles_configs_and_bad_parameters():
    game = rams_env.make_game("fipsen")
    agent = agent_factory("heuristic:configs/agents/fipsen.yaml", game)(0)
    assert isinstance(agent, FipsenHeuristic) and agent.params == FipsenParams()
    assert agent_factory("heuristic:tight", game)(0).params.min_make > FipsenParams().min_make
    with pytest.raises(AgentSpecError, match="styles: default, tight, loose"):
        agent_factory("heuristic:reckless", game)
    with pytest.raises(AgentSpecError, match="bogus"):
        agent_factory("heuristic:bogus=1", game)
    with pytest.raises(ValueError, match="play_on must be a probability"):
        FipsenHeuristic(game, play_on=1.5)
