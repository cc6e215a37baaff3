"""Data-parallel self-play (training/batched/parallel.py, ``batched.processes``): how the work is shared, the
update of two processes against one process's on the same decisions, a run end to end, its resume, Ctrl-C, a
worker that dies, and what is refused."""

from __future__ import annotations

import copy
import multiprocessing
import os
import signal
import tempfile
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from agents.checkpoint.format import CheckpointError, load_checkpoint, load_trainer_state  # noqa: E402
from cli.train import main as train_main  # noqa: E402
from tests.test_batched_run import _yaml, interrupt_after_an_iteration, tiny  # noqa: E402
from training.batched.network import ActorCritic  # noqa: E402
from training.batched.parallel import SUM_SLACK, Group, SharedSum, minibatch_parts, share, stream_seed  # noqa: E402
from training.batched.ppo import UpdateSettings, update  # noqa: E402
from training.batched.rollout import Batch  # noqa: E402
from training.batched.run import BatchedRun  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402

TWO = "batched.processes=2"


# --------------------------------------------------------------- sharing the work
def test_slots_are_shared_out_whole_and_process_0_keeps_the_seeds_streams():
    for count in (1, 2, 7, 48):
        for size in (1, 2, 3):
            parts = [share(count, rank, size) for rank in range(size)]
            assert sum(parts) == count and max(parts) - min(parts) <= 1
    assert stream_seed(5, 0) == 5 and len({stream_seed(5, rank) for rank in range(4)}) == 4


def test_minibatches_are_one_process_s_as_before_and_several_cut_every_process_alike():
    assert minibatch_parts([10_000], 4096, 0) == (3, 4096, [4096, 4096, 1808])  # 4096-row minibatches, the rest
    assert minibatch_parts([0], 4096, 0) == (0, 4096, [])
    count, rows, totals = minibatch_parts([5000, 3000], 4096, 1)
    assert count == 2 and rows == 1500 and totals == [2500 + 1500, 2500 + 1500]
    count, rows, totals = minibatch_parts([9, 1], 4, 1)  # a process with too few decisions sits some out
    assert count == 3 and rows == 1 and totals == [3 + 1, 3, 3] and sum(totals) == 10


# ------------------------------------------------------------ the update itself
OBS, ACTIONS, ROWS = 30, 5, 64


def decisions(seed: int) -> Batch:
    """A rollout's worth of made-up decisions: sparse observations, legal masks, actions, old log-probabilities."""
    rng = np.random.default_rng(seed)
    obs = (rng.random((ROWS, OBS)) * (rng.random((ROWS, OBS)) < 0.3)).astype(np.float32)
    mask = rng.random((ROWS, ACTIONS)) < 0.6
    mask[:, 0] = True
    actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
    floats = lambda: rng.normal(size=ROWS).astype(np.float32)  # noqa: E731
    return Batch(obs, mask, actions, -np.abs(floats()) - 0.5, floats(), floats(), floats())


def halves(batch: Batch) -> list[Batch]:
    cut = ROWS // 3  # unequal parts: the weighting by each process's share is checked too
    return [Batch(*(getattr(batch, name)[part] for name in Batch.__dataclass_fields__))
            for part in (slice(0, cut), slice(cut, None))]


SETTINGS = UpdateSettings(epochs=1, minibatch_size=ROWS, clip=0.2, ent_coef=0.01, vf_coef=0.5, target_kl=None)


def one_update(net: ActorCritic, batch: Batch, group=None) -> dict[str, torch.Tensor]:
    net = copy.deepcopy(net)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2, eps=1e-5)
    kwargs = {} if group is None else {"group": group}
    update(net, optimizer, batch, SETTINGS, torch.Generator().manual_seed(0), **kwargs)
    return net.state_dict()


def _update_in_a_process(rank: int, rendezvous: str, shared: SharedSum, net: ActorCritic, batch: Batch,
                         out) -> None:
    torch.set_num_threads(1)
    group = Group(rank, 2, rendezvous, shared, lambda: None)
    try:
        out.put((rank, {k: v.numpy().copy() for k, v in one_update(net, batch, group).items()}))
    finally:
        group.close()


def test_two_processes_take_the_step_one_process_takes_on_all_their_decisions():
    """One minibatch holding every decision: two processes with a third and two thirds of them end with the
    weights one process reaches alone (the gradient, the advantages' normalisation and Adam's step are the whole
    minibatch's), to float rounding, and with the same weights as each other, bit for bit."""
    torch.manual_seed(0)
    net, batch = ActorCritic(OBS, ACTIONS, [16, 16]), decisions(1)
    alone = one_update(net, batch)
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    shared = SharedSum(2, sum(p.numel() for p in net.parameters()) + SUM_SLACK)
    with tempfile.TemporaryDirectory() as folder:
        rendezvous = str(Path(folder) / "rendezvous")
        workers = [context.Process(target=_update_in_a_process, args=(rank, rendezvous, shared, net, part, out))
                   for rank, part in enumerate(halves(batch))]
        for worker in workers:
            worker.start()
        results = {rank: {k: torch.from_numpy(v) for k, v in weights.items()}
                   for rank, weights in (out.get(timeout=120) for _ in workers)}
        for worker in workers:
            worker.join(timeout=60)
    assert all(torch.equal(results[0][k], results[1][k]) for k in alone)
    moved = max(float((alone[k] - net.state_dict()[k]).abs().max()) for k in alone)
    assert moved > 1e-3  # the step is not nothing
    for key, value in alone.items():
        assert torch.allclose(results[0][key], value, atol=1e-6), key


# ------------------------------------------------------------------- the run
def _weights(path: Path) -> dict[str, torch.Tensor]:
    return load_checkpoint(path)[1]


def test_a_two_process_run_trains_saves_every_process_and_repeats_itself(tmp_path):
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        assert train_main([str(_yaml(tmp_path, tiny(out, TWO))), "--quiet"]) == 0
        runs.append(out)
    trainer = load_trainer_state(runs[0] / "last.zip")
    assert trainer["processes"] == 2 and len(trainer["workers"]) == 1
    worker = trainer["workers"][0]
    assert worker["steps"] == trainer["steps"] >= 1200  # the steps of both, counted alike in both
    assert worker["league"]["kept"] == trainer["league"]["kept"] and not worker["league"]["weights"]  # shared ones
    first, second = _weights(runs[0] / "final.zip"), _weights(runs[1] / "final.zip")
    assert all(torch.equal(first[k], second[k]) for k in first)
    one = tmp_path / "one"
    assert train_main([str(_yaml(tmp_path, tiny(one))), "--quiet"]) == 0
    assert not all(torch.equal(first[k], v) for k, v in _weights(one / "final.zip").items())  # other deals


def test_a_stopped_two_process_run_resumes_to_the_weights_of_an_uninterrupted_one(tmp_path):
    out = tmp_path / "run"
    first = BatchedRun(tiny(out, TWO, "total_timesteps=600"), quiet=True)
    first.train()
    again = BatchedRun(tiny(out, TWO, "total_timesteps=1200"), quiet=True)
    again.resume()
    assert again.steps == first.steps and len(again.saved_workers) == 1
    again.train()
    straight = BatchedRun(tiny(tmp_path / "straight", TWO, "total_timesteps=1200"), quiet=True)
    straight.train()
    ours, theirs = straight.selfplay.policy.state_dict(), again.selfplay.policy.state_dict()
    assert straight.steps == again.steps and all(torch.equal(ours[k], theirs[k]) for k in ours)
    assert straight.selfplay.league.kept == again.selfplay.league.kept


def test_ctrl_c_saves_every_process_and_says_how_to_resume(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    interrupt_after_an_iteration(monkeypatch)
    assert train_main([str(_yaml(tmp_path, tiny(out, TWO, "total_timesteps=100000"))), "--quiet"]) == 130
    trainer = load_trainer_state(out / "last.zip")
    assert 0 < trainer["steps"] < 100000 and len(trainer["workers"]) == 1
    assert "--resume" in capsys.readouterr().err


def test_a_learner_process_that_dies_ends_the_run_with_one_clear_message(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    iterate = BatchedRun.iterate

    def kill_the_worker(self, bar):
        iterate(self, bar)
        os.kill(self.workers.processes[0].pid, signal.SIGKILL)

    monkeypatch.setattr(BatchedRun, "iterate", kill_the_worker)
    assert train_main([str(_yaml(tmp_path, tiny(out, TWO, "total_timesteps=100000"))), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "learner process 1 stopped: it was killed by SIGKILL" in err and "resume with" in err


def test_processes_are_validated_and_a_resume_with_another_count_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="batched.processes=0: a whole number >= 1"):
        load_config(None, ["trainer=batched", "batched.processes=0"])
    out = tmp_path / "run"
    BatchedRun(tiny(out, TWO, "total_timesteps=300"), quiet=True).train()
    with pytest.raises(CheckpointError, match="trained by 2 learner process.*--set batched.processes=2"):
        BatchedRun(tiny(out), quiet=True).resume()
