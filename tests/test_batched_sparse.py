"""The sparse first layer (training/batched/sparse.py) computes what the dense network computes: logits,
values and every parameter's gradient, to float rounding; the parameters and state_dict are unchanged."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from training.batched import sparse as sparse_module
from training.batched.network import ActorCritic, masked_log_probs
from training.batched.sparse import sparse_rows

OBS, ACTIONS = 40, 6


def observations(rows: int, seed: int = 0) -> torch.Tensor:
    """Mostly zero rows with a few values in [0, 1], as general observations are; one row all zero."""
    generator = torch.Generator().manual_seed(seed)
    obs = torch.rand((rows, OBS), generator=generator)
    obs[torch.rand((rows, OBS), generator=generator) > 0.15] = 0
    obs[0] = 0
    return obs


def test_sparse_rows_round_trip_and_padding():
    obs = observations(9)
    sparse = sparse_rows(obs)
    assert sparse.index.shape == sparse.value.shape == (9, int((obs != 0).sum(1).max()))
    assert torch.equal(sparse.dense(OBS), obs)
    assert torch.equal(sparse[2:5].dense(OBS), obs[2:5])
    rows = torch.tensor([7, 2, 2, 0])  # a minibatch's draw: any order, repeats
    assert torch.equal(sparse.index_select(0, rows).dense(OBS), obs[rows])
    with pytest.raises(ValueError, match="dim 0"):
        sparse.index_select(1, rows)
    assert not sparse.value[0].any()  # an all-zero row is padding only


@pytest.mark.parametrize("rows", [None, [7, 2, 2, 0], [], [0], list(range(300, 0, -3))])
def test_the_numba_entries_are_numpys_and_read_the_rows_asked(rows):
    """The rollout's path (numba, the slots' rows read in place) gives numpy's entries for those rows: same columns,
    values, order and padding, for any rows in any order, repeats, none, an all-zero row alone."""
    pytest.importorskip("numba")
    obs = observations(301, seed=5)
    obs[5, 3] = float("nan")  # not zero: an entry on both paths
    obs[6, 4] = -0.0  # zero: on neither
    picked = obs if rows is None else obs[torch.tensor(rows, dtype=torch.long)]
    expected = sparse_module._numpy_sparse_rows(picked.numpy())
    for dense in (obs, obs.numpy()):
        ours = sparse_rows(dense, None if rows is None else np.array(rows, np.int64))
        assert ours.index.dtype == torch.int32 and ours.value.dtype == torch.float32
        assert torch.equal(ours.index, expected.index)
        assert torch.equal(ours.value.isnan(), expected.value.isnan())
        assert torch.equal(ours.value.nan_to_num(7.0), expected.value.nan_to_num(7.0))


@pytest.mark.parametrize("arch", [[16, 8], [12], []])
def test_sparse_forward_and_gradients_equal_the_dense_ones(arch):
    torch.manual_seed(1)
    net = ActorCritic(OBS, ACTIONS, arch)
    obs, mask = observations(33), torch.rand(33, ACTIONS) > 0.3
    mask[:, 0] = True
    results = []
    for inputs in (obs, sparse_rows(obs)):
        net.zero_grad()
        logits, values = net(inputs)
        loss = masked_log_probs(logits, mask).exp()[:, 1].sum() + values.pow(2).sum()
        loss.backward()
        results.append((logits.detach(), values.detach(), net.logits(inputs).detach(),
                        {name: p.grad.clone() for name, p in net.named_parameters()}))
    (logits, values, policy, grads), (s_logits, s_values, s_policy, s_grads) = results
    assert torch.allclose(logits, s_logits, atol=1e-6) and torch.allclose(values, s_values, atol=1e-6)
    assert torch.allclose(policy, logits) and torch.allclose(s_policy, s_logits)
    assert grads.keys() == s_grads.keys() == dict(net.named_parameters()).keys()
    for name, grad in grads.items():
        assert torch.allclose(grad, s_grads[name], atol=1e-5), name


@pytest.mark.parametrize("arch", [[16, 8], [12], []])
@pytest.mark.parametrize("as_sparse", [False, True])
@pytest.mark.parametrize("policy_rows", [20, 0])
def test_the_policy_tower_over_the_leading_rows_is_it_over_those_rows_alone(arch, as_sparse, policy_rows):
    """``forward(obs, policy_rows=k)``: the logits of the first ``k`` rows, the values of all, and the gradients of
    a loss on them, equal those of the whole forward with the other rows' logits left out."""
    torch.manual_seed(2)
    net = ActorCritic(OBS, ACTIONS, arch)
    obs = observations(33, seed=5)
    inputs = sparse_rows(obs) if as_sparse else obs
    results = []
    for rows in (policy_rows, None):
        net.zero_grad()
        logits, values = net(inputs, policy_rows=rows)
        assert len(logits) == (33 if rows is None else policy_rows)  # the other rows not computed at all
        logits = logits[:policy_rows]
        (logits.pow(2).sum() + logits[:, 1].sum() + values.pow(2).sum()).backward()
        results.append((logits.detach(), values.detach(),
                        {name: p.grad.clone() for name, p in net.named_parameters() if p.grad is not None}))
    (logits, values, grads), (reference, reference_values, reference_grads) = results
    assert values.shape == (33,)
    assert torch.allclose(logits, reference, atol=1e-6) and torch.allclose(values, reference_values, atol=1e-6)
    assert grads.keys() == reference_grads.keys()
    for name, grad in reference_grads.items():
        assert torch.allclose(grads[name], grad, atol=1e-5), name


def test_the_network_keeps_its_parameters():
    net = ActorCritic(OBS, ACTIONS, [16, 8])
    assert [k for k in net.state_dict()] == [
        "mlp_extractor.policy_net.0.weight", "mlp_extractor.policy_net.0.bias",
        "mlp_extractor.policy_net.2.weight", "mlp_extractor.policy_net.2.bias",
        "mlp_extractor.value_net.0.weight", "mlp_extractor.value_net.0.bias",
        "mlp_extractor.value_net.2.weight", "mlp_extractor.value_net.2.bias",
        "action_net.weight", "action_net.bias", "value_net.weight", "value_net.bias"]


@pytest.mark.parametrize("layers", [[(257, 24), (100, 5)], [(257, 24)], [(100, 5), (257, 24), (3, 7)]])
def test_the_numba_weight_gradient_is_torchs_sparse_product(monkeypatch, layers):
    """The first layer's weight and bias gradients by the numba loop equal torch's sparse-times-dense product and
    column sums (the path without numba) to float rounding, padding included (rows of every length, one all zero),
    for layers over every row and over the leading rows only (the policy tower in the update: the decisions with a
    choice, ppo.py), of different widths; the loop takes two layers a pass, so one layer and three (one pass with
    a partner of no rows) are checked too."""
    from training.batched import sparse

    obs = sparse_rows(observations(257, seed=3))
    grads = tuple(torch.randn(rows, width, generator=torch.Generator().manual_seed(4 + i))
                  for i, (rows, width) in enumerate(layers))
    fast, fast_biases = sparse.weight_gradients(obs.index, obs.value, grads, OBS)
    monkeypatch.setattr(sparse, "njit", None)
    reference, reference_biases = sparse.weight_gradients(obs.index, obs.value, grads, OBS)
    for grad, weight, bias, reference_weight, reference_bias in zip(grads, fast, fast_biases, reference,
                                                                    reference_biases, strict=True):
        assert weight.shape == reference_weight.shape == (OBS, grad.shape[1])
        assert torch.allclose(weight, reference_weight, atol=1e-5)
        assert bias.shape == reference_bias.shape == (grad.shape[1],)
        assert torch.allclose(bias, grad.sum(0), atol=1e-5) and torch.allclose(reference_bias, grad.sum(0))
        used = (obs.dense(OBS)[:len(grad)] != 0).any(0)
        assert not weight[~used].any()  # a column none of the layer's rows uses gets no gradient


def test_the_indices_are_int32_and_every_consumer_reads_them():
    """int32 column indices halve what a minibatch gathers; ``dense`` (scatter_add wants int64) and the rollout
    buffer's saved state (tests/test_batched_learner.py round-trips it) read them."""
    sparse = sparse_rows(observations(9))
    assert sparse.index.dtype == torch.int32 and sparse.value.dtype == torch.float32
    assert torch.equal(sparse.dense(OBS), observations(9))
