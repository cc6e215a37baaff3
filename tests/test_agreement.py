"""evaluation/agreement.py: the share of real choices where a candidate chooses otherwise than its reference."""

from __future__ import annotations

import numpy as np

import rams_env
from agents.registry import agent_factory
from agents.table import chosen, reads
from evaluation.agreement import WAYS, AgreementPlan, difference_kind, main, run_agreement
from evaluation.tournament import deal_seed
from rams_env.core.cards import card


def real_choices(game, deals: int, seed: int) -> int:
    """Decisions with two or more legal actions in ``deals`` of the gate's deals played by default heuristics."""
    heuristic = agent_factory("heuristic", game)(0)
    count = 0
    for d in range(deals):
        state = game.new_state(np.random.default_rng(deal_seed(seed, d)), None)
        while not state.terminal:
            legal = game.legal_actions(state)
            count += len(legal) > 1
            game.apply(state, chosen(game, state, heuristic, legal, reads(heuristic)))
    return count


def test_an_agent_agrees_with_itself_and_every_real_choice_is_asked():
    plan = AgreementPlan("tippen", "heuristic:tight", "heuristic:tight", tables=(("modern", 4),), deals=6)
    (counts,) = run_agreement(plan, progress=False)
    assert set(counts) == set(WAYS) and all(c.differ == 0 and c.asked > 0 for c in counts.values())
    assert counts["scripted"].asked == real_choices(rams_env.make_game("tippen", 4, preset="modern"), 6, plan.seed)
    (alike,) = run_agreement(AgreementPlan("tippen", "heuristic", "heuristic", tables=(("modern", 4),), deals=6),
                             progress=False)
    assert list(alike) == ["scripted"] and alike["scripted"] == counts["scripted"]  # the reference is the opponent


def test_two_styles_disagree_somewhere_but_not_everywhere(capsys):
    plan = AgreementPlan("tippen", "heuristic:tight", "heuristic", opponent="heuristic:loose",
                         tables=(("modern", 4),), deals=20)
    (counts,) = run_agreement(plan, progress=False)
    assert all(0 < c.differ < c.asked for c in counts.values())  # the tight style bids otherwise, plays alike
    assert main(["--agent", "heuristic:tight", "--reference", "heuristic", "--opponent", "heuristic:loose",
                 "--tables", "modern:4", "--deals", "20", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"| modern 4p | {counts['scripted'].share:.1%} ({counts['scripted'].differ} of" in out


def test_differences_are_split_by_what_the_two_cards_do_to_the_trick():
    """Hearts trumps, diamonds led: the kind of each pair of cards, one the agent's and one the reference's."""
    game = rams_env.make_game("tippen", 4, preset="modern")
    state = game.new_state(np.random.default_rng(0), None)
    state.trump = next(t for t, order in enumerate(game.trick_orders) if order.is_trump(card("7h")))
    play = {game.actions.label(a): a for a in range(game.actions.size)}

    def kind(agent: str, reference: str) -> str:
        return difference_kind(game, state, play[agent], play[reference])

    state.trick = [(1, card("Kd")), (2, card("8h"))]  # led, and trumped with the eight
    assert kind("9h", "10h") == "follow: another card that takes the lead"
    assert kind("8c", "9h") == "follow: ducks where the reference takes the lead"
    assert kind("9h", "8c") == "follow: takes the lead where the reference ducks"
    assert kind("7h", "8c") == "follow: a trump thrown where neither takes the lead"  # under the eight
    assert kind("Ad", "8c") == "follow: another card thrown where neither takes the lead"
    state.trick = []
    assert kind("9h", "8c") == "lead: a trump where the reference led a side card"
    assert kind("8c", "9h") == "lead: a side card where the reference led a trump"
    assert kind("8c", "Kc") == "lead: the same suit" and kind("8c", "7d") == "lead: another suit"
    assert kind("tap", "pass") == "pass -> tap" and kind("discard 7c", "discard 8d") == "discard"


def test_kinds_are_counted_and_printed_only_when_asked(capsys):
    plan = AgreementPlan("tippen", "heuristic:tight", "heuristic", tables=(("modern", 4),), deals=20, kinds=True)
    (counts,) = run_agreement(plan, progress=False)
    assert all(sum(c.kinds.values()) == c.differ for c in counts.values())  # every difference has its kind
    (plain,) = run_agreement(AgreementPlan("tippen", "heuristic:tight", "heuristic", tables=(("modern", 4),),
                                           deals=20), progress=False)
    assert plain == counts and not any(c.kinds for c in plain.values())
    main(["--agent", "heuristic:tight", "--reference", "heuristic", "--tables", "modern:4", "--deals", "20",
          "--quiet", "--kinds"])
    kind, number = counts["scripted"].kinds.most_common(1)[0]
    assert f"| modern 4p | scripted | {kind} | {number} |" in capsys.readouterr().out
