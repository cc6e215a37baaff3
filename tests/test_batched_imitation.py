"""The batched trainer's imitation warm start (training/batched/imitation.py): the teacher recorded in every
seat of every table in the general space, the returns each decision is fitted to, the fit, and the run around
it (once per run, kept in checkpoints, not repeated by a resume)."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from agents.checkpoint.format import load_checkpoint  # noqa: E402
from rams_env.core.general import GeneralSpace  # noqa: E402
from tests.test_batched_run import tiny  # noqa: E402
from tests.test_imitation import same_weights  # noqa: E402
from training.batched.imitation import (  # noqa: E402
    CompactRows,
    OwnChoices,
    agreement,
    compact,
    dense,
    fit,
    play_deal,
    record_refresher,
    record_tables,
    seat_returns,
    teacher_tables,
)
from training.batched.network import ActorCritic, masked_log_probs  # noqa: E402
from training.batched.run import BatchedRun  # noqa: E402
from training.tables import resolve_tables  # noqa: E402


def test_each_decision_is_fitted_to_its_seats_score_change_up_to_its_next_decision():
    """Seat 0 decides at scores 0 (ante already paid: -1) and -1, ends at +4; seat 1 decides once, ends at -3."""
    who, scores, final = [0, 1, 0], [-1.0, -1.0, -1.0], [4.0, -3.0]
    assert seat_returns(who, scores, final, gamma=1.0, scale=0.5) == [2.0, -1.5, 2.5]
    # discounted over the seat's own decisions: the first gets -1 (its own step) + 0.5 * 5 (the next)
    assert seat_returns(who, scores, final, gamma=0.5, scale=1.0) == [-1.0 + 0.5 * 5.0, -3.0, 5.0]


@pytest.mark.parametrize("game", ["fipsen", "toepen"])
def test_the_teacher_is_recorded_at_every_table_in_the_general_space(game):
    tables = resolve_tables("all", game, None, {})
    decisions = 100 * len(tables)  # more than any deal takes (8 players: 40 and more): every table gets one
    data = record_tables(game, tables, "heuristic", decisions, gamma=1.0, scale=0.1, seed=3, progress=False)
    space = GeneralSpace(game)
    assert len(data) >= decisions and dense(data.observations).shape == (len(data), space.obs_size)
    assert data.masks.shape == (len(data), space.num_actions) and data.masks.any(dim=1).all()
    assert data.masks[torch.arange(len(data)), data.actions].all()  # every recorded action was legal
    features = {tuple(row.tolist()) for row in dense(data.observations)[:, space.padded_size:space.card_features.start]}
    expected = {tuple(space.table(spec.make_game(game)).features.tolist()) for spec in tables}
    assert features == expected  # round robin: every table (its size and rules) seen
    again = record_tables(game, tables, "heuristic", decisions, gamma=1.0, scale=0.1, seed=3, progress=False)
    assert torch.equal(dense(again.observations), dense(data.observations)) and torch.equal(again.returns, data.returns)


def test_recorded_observations_are_kept_compact_and_come_back_exactly():
    """Deals of different tables (rows of different widths of non-zero entries) stacked as entries give back
    every float of the dense rows, bit for bit (a refresher's fit reads what it read when they were kept
    dense), in far less memory."""
    tables = resolve_tables([{"num_players": 3, "preset": "loup"}, {"num_players": 10, "preset": "meyers_1905_large"}],
                            "tippen", None, {})
    rng, parts = np.random.default_rng(0), []
    for i, table in enumerate(teacher_tables("tippen", tables, "heuristic") * 3):
        parts.append(table.general.obs(play_deal(table, rng, i, 1.0, 0.1).observations))
    stacked = np.concatenate(parts)
    rows = CompactRows.of([compact(part) for part in parts], stacked.shape[1])
    assert len({compact(part).index.shape[1] for part in parts}) > 1  # the parts were padded to one width
    assert torch.equal(rows.dense(), torch.from_numpy(stacked))
    assert torch.equal(dense(rows[5:9]), torch.from_numpy(stacked[5:9]))
    assert torch.equal(dense(rows[torch.tensor([7, 0, 3])]), torch.from_numpy(stacked[[7, 0, 3]]))
    assert rows.rows.index.nbytes + rows.rows.value.nbytes < stacked.nbytes / 3


def test_the_fit_copies_the_teacher_better_than_a_fresh_network():
    tables = resolve_tables("all", "lupfen", None, {})
    data = record_tables("lupfen", tables, "heuristic", 3000, gamma=1.0, scale=0.1, seed=0, progress=False)
    torch.manual_seed(0)
    fresh = ActorCritic(data.observations.size, data.masks.shape[1], [32])
    policy = ActorCritic(data.observations.size, data.masks.shape[1], [32])
    policy.load_state_dict(fresh.state_dict())
    metrics = fit(policy, data, epochs=8, batch_size=128, learning_rate=3e-3, value_coef=0.5, progress=False)
    held_out = data.split(0.1)[1]
    assert metrics["agreement"] == agreement(policy, held_out)
    assert metrics["agreement"] > agreement(fresh, held_out) + 0.2 and metrics["agreement"] > 0.7


def test_a_run_warm_starts_once_keeps_the_metrics_and_a_resume_does_not_repeat_it(tmp_path):
    warm = ["warm_start.teacher=heuristic", "warm_start.decisions=400", "warm_start.epochs=2",
            "total_timesteps=300"]
    run = BatchedRun(tiny(tmp_path, *warm), quiet=True)
    before = run.selfplay.policy.state_dict()["action_net.weight"].clone()
    metrics = run.warm_start()
    assert metrics["decisions"] >= 400 and 0.0 <= metrics["agreement"] <= 1.0
    assert not torch.equal(before, run.selfplay.policy.state_dict()["action_net.weight"])
    meta, weights, _ = load_checkpoint(tmp_path / "last.zip")  # a resume starts after the warm start
    assert meta["warm_start"] == metrics and meta["steps"] == 0
    assert torch.equal(weights["action_net.weight"], run.selfplay.policy.state_dict()["action_net.weight"])
    run.train()
    again = BatchedRun(tiny(tmp_path, *warm), quiet=True)
    again.resume()
    assert again.warm_metrics == metrics and again.steps == run.steps


def test_a_refresher_starts_from_init_from_and_records_only_at_warm_start_tables(tmp_path, monkeypatch):
    """init_from and a teacher together: the checkpoint's weights first, then imitation at the listed tables only
    (a trained agent taught again where its self-play let a decision collapse)."""
    import training.batched.chunks as chunks
    import training.batched.imitation as imitation

    source = BatchedRun(tiny(tmp_path / "source", "total_timesteps=300"), quiet=True)
    source.train()
    weights = source.save("weights.zip", optimizer=False)
    _, start, _ = load_checkpoint(weights)
    recorded, record, fitted_from, fit_ = [], chunks.record_refresher, [], imitation.fit
    monkeypatch.setattr(chunks, "record_refresher",
                        lambda game, tables, *rest, **kw: recorded.append(tables) or record(game, tables, *rest, **kw))
    monkeypatch.setattr(imitation, "fit", lambda policy, *rest, **kw: fitted_from.append(
        {k: v.clone() for k, v in policy.state_dict().items()}) or fit_(policy, *rest, **kw))
    run = BatchedRun(tiny(tmp_path / "refresh", f"batched.init_from={weights}", "tables=all",
                          "warm_start.teacher=heuristic", "warm_start.decisions=300", "warm_start.epochs=1",
                          "warm_start.tables=[{num_players: 5}]", "batched.anchor_coef=0.1"), quiet=True)
    run.warm_start()
    assert [t.label() for t in recorded[0]] == ["5p"] and len(run.tables) > 1
    assert all(torch.equal(fitted_from[0][name], start[name]) for name in start)  # the checkpoint, then the fit
    tuned = run.selfplay.policy.state_dict()
    assert any(not torch.equal(tuned[name], start[name]) for name in start)
    anchor = run.selfplay.anchor.state_dict()
    assert all(torch.equal(anchor[k], tuned[k]) for k in tuned)  # the anchor is the refreshed policy


def test_no_teacher_no_warm_start(tmp_path):
    run = BatchedRun(tiny(tmp_path), quiet=True)
    before = {k: v.clone() for k, v in run.selfplay.policy.state_dict().items()}
    assert run.warm_start() is None and not (tmp_path / "last.zip").exists()
    assert all(np.array_equal(before[k], v) for k, v in run.selfplay.policy.state_dict().items())


def test_a_refresher_records_only_the_decisions_where_its_actions_are_legal():
    tables = resolve_tables([{"num_players": 4, "preset": "modern_knocking"}], "tippen", None, {})
    data = record_tables("tippen", tables, "heuristic", 50, gamma=1.0, scale=0.1, seed=1, progress=False,
                         actions=["knock"])
    game = tables[0].make_game("tippen")
    native = [a for a in range(game.actions.size) if game.actions.label(a) in ("knock", "decline")]
    knock, decline = GeneralSpace("tippen").table(game).action_of_native[native]
    assert len(data) >= 50 and data.masks[:, knock].all()  # the dealer's blind knock, and nothing else
    assert set(data.actions.tolist()) == {knock, decline}  # the heuristic knocks with two stakes in the pot
    with pytest.raises(ValueError, match="never legal"):  # no knocking at the default table
        record_tables("tippen", resolve_tables("default", "tippen", 4, {}), "heuristic", 10, gamma=1.0, scale=0.1,
                      seed=1, progress=False, actions=["knock"])


def test_a_refresher_keeps_the_learners_own_choices_elsewhere():
    """With the deals' other decisions held where they were, teaching the blind knock moves the rest of the play
    far less than the same fit without them."""
    tables = resolve_tables([{"num_players": 4, "preset": "modern_knocking"}], "tippen", None, {})
    taught, rest = record_refresher("tippen", tables, "heuristic", 300, gamma=1.0, scale=0.1, seed=2,
                                    progress=False, actions=["knock"])
    assert len(taught) >= 300 and len(rest) >= len(taught) and not rest.masks[:, taught.actions[0]].any()
    space = GeneralSpace("tippen")
    torch.manual_seed(0)
    trained = ActorCritic(space.obs_size, space.num_actions, [64, 64])  # a policy that plays the rest already
    fit(trained, rest, epochs=4, batch_size=64, learning_rate=3e-3, value_coef=0.5, progress=False)
    drifts = []
    for keep in (rest, None):
        policy = copy.deepcopy(trained)
        before = OwnChoices.of(policy, rest)
        metrics = fit(policy, taught, epochs=6, batch_size=64, learning_rate=3e-3, value_coef=0.5,
                      progress=False, rest=keep)
        assert metrics["agreement"] > 0.7
        with torch.no_grad():
            drifts.append(float(before.drift(policy, torch.arange(len(rest)), 0.0)))
    assert drifts[0] < drifts[1] / 2


def test_refresher_actions_are_validated_against_the_games_labels():
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="warm_start.actions: a list of tippen action labels"):
        load_config(None, ["trainer=batched", "game=tippen", "warm_start.actions=[knok]"])
    assert load_config(None, ["trainer=batched", "game=tippen", "warm_start.actions=[play, tap]"])
    assert load_config(None, ["trainer=batched", "game=tippen", "warm_start.actions=[play, discard]"])
    with pytest.raises(ConfigError, match=r"or play / discard for every such card, got \['discards'\]"):
        load_config(None, ["trainer=batched", "game=tippen", "warm_start.actions=[discards]"])
    with pytest.raises(ConfigError, match="or play for every such card"):  # Toepen discards nothing
        load_config(None, ["trainer=batched", "game=toepen", "warm_start.actions=[discard]"])


def test_a_card_play_refresher_records_exactly_the_decisions_where_a_card_may_be_played():
    """``play`` stands for every card of the table's pack (its labels are the cards' codes), nothing else."""
    tables = resolve_tables([{"num_players": 4, "preset": "loup"}, {"num_players": 3}], "tippen", None, {})
    taught, rest = record_refresher("tippen", tables, "heuristic", 300, gamma=1.0, scale=0.1, seed=2,
                                    progress=False, actions=["play"])
    space = GeneralSpace("tippen")
    plays = torch.tensor([label in space.cards for label in space.labels])
    assert (taught.masks & plays).any(dim=1).all() and plays[taught.actions].all()
    assert not (rest.masks & plays).any(), "a decision with a card to play was left untaught"


def test_a_discard_refresher_records_exactly_the_decisions_where_a_card_may_be_discarded():
    """``discard`` stands for every ``discard <card>`` label of the table: after the dealer's sniff at
    alvensleben_sniffing, the heuristic's discards are taught and its card play is left to the held rows."""
    tables = resolve_tables([{"num_players": 3, "preset": "alvensleben_sniffing"}], "tippen", None, {})
    taught, rest = record_refresher("tippen", tables, "heuristic", 200, gamma=1.0, scale=0.1, seed=2,
                                    progress=False, actions=["discard"])
    space = GeneralSpace("tippen")
    discards = torch.tensor([label.startswith("discard ") for label in space.labels])
    assert len(taught.actions) == 200 and discards[taught.actions].all()
    assert (taught.masks & discards).any(dim=1).all()
    assert not (rest.masks & discards).any(), "a decision with a card to discard was left untaught"


def test_a_card_segments_name_stands_for_each_of_its_labels():
    from rams_env.core.actions import PLAY, with_plays

    labels = ["tap", "7c", "8c", "discard 7c", "discard 8c"]
    assert with_plays([PLAY], labels, {"7c", "8c"}) == ["7c", "8c"]
    assert with_plays(["discard", "tap"], labels, {"7c", "8c"}) == ["discard 7c", "discard 8c", "tap"]
    assert with_plays(["discard 8c"], labels, {"7c", "8c"}) == ["discard 8c"]  # a single card's label is itself
    assert with_plays(["shove"], labels, {"7c", "8c"}) == ["shove"]  # unknown names are the caller's to refuse


def test_a_refresher_holding_other_tables_keeps_their_decisions_and_the_same_taught_deals():
    """``hold`` (warm_start.hold_other_tables): half the held decisions come from deals at the other tables, in
    their own random stream, so the taught deals are the ones recorded without them."""
    space = GeneralSpace("tippen")
    taught_at = resolve_tables([{"num_players": 4, "preset": "modern_grupp"}], "tippen", None, {})
    others = resolve_tables([{"num_players": 3}, {"num_players": 5, "preset": "modern_knocking"}], "tippen",
                            None, {})
    kwargs = dict(gamma=1.0, scale=0.1, seed=4, progress=False, actions=["tap"])
    taught, rest = record_refresher("tippen", taught_at, "heuristic", 200, hold=others, **kwargs)
    alone, alone_rest = record_refresher("tippen", taught_at, "heuristic", 200, **kwargs)
    assert torch.equal(dense(taught.observations), dense(alone.observations))
    assert torch.equal(taught.actions, alone.actions)
    table_of_row = dense(rest.observations)[:, space.padded_size:space.card_features.start]
    features = {tuple(row.tolist()) for row in table_of_row}
    expected = {tuple(space.table(spec.make_game("tippen")).features.tolist()) for spec in taught_at + others}
    assert features == expected  # the taught table's other decisions and both held tables
    elsewhere = (table_of_row != dense(taught.observations)[0, space.padded_size:space.card_features.start]).any(dim=1)
    tap = space.labels.index("tap")
    assert rest.masks[elsewhere, tap].any()  # at the other tables the taught action's decisions are held
    assert not rest.masks[~elsewhere, tap].any()  # at the taught table they are taught
    assert len(rest) <= 2 * 200 + 60 and len(alone_rest) <= 2 * 200 + 60  # the caps, plus a last deal each


@pytest.mark.parametrize("settings, message", [
    (["warm_start.hold_other_tables=true", "warm_start.actions=[tap]"], "with warm_start.actions and"),
    (["warm_start.hold_other_tables=true", "warm_start.tables=[{num_players: 4}]"], "with warm_start.actions and"),
    (["warm_start.hold_other_tables=1", "warm_start.actions=[tap]", "warm_start.tables=[{num_players: 4}]"],
     "true or false"),
    (["warm_start.hold_coef=-1"], "warm_start.hold_coef: a weight of 0 or more"),
    (["warm_start.fit_seed=-1"], "warm_start.fit_seed: 0 .the run's own order. or a positive whole number"),
    (["warm_start.fit_seed=1.5"], "warm_start.fit_seed=1.5: expected a whole number"),
    (["warm_start.fit_seed=true"], "warm_start.fit_seed=true: expected a whole number, not true or false"),
])
def test_holding_other_tables_is_a_refreshers_option(settings, message):
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match=message):
        load_config(None, ["trainer=batched", "game=tippen", "tables=all", *settings])
    with pytest.raises(ConfigError, match="the batched trainer's"):  # a refresher is the batched trainer's
        load_config(None, ["trainer=sb3", "game=tippen", "warm_start.hold_other_tables=true",
                           "warm_start.actions=[tap]", "warm_start.tables=[{num_players: 4}]"])


def test_a_run_holds_exactly_its_tables_not_taught(tmp_path, monkeypatch):
    import training.batched.chunks as chunks

    held, record = [], chunks.record_refresher
    monkeypatch.setattr(chunks, "record_refresher",
                        lambda *args, **kw: held.append(kw["hold"]) or record(*args, **kw))
    run = BatchedRun(tiny(tmp_path, "game=tippen", "tables=[{num_players: 3}, {num_players: 4}, {num_players: 5}]",
                          "warm_start.teacher=heuristic", "warm_start.decisions=50", "warm_start.epochs=1",
                          "warm_start.actions=[tap]", "warm_start.tables=[{num_players: 4}]",
                          "warm_start.hold_other_tables=true"), quiet=True)
    run.warm_start()
    assert [t.label() for t in held[0]] == ["3p", "5p"]


def test_holding_other_tables_moves_their_play_less():
    """A network that plays like the tight heuristic at three tables is taught the default heuristic's tap at one
    of them: its taps at the other two move far less when their decisions are held too than when only the
    taught deals' other decisions are (without it, Tippen's refresher at modern_grupp and modern_sniffing moved
    the trainer's evaluation at modern 4p from +0.13 to -0.30 chips/deal against the heuristic, docs/results.md)."""
    space = GeneralSpace("tippen")
    taught_at = resolve_tables([{"num_players": 4, "preset": "modern_grupp"}], "tippen", None, {})
    others = resolve_tables([{"num_players": 4}, {"num_players": 3}], "tippen", None, {})
    tight = record_tables("tippen", taught_at + others, "heuristic:tight", 3000, gamma=1.0, scale=0.1, seed=5,
                          progress=False)
    torch.manual_seed(0)
    trained = ActorCritic(space.obs_size, space.num_actions, [64, 64])
    fit(trained, tight, epochs=4, batch_size=64, learning_rate=3e-3, value_coef=0.5, progress=False)
    kwargs = dict(gamma=1.0, scale=0.1, seed=5, progress=False, actions=["tap"])
    taught, rest = record_refresher("tippen", taught_at, "heuristic", 300, **kwargs)
    _, with_others = record_refresher("tippen", taught_at, "heuristic", 300, hold=others, **kwargs)
    elsewhere = (dense(with_others.observations)[:, space.padded_size:space.card_features.start]
                 != dense(taught.observations)[0, space.padded_size:space.card_features.start])
    tap = space.labels.index("tap")
    other_taps = with_others.batch(torch.nonzero(elsewhere.any(dim=1) & with_others.masks[:, tap]).flatten())
    drifts = []
    for held in (with_others, rest):
        policy = copy.deepcopy(trained)
        before = OwnChoices.of(policy, other_taps)
        fit(policy, taught, epochs=6, batch_size=64, learning_rate=3e-3, value_coef=0.5, progress=False, rest=held)
        with torch.no_grad():
            drifts.append(float(before.drift(policy, torch.arange(len(other_taps)), 0.0)))
    assert drifts[0] < drifts[1] / 2


def test_hold_coef_weighs_the_held_decisions():
    """0: the fit is the one without held decisions, bit for bit; a larger weight moves them less."""
    tables = resolve_tables([{"num_players": 4, "preset": "modern_knocking"}], "tippen", None, {})
    taught, rest = record_refresher("tippen", tables, "heuristic", 300, gamma=1.0, scale=0.1, seed=2,
                                    progress=False, actions=["knock"])
    space = GeneralSpace("tippen")
    torch.manual_seed(0)
    start = ActorCritic(space.obs_size, space.num_actions, [64, 64])  # a policy that plays the rest already
    fit(start, rest, epochs=4, batch_size=64, learning_rate=3e-3, value_coef=0.5, progress=False)
    drifts, weights = [], []
    for rest_, coef in ((None, 1.0), (rest, 0.0), (rest, 1.0), (rest, 10.0)):
        policy = copy.deepcopy(start)
        before = OwnChoices.of(policy, rest)
        torch.manual_seed(1)
        fit(policy, taught, epochs=6, batch_size=64, learning_rate=3e-3, value_coef=0.5, progress=False,
            rest=rest_, hold_coef=coef)
        weights.append(policy.state_dict())
        with torch.no_grad():
            drifts.append(float(before.drift(policy, torch.arange(len(rest)), 0.0)))
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert drifts[3] < drifts[2] < drifts[1]


def test_a_fit_seed_gives_a_fit_of_its_own_whatever_drew_from_torch_before_it():
    """``warm_start.fit_seed``: 0 fits in the order torch's global generator gives (where the run's seed and the
    network's build left it: how the shipped recipes were fitted); another number fits in an order and with held
    batches of its own, the same whatever drew from the global generator before, and another than 0's."""
    tables = resolve_tables([{"num_players": 4, "preset": "modern_knocking"}], "tippen", None, {})
    taught, rest = record_refresher("tippen", tables, "heuristic", 200, gamma=1.0, scale=0.1, seed=2,
                                    progress=False, actions=["knock"])
    space = GeneralSpace("tippen")
    torch.manual_seed(0)
    start = ActorCritic(space.obs_size, space.num_actions, [32])

    def fitted(before: int, fit_seed: int) -> dict:
        policy = copy.deepcopy(start)
        torch.manual_seed(before)  # whatever drew from the global generator before the fit
        fit(policy, taught, epochs=2, batch_size=32, learning_rate=3e-3, value_coef=0.5, progress=False, rest=rest,
            fit_seed=fit_seed)
        return policy.state_dict()

    assert same_weights(fitted(5, 3), fitted(6, 3)) and same_weights(fitted(5, 0), fitted(5, 0))
    assert not same_weights(fitted(5, 3), fitted(5, 4)) and not same_weights(fitted(5, 3), fitted(5, 0))
    assert not same_weights(fitted(5, 0), fitted(6, 0))  # 0: the run's own order, from the global generator


def test_one_kept_recording_is_fitted_again_with_another_fit_seed_without_recording_it_again(tmp_path, monkeypatch):
    """The recipe's re-fit (docs/training.md, "Record once, fit many times"): the same run with ``warm_start.cache``
    and another ``warm_start.fit_seed`` reads every chunk, records none, and ends with other weights; the same
    fit_seed again gives the same weights."""
    from training.batched import chunks as chunking

    warm = ["warm_start.teacher=heuristic", "warm_start.decisions=300", "warm_start.epochs=2", "warm_start.chunks=2",
            f"warm_start.cache={tmp_path / 'kept'}", "total_timesteps=300"]

    def warm_started(fit_seed: int) -> dict:
        run = BatchedRun(tiny(tmp_path / f"run{fit_seed}", *warm, f"warm_start.fit_seed={fit_seed}"), quiet=True)
        run.warm_start()
        return run.selfplay.policy.state_dict()

    first = warm_started(1)
    recorded = []
    real = chunking.record_chunk
    monkeypatch.setattr(chunking, "record_chunk", lambda chunk: recorded.append(chunk.seed) or real(chunk))
    other, again = warm_started(2), warm_started(1)
    assert recorded == []
    assert not same_weights(first, other) and same_weights(first, again)


def test_flips_counts_the_held_choices_whose_greedy_action_changed():
    """The refresher's ``rest_flips``: the share of held decisions with a real choice where the greedy action (the
    one the gate plays) is no longer the one before the fit; forced moves are not counted."""
    tables = resolve_tables([{"num_players": 4, "preset": "modern_knocking"}], "tippen", None, {})
    _, rest = record_refresher("tippen", tables, "heuristic", 100, gamma=1.0, scale=0.1, seed=2, progress=False,
                               actions=["knock"])
    space = GeneralSpace("tippen")
    torch.manual_seed(0)
    policy = ActorCritic(space.obs_size, space.num_actions, [32])
    before = OwnChoices.of(policy, rest)
    everything = torch.arange(len(rest))
    assert before.flips(policy, everything) == 0.0
    changed = copy.deepcopy(policy)
    with torch.no_grad():
        changed.action_net.weight.mul_(-1)
        changed.action_net.bias.mul_(-1)
        now = masked_log_probs(changed.logits(dense(rest.observations)), rest.masks).argmax(-1)
    choices = rest.masks.sum(-1) > 1
    expected = float((now != before.log_probs.argmax(-1))[choices].float().mean())
    assert before.flips(changed, everything) == pytest.approx(expected) and expected > 0.5


def test_a_batched_run_with_a_teacher_may_be_its_warm_start_alone(tmp_path):
    """total_timesteps: 0 (a refresher whose PPO afterwards changed nothing it was meant to): the warm-started
    weights are the run's last weights; without a teacher, or with another trainer, 0 stays refused."""
    from training.config import ConfigError, load_config

    run = BatchedRun(tiny(tmp_path, "warm_start.teacher=heuristic", "warm_start.decisions=200",
                          "warm_start.epochs=1", "total_timesteps=0"), quiet=True)
    run.warm_start()
    warmed = {k: v.clone() for k, v in run.selfplay.policy.state_dict().items()}
    run.train()
    meta, weights, _ = load_checkpoint(tmp_path / "last.zip")
    assert meta["steps"] == 0 and all(torch.equal(weights[k], warmed[k]) for k in warmed)
    for settings in (["trainer=batched"], ["trainer=sb3", "warm_start.teacher=heuristic"]):
        with pytest.raises(ConfigError, match="total_timesteps must be a positive whole number"):
            load_config(None, [*settings, "total_timesteps=0"])


@pytest.mark.parametrize("confidence", [0.0, 1.0])
def test_a_rollout_teacher_plays_the_searchers_choices_and_is_recorded_like_any_other(confidence):
    """``rollout:heuristic``: every decision with a choice is the rollout searcher's (evaluation/ceiling.py), the
    same searcher with the same re-deals and t-test (``warm_start.rollout_confidence``) asked at the same
    positions; the records keep the usual shape."""
    from evaluation.ceiling import Searcher

    tables = resolve_tables([{"num_players": 4, "preset": "loup"}], "tippen", None, {})
    table = teacher_tables("tippen", tables, "rollout:heuristic", seed=4, worlds=3, confidence=confidence)[0]
    assert table.search.plan.confidence == confidence
    deal = play_deal(table, np.random.default_rng(9), 9, gamma=1.0, scale=0.1)
    game, state = table.game, table.game.new_state(np.random.default_rng(9), None, random_carry=True)
    searcher = Searcher.teacher(game, "heuristic", 3, np.random.default_rng([4, 0]), confidence)
    for teacher in table.teachers:  # play_deal resets them for the deal; the heuristic keeps no memory
        teacher.reset(0)
    departures = 0
    for action in deal.actions:
        assert searcher.improved(state, table.teachers) == action
        departures += action != searcher.scripted_action(state, table.teachers)
        game.apply(state, int(action))
    assert state.terminal and departures > 0  # it searched, and found better than the heuristic somewhere
    data = record_tables("tippen", tables, "rollout:heuristic", 40, gamma=1.0, scale=0.1, seed=4, progress=False)
    assert len(data) >= 40 and data.masks[torch.arange(len(data)), data.actions].all()


def test_chunked_recordings_depend_on_the_chunks_not_the_workers_and_one_chunk_is_the_one_stream():
    from training.batched.chunks import Recording, record_chunks

    tables = resolve_tables([{"num_players": 3, "preset": "loup"}, {"num_players": 4}], "tippen", None, {})
    recording = Recording("tippen", tuple(tables), "heuristic", 1.0, 0.1, ("play",), tuple(
        resolve_tables([{"num_players": 5}], "tippen", None, {})))
    one = record_refresher("tippen", tables, "heuristic", 90, 1.0, 0.1, 6, False, ["play"], recording.hold)
    assert all(_same(a, b) for a, b in zip(one, record_chunks(recording, 90, 6, progress=False), strict=True))
    alone, split = (record_chunks(recording, 90, 6, chunks=3, workers=w, progress=False) for w in (1, 2))
    assert all(_same(a, b) for a, b in zip(alone, split, strict=True))
    assert len(alone[0]) >= 90 and not _same(alone[0], one[0])  # three streams of deals, not the one
    with pytest.raises(ValueError, match="chunks=0"):
        record_chunks(recording, 90, 6, chunks=0)


def test_a_kept_chunk_is_read_back_as_recorded_and_only_missing_chunks_are_recorded(tmp_path, monkeypatch):
    """``warm_start.cache``: a second recording reads every chunk the first kept (nothing recorded again), a longer
    one records only its new chunks, and the records are the ones an uncached recording gives."""
    from training.batched import chunks as chunking
    from training.batched.chunks import Recording, record_chunks

    tables = resolve_tables([{"num_players": 3, "preset": "loup"}], "tippen", None, {})
    recording = Recording("tippen", tuple(tables), "heuristic", 1.0, 0.1, ("play",), tuple(
        resolve_tables([{"num_players": 5}], "tippen", None, {})))
    plain = record_chunks(recording, 60, 6, chunks=2, progress=False)
    first = record_chunks(recording, 60, 6, chunks=2, progress=False, cache=tmp_path)
    assert len(list(tmp_path.glob("tippen-*.npz"))) == 2
    recorded = []
    real = chunking.record_chunk
    monkeypatch.setattr(chunking, "record_chunk", lambda chunk: recorded.append(chunk.seed) or real(chunk))
    again = record_chunks(recording, 60, 6, chunks=2, progress=False, cache=tmp_path)
    assert recorded == []
    for a, b, c in zip(plain, first, again, strict=True):
        assert _same(a, b) and _same(a, c) and a.observations.rows.index.dtype == c.observations.rows.index.dtype
    longer = record_chunks(recording, 90, 6, chunks=3, progress=False, cache=tmp_path)  # 30 a chunk, as before
    assert recorded == [6 + 2 * chunking.CHUNK_SEED_STRIDE]
    assert all(_same(a, b) for a, b in zip(longer, record_chunks(recording, 90, 6, chunks=3, progress=False),
                                           strict=True))


def test_a_kept_chunk_that_is_not_a_recording_is_refused_not_unpickled_or_recorded_over(tmp_path):
    from training.batched.chunks import CHUNK_SEED_STRIDE, Recording, record_chunks
    from training.batched.record_cache import CacheError, chunk_path

    tables = resolve_tables([{"num_players": 3, "preset": "loup"}], "tippen", None, {})
    recording = Recording("tippen", tuple(tables), "heuristic", 1.0, 0.1)
    path = chunk_path(tmp_path, recording, 6 + 0 * CHUNK_SEED_STRIDE, 20)
    path.write_bytes(b"not an npz")
    with pytest.raises(CacheError, match="not a readable recorded chunk"):
        record_chunks(recording, 20, 6, progress=False, cache=tmp_path)
    np.savez(path, taught_index=np.zeros((1, 1), object))  # a pickled array: refused unread
    with pytest.raises(CacheError, match="not a readable recorded chunk"):
        record_chunks(recording, 20, 6, progress=False, cache=tmp_path)
    name = {"chunk": np.frombuffer(path.stem.encode(), np.uint8)}
    np.savez(path, taught_index=np.zeros((1, 1), np.int16), **name)
    with pytest.raises(CacheError, match="incomplete"):
        record_chunks(recording, 20, 6, progress=False, cache=tmp_path)
    path.unlink()
    record_chunks(recording, 20, 6, progress=False, cache=tmp_path)  # kept now; then another chunk's file under
    other = chunk_path(tmp_path, recording, 7, 20)  # this chunk's name is refused
    other.write_bytes(path.read_bytes())
    with pytest.raises(CacheError, match="not the chunk its name says"):
        record_chunks(recording, 20, 7, progress=False, cache=tmp_path)


def test_a_chunks_name_changes_with_what_it_records_and_with_the_code(monkeypatch):
    from training.batched import record_cache
    from training.batched.chunks import Recording

    tables = tuple(resolve_tables([{"num_players": 3, "preset": "loup"}], "tippen", None, {}))
    base = record_cache.chunk_key(Recording("tippen", tables, "heuristic", 1.0, 0.1), 6, 20)
    assert base == record_cache.chunk_key(Recording("tippen", tables, "heuristic", 1.0, 0.1), 6, 20)
    others = [record_cache.chunk_key(Recording("tippen", tables, "rollout:heuristic", 1.0, 0.1), 6, 20),
              record_cache.chunk_key(Recording("tippen", tables, "heuristic", 1.0, 0.1, worlds=4), 6, 20),
              record_cache.chunk_key(Recording("tippen", tables, "rollout:heuristic", 1.0, 0.1, confidence=2.0), 6,
                                     20),
              record_cache.chunk_key(Recording("tippen", tables, "heuristic", 1.0, 0.1), 7, 20),
              record_cache.chunk_key(Recording("tippen", tables, "heuristic", 1.0, 0.1), 6, 21)]
    monkeypatch.setattr(record_cache, "code_fingerprint", lambda: "other code")
    others.append(record_cache.chunk_key(Recording("tippen", tables, "heuristic", 1.0, 0.1), 6, 20))
    assert len({base, *others}) == 7


def _same(a, b) -> bool:
    return len(a) == len(b) and torch.equal(dense(a.observations), dense(b.observations)) and all(
        torch.equal(getattr(a, name), getattr(b, name)) for name in ("masks", "actions", "returns"))


@pytest.mark.parametrize(("settings", "message"), [
    (["trainer=sb3", "warm_start.teacher=rollout:heuristic"], "a searching teacher is the batched trainer's"),
    (["trainer=batched", "warm_start.teacher=rollout:self"], "rollout:<scripted spec>"),
    (["trainer=batched", "warm_start.teacher=rollout:nobody"], "warm_start.teacher"),
    (["trainer=batched", "warm_start.chunks=0"], "warm_start.chunks must be a positive whole number"),
    (["trainer=sb3", "warm_start.workers=2"], "warm_start.workers: the batched trainer's"),
    (["trainer=batched", "warm_start.decisions=4", "warm_start.chunks=8"], "at most warm_start.decisions"),
    (["trainer=sb3", "warm_start.cache=/tmp"], "warm_start.cache: the batched trainer's"),
    (["trainer=batched", "warm_start.teacher=heuristic", "warm_start.rollout_confidence=2"],
     "only a searching teacher"),
    (["trainer=batched", "warm_start.teacher=rollout:heuristic", "warm_start.rollout_confidence=-1"],
     "rollout_confidence: a t-statistic of 0 or more"),
    (["trainer=batched", "warm_start.teacher=rollout:heuristic", "warm_start.rollout_confidence=true"],
     "rollout_confidence=true: expected a number"),
    (["trainer=batched", "warm_start.teacher=", "warm_start.rollout_confidence=2"],
     r"only a searching teacher \(rollout:<style>\) has a choice to weigh; warm_start.teacher is none"),
    (["trainer=batched", f"warm_start.cache={Path(__file__).resolve().parents[1] / 'pyproject.toml'}"],
     "warm_start.cache: a directory"),
])
def test_searching_teachers_and_chunked_recordings_are_validated(settings, message):
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match=message):
        load_config(None, [*settings, "game=tippen"])


# ----------------------------------------------------------- the teacher among other styles (warm_start.among)
def test_among_seats_one_style_in_zero_to_all_but_one_seats_each_as_often():
    tables = resolve_tables([{"num_players": 4, "preset": "alvensleben_sniffing"}], "tippen", None, {})
    table = teacher_tables("tippen", tables, "heuristic", among=["heuristic:loose", "random"])[0]
    rng, counts, styles = np.random.default_rng(0), np.zeros(4, int), set()
    for _ in range(2000):
        players = table.seated(rng)
        strangers = [seat for seat, player in enumerate(players) if player is not table.teachers[seat]]
        counts[len(strangers)] += 1
        drawn = {k for k, style in enumerate(table.strangers) for seat in strangers if players[seat] is style[seat]}
        assert len(drawn) == (1 if strangers else 0)  # one style a deal, each stranger in its own seat
        styles |= drawn
    assert counts.min() > 400 and counts.max() < 600  # 0, 1, 2 and 3 strangers: a quarter each
    assert styles == {0, 1}  # both styles sat
    plain = teacher_tables("tippen", tables, "heuristic")[0]
    assert plain.seated(None) is plain.teachers  # no among: the teacher in every seat, nothing drawn


def test_among_keeps_exactly_the_teachers_decisions_of_the_same_deals():
    """The teacher's seats' decisions, in order, as a replay of the same deal logs them; the strangers' never."""
    from agents.table import chosen

    tables = resolve_tables([{"num_players": 5, "preset": "alvensleben_sniffing"}], "tippen", None, {})
    table = teacher_tables("tippen", tables, "heuristic", among=["random"])[0]
    game, checked = table.game, 0
    for deal_seed in range(12):
        players = table.seated(np.random.default_rng(deal_seed))
        deal = play_deal(table, np.random.default_rng(deal_seed), deal_seed, gamma=1.0, scale=0.1, players=players)
        state = game.new_state(np.random.default_rng(deal_seed), None, random_carry=True)
        for i, player in enumerate(players):
            player.reset(deal_seed + i)
        logged = []
        while not state.terminal:
            seat = state.to_act
            action = chosen(game, state, players[seat])
            if players[seat] is table.teachers[seat]:
                obs = np.zeros(game.observation.size, np.float32)
                game.encode(state, seat, obs)
                logged.append((obs, action))
            game.apply(state, action)
        assert len(deal.actions) == len(logged)
        for row, (obs, action) in enumerate(logged):
            assert np.array_equal(deal.observations[row], obs) and deal.actions[row] == action
        checked += any(player is not teacher for player, teacher in zip(players, table.teachers, strict=True))
    assert checked >= 6  # most of the deals had a stranger seated


def test_a_searching_teacher_among_strangers_rolls_out_with_them_in_their_seats():
    """``rollout:heuristic`` beside ``random``: the teachers' choices are the searcher's asked with the deal's own
    players (the strangers play on in its rollouts); the strangers' are their own and never recorded."""
    from agents.table import chosen
    from evaluation.ceiling import Searcher

    tables = resolve_tables([{"num_players": 3, "preset": "loup"}], "tippen", None, {})
    table = teacher_tables("tippen", tables, "rollout:heuristic", seed=4, worlds=2, among=["random"])[0]
    players = [table.strangers[0][0], *table.teachers[1:]]  # a random player in seat 0
    deal = play_deal(table, np.random.default_rng(9), 9, gamma=1.0, scale=0.1, players=players)
    game, state = table.game, table.game.new_state(np.random.default_rng(9), None, random_carry=True)
    searcher = Searcher.teacher(game, "heuristic", 2, np.random.default_rng([4, 0]))
    replay = copy.deepcopy(players)
    for i, player in enumerate(replay):
        player.reset(9 + i)
    recorded = iter(deal.actions)
    while not state.terminal:
        if state.to_act == 0:
            action = chosen(game, state, replay[0])
        else:
            action = searcher.improved(state, replay)
            assert next(recorded) == action
        game.apply(state, int(action))
    assert next(recorded, None) is None  # every recorded decision was a teacher's


def test_a_recording_among_styles_is_reproducible_and_not_the_recording_among_the_teacher():
    """``among``: the seats beside the teacher play the styles named; the recording is still determined by its
    seed, and it is not the one made with the teacher in every seat."""
    tables = resolve_tables([{"num_players": 4}], "tippen", None, {})
    plain = record_refresher("tippen", tables, "heuristic", 300, 1.0, 0.1, 5, False, ["play"])
    mixed = record_refresher("tippen", tables, "heuristic", 300, 1.0, 0.1, 5, False, ["play"],
                             among=["heuristic:loose"])
    again = record_refresher("tippen", tables, "heuristic", 300, 1.0, 0.1, 5, False, ["play"],
                             among=["heuristic:loose"])
    assert all(_same(a, b) for a, b in zip(mixed, again, strict=True))  # determined by the seed
    assert len(mixed[0]) >= 300 and not _same(mixed[0], plain[0])


@pytest.mark.parametrize(("settings", "message"), [
    (["warm_start.among=[heuristic]"], r"warm_start.among: 'heuristic' is not a scripted style beside the teacher"),
    (["warm_start.among=[self]"], r"warm_start.among: 'self' is not a scripted style"),
    (["warm_start.among=[nobody]"], r"warm_start.among: opponent 'nobody'"),
    (["warm_start.among=heuristic:loose"], r"warm_start.among: a list of scripted agent specs"),
    (["warm_start.also=[{among: [heuristic]}]"], r"warm_start.also\[0\].among: 'heuristic' is not"),
    (["warm_start.teacher=", "warm_start.also=[]", "warm_start.tables=[]", "warm_start.actions=[]",
      "warm_start.among=[heuristic:loose]"], "warm_start.among: styles beside a teacher"),
    (["trainer=sb3", "warm_start.tables=[]", "warm_start.actions=[]", "warm_start.among=[heuristic:loose]"],
     "warm_start.among: the batched trainer's"),
])
def test_among_is_validated(settings, message):
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match=message):
        load_config(None, [*TAP_AND_LOUP, *settings])


# ------------------------------------------------------------------ several lessons in one fit (warm_start.also)
TAP_AND_LOUP = ["trainer=batched", "game=tippen", "tables=[{num_players: 3}, {num_players: 4}, {num_players: 3, "
                "preset: loup}, {num_players: 4, preset: modern_grupp}]", "warm_start.teacher=heuristic",
                "warm_start.tables=[{num_players: 3, preset: loup}]", "warm_start.actions=[play]"]


def test_more_lessons_take_the_warm_starts_own_keys_they_leave_out():
    from training.config import Lesson, load_config

    config = load_config(None, [*TAP_AND_LOUP, "warm_start.decisions=500", "warm_start.chunks=4",
                                "warm_start.also=[{tables: [{num_players: 4, preset: modern_grupp}], "
                                "actions: [tap], chunks: 1}]"])
    own, tap = config.warm_start.lessons()
    assert own == Lesson("heuristic", [{"num_players": 3, "preset": "loup"}], ["play"], 500, 8, 0.0, [], 4)
    assert tap == Lesson("heuristic", [{"num_players": 4, "preset": "modern_grupp"}], ["tap"], 500, 8, 0.0, [], 1)
    assert [[t.label() for t in specs] for specs in config.lesson_table_specs()] == [["3p_loup"],
                                                                                      ["4p_modern_grupp"]]


@pytest.mark.parametrize(("settings", "message"), [
    (["warm_start.also={teacher: heuristic}"], r"warm_start.also: a list of lessons"),
    (["warm_start.also=[{teachr: heuristic}]"], r"unknown key 'teachr' in warm_start.also\[0\]"),
    (["warm_start.teacher=", "warm_start.also=[{teacher: heuristic}]"], "needs a warm_start.teacher"),
    (["warm_start.also=[{teacher: nobody}]"], r"warm_start.also\[0\].teacher"),
    (["warm_start.also=[{teacher: ''}]"], r"warm_start.also\[0\].teacher: a lesson needs a teacher"),
    (["warm_start.also=[{decisions: 0}]"], r"warm_start.also\[0\].decisions must be a positive whole number"),
    (["warm_start.also=[{decisions: 3, chunks: 4}]"], r"warm_start.also\[0\].chunks=4: at most"),
    (["warm_start.also=[{actions: [knok]}]"], r"warm_start.also\[0\].actions: a list of tippen action labels"),
    (["warm_start.also=[{tables: [{num_players: 5}]}]"], r"warm_start.also\[0\].tables\[0\]: 5p is not one of"),
    (["warm_start.hold_other_tables=true", "warm_start.also=[{tables: []}]"],
     r"with warm_start.also\[0\].actions and warm_start.also\[0\].tables"),
    (["trainer=sb3", "warm_start.tables=[]", "warm_start.actions=[]", "warm_start.also=[{teacher: heuristic}]"],
     "warm_start.also: the batched trainer's"),
])
def test_more_lessons_are_validated_and_named_in_the_error(settings, message):
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match=message):
        load_config(None, [*TAP_AND_LOUP, *settings])


def test_each_lesson_is_recorded_from_its_own_stream_and_the_run_holds_the_tables_none_teaches(tmp_path,
                                                                                                 monkeypatch):
    """The warm start's own lesson is the recording it was without ``also`` (lesson 0 draws from the seed); a
    second lesson draws from seed + LESSON_SEED_STRIDE at its tables; the hold is every table neither teaches."""
    import training.batched.chunks as chunks
    import training.batched.imitation as imitation

    recorded, record = [], chunks.record_chunks
    monkeypatch.setattr(chunks, "record_chunks", lambda recording, decisions, seed, *rest, **kw: recorded.append(
        (recording, seed)) or record(recording, decisions, seed, *rest, **kw))
    fitted, fit_ = [], imitation.fit
    monkeypatch.setattr(imitation, "fit", lambda policy, data, *rest, **kw: fitted.append(data) or fit_(
        policy, data, *rest, **kw))
    both = ["warm_start.decisions=60", "warm_start.epochs=1", "warm_start.hold_other_tables=true",
            "warm_start.also=[{tables: [{num_players: 4, preset: modern_grupp}], actions: [tap], decisions: 40}]"]
    run = BatchedRun(tiny(tmp_path, *TAP_AND_LOUP[1:], *both), quiet=True)
    metrics = run.warm_start()
    (loup, loup_seed), (tap, tap_seed) = recorded
    assert [t.label() for t in loup.tables] == ["3p_loup"] and [t.label() for t in tap.tables] == ["4p_modern_grupp"]
    assert loup.teacher == tap.teacher == "heuristic" and (loup.actions, tap.actions) == (("play",), ("tap",))
    assert [t.label() for t in loup.hold] == [t.label() for t in tap.hold] == ["3p", "4p"]
    assert (loup_seed, tap_seed) == (0, chunks.LESSON_SEED_STRIDE)
    own, taps = fitted[0]
    alone = record_refresher("tippen", list(loup.tables), "heuristic", 60, loup.gamma, loup.scale, 0, False,
                             ["play"], loup.hold)[0]
    assert _same(own, alone)  # the warm start's own lesson, as recorded without another beside it
    assert len(taps) >= 40 and taps.masks[:, GeneralSpace("tippen").labels.index("tap")].all()
    assert metrics["decisions"] == len(own) + len(taps)
    assert 0.0 <= metrics["lesson0_agreement"] <= 1.0 and 0.0 <= metrics["lesson1_agreement"] <= 1.0


def test_several_lessons_are_fitted_together_each_holding_out_its_own_last_tenth():
    """One lesson given as a list is the plain fit, weight for weight; two are fitted together, each one's last
    tenth held out and its agreement reported alone (a lesson at the end would otherwise be all of the held-out
    share)."""
    tables = resolve_tables([{"num_players": 4}], "tippen", None, {})
    first = record_tables("tippen", tables, "heuristic", 300, gamma=1.0, scale=0.1, seed=0, progress=False)
    second = record_tables("tippen", tables, "heuristic:tight", 300, gamma=1.0, scale=0.1, seed=1, progress=False)
    policies = []
    for data in (first, [first], [first, second]):
        torch.manual_seed(0)
        policy = ActorCritic(first.observations.size, first.masks.shape[1], [16])
        policies.append((policy, fit(policy, data, epochs=2, batch_size=64, learning_rate=3e-3, value_coef=0.5,
                                     progress=False)))
    (plain, plain_metrics), (listed, listed_metrics), (together, metrics) = policies
    assert plain_metrics == listed_metrics and all(
        torch.equal(a, b) for a, b in zip(plain.state_dict().values(), listed.state_dict().values(), strict=True))
    tails = [first.split(0.1)[1], second.split(0.1)[1]]
    assert metrics["decisions"] == len(first) + len(second) and "lesson0_agreement" not in plain_metrics
    assert [metrics["lesson0_agreement"], metrics["lesson1_agreement"]] == [agreement(together, t) for t in tails]
