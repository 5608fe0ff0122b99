"""nn.SyncBatchNorm (one process: BatchNorm over 2- to 5-D inputs): a real Paddle SyncBatchNorm
state dict loads and gives what Paddle's BatchNorm gives with it (Paddle's own sync kernel is
GPU-only), in training and eval; fixed weight/bias with False attrs; convert_sync_batchnorm."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.testing import check_backward

rng = np.random.default_rng(0)
SHAPES = {2: (6, 3), 3: (4, 3, 5), 4: (2, 3, 4, 4), 5: (2, 3, 2, 3, 3)}
PADDLE_BN = {2: "BatchNorm1D", 3: "BatchNorm1D", 4: "BatchNorm2D", 5: "BatchNorm3D"}
LAYOUT = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}


def test_it_has_batch_norms_parameters_and_repr():
    paddle = pytest.importorskip("paddle")
    ours, theirs = nn.SyncBatchNorm(3, momentum=0.8), paddle.nn.SyncBatchNorm(3, momentum=0.8)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    fixed = nn.SyncBatchNorm(3, weight_attr=False, bias_attr=False)
    assert fixed.weight.stop_gradient and fixed.bias.stop_gradient
    np.testing.assert_array_equal(fixed.weight.numpy(), np.ones(3))


@pytest.mark.parametrize("ndim", [2, 3, 4, 5])
def test_it_normalises_as_paddles_batch_norm_with_a_paddle_state_dict(ndim):
    paddle = pytest.importorskip("paddle")
    source = paddle.nn.SyncBatchNorm(3)
    state = {
        k: rng.standard_normal(v.shape).astype(np.float32) for k, v in source.state_dict().items()
    }
    state["_variance"] = np.abs(state["_variance"]) + 0.5
    ours = nn.SyncBatchNorm(3)
    reference = getattr(paddle.nn, PADDLE_BN[ndim])(3, data_format=LAYOUT[ndim])
    assert ours.set_state_dict(state) == ([], [])
    reference.set_state_dict({k: paddle.to_tensor(v) for k, v in state.items()})
    x = rng.standard_normal(SHAPES[ndim]).astype(np.float32)
    for train in (True, False):
        ours.train() if train else ours.eval()
        reference.train() if train else reference.eval()
        got, want = ours(framework.to_tensor(x)), reference(paddle.to_tensor(x))
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ours._mean.numpy(), reference._mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours._variance.numpy(), reference._variance.numpy(), rtol=1e-5)


def test_channel_last_inputs_and_gradients():
    x = rng.standard_normal((2, 4, 4, 3))
    layer = nn.SyncBatchNorm(3, data_format="NHWC")
    want = (x - x.mean((0, 1, 2))) / np.sqrt(x.var((0, 1, 2)) + 1e-5)
    np.testing.assert_allclose(
        layer(framework.to_tensor(x.astype(np.float32))).numpy(), want, rtol=1e-4, atol=1e-5
    )
    double = nn.SyncBatchNorm(3, data_format="NLC")
    double.to(dtype="float64")
    check_backward(double, [x[:, 0]])


def test_convert_sync_batchnorm_replaces_batch_norms_and_keeps_their_state():
    model = nn.Sequential(nn.Conv2D(2, 3, 1), nn.BatchNorm2D(3), nn.Sequential(nn.BatchNorm1D(4)))
    weight = model[1].weight
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(converted[1], nn.SyncBatchNorm) and converted[1].weight is weight
    assert isinstance(converted[2][0], nn.SyncBatchNorm) and converted[2][0]._data_format == "NCL"
    assert isinstance(converted[0], nn.Conv2D)
    assert list(converted.state_dict()) == list(model.state_dict())
    x = framework.randn([2, 2, 3, 3])
    model.eval()
    converted.eval()
    np.testing.assert_array_equal(converted[:2](x).numpy(), model[:2](x).numpy())
