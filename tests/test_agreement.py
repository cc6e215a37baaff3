"""evaluation/agreement.py: the share of real choices where a candidate chooses otherwise than its reference."""

from __future__ import annotations

import numpy as np

import rams_env
from agents.registry import agent_factory
from agents.table import chosen, reads
from evaluation.agreement import WAYS, AgreementPlan, main, run_agreement
from evaluation.tournament import deal_seed


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
    plan = AgreementPlan("tippen", "heuristic", "heuristic", tables=(("modern", 4),), deals=6)
    (counts,) = run_agreement(plan, progress=False)
    assert set(counts) == set(WAYS) and all(c.differ == 0 and c.asked > 0 for c in counts.values())
    assert counts["scripted"].asked == real_choices(rams_env.make_game("tippen", 4, preset="modern"), 6, plan.seed)


def test_two_styles_disagree_somewhere_but_not_everywhere(capsys):
    plan = AgreementPlan("tippen", "heuristic:tight", "heuristic", tables=(("modern", 4),), deals=20)
    (counts,) = run_agreement(plan, progress=False)
    assert all(0 < c.differ < c.asked for c in counts.values())  # the tight style bids otherwise, plays alike
    assert main(["--agent", "heuristic:tight", "--reference", "heuristic", "--tables", "modern:4", "--deals", "20",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"| modern 4p | {counts['scripted'].share:.1%} ({counts['scripted'].differ} of" in out
