"""DataParallel in a single process: a transparent wrapper with Paddle's names and state
dict keys, compared with real Paddle."""

from __future__ import annotations

import numpy as np
import pytest

import framework


def test_it_runs_the_wrapped_layer_and_trains():
    inner = framework.nn.Linear(2, 3)
    model = framework.DataParallel(inner)
    x = framework.ones([4, 2])
    np.testing.assert_array_equal(model(x).numpy(), inner(x).numpy())
    loss = model.scale_loss(model(x).sum())
    with model.no_sync():
        assert not model.grad_need_sync
        loss.backward()
    assert model.grad_need_sync
    model.apply_collective_grads()
    np.testing.assert_allclose(inner.weight.grad.numpy(), np.full((2, 3), 4.0))


def test_names_and_state_dict_match_paddle():
    paddle = pytest.importorskip("paddle")
    ours = framework.DataParallel(framework.nn.Linear(2, 3))
    theirs = paddle.DataParallel(paddle.nn.Linear(2, 3))
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    state = {k: v.numpy() for k, v in theirs.state_dict().items()}
    missing, unexpected = ours.set_state_dict(state)
    assert not missing and not unexpected
    np.testing.assert_array_equal(ours._layers.weight.numpy(), state["weight"])


def test_it_rejects_a_non_layer():
    with pytest.raises(TypeError):
        framework.DataParallel(lambda x: x)
