"""nn.Bilinear: Paddle's parameter layout and init bounds, a real Paddle state dict loads and
gives Paddle's outputs and gradients, NumPy reference, gradient checks, repr."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.testing import check_backward

rng = np.random.default_rng(0)
X1 = rng.standard_normal((6, 5)).astype(np.float32)
X2 = rng.standard_normal((6, 4)).astype(np.float32)


def test_it_has_paddle_parameters_and_repr():
    layer = nn.Bilinear(5, 4, 3)
    assert list(layer.state_dict()) == ["weight", "bias"]
    assert layer.weight.shape == [3, 5, 4] and layer.bias.shape == [1, 3]
    # XavierUniform with Paddle's fans for [out, in1, in2]: fan_in = in1 * in2 = 20, fan_out = 12
    assert np.abs(layer.weight.numpy()).max() <= np.sqrt(6.0 / 32)
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros((1, 3)))
    assert repr(layer) == "Bilinear(in1_features=5, in2_features=4, out_features=3, dtype=float32)"
    assert nn.Bilinear(5, 4, 3, bias_attr=False).bias is None
    assert "name=bl" in repr(nn.Bilinear(5, 4, 3, name="bl"))


def test_it_matches_numpy_and_has_gradients():
    layer = nn.Bilinear(5, 4, 3)
    layer.bias.set_value(np.arange(3, dtype=np.float32).reshape(1, 3))
    w, b = layer.weight.numpy(), layer.bias.numpy()
    want = np.einsum("bi,oij,bj->bo", X1, w, X2) + b
    got = layer(framework.to_tensor(X1), framework.to_tensor(X2))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    check_backward(
        lambda a, c, weight, bias: framework.nn.functional.bilinear(a, c, weight, bias),
        [X1[:3], X2[:3], w, b],
    )


def test_a_paddle_state_dict_loads_and_gives_paddle_outputs_and_gradients():
    paddle = pytest.importorskip("paddle")
    theirs = paddle.nn.Bilinear(5, 4, 3)
    theirs.bias.set_value(rng.standard_normal((1, 3)).astype(np.float32))
    ours = nn.Bilinear(5, 4, 3)
    missing, unexpected = ours.set_state_dict(
        {k: v.numpy() for k, v in theirs.state_dict().items()}
    )
    assert missing == [] and unexpected == []
    a, c = framework.to_tensor(X1, stop_gradient=False), framework.to_tensor(X2)
    pa, pc = paddle.to_tensor(X1, stop_gradient=False), paddle.to_tensor(X2)
    got, want = ours(a, c), theirs(pa, pc)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), pa.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        ours.weight.grad.numpy(), theirs.weight.grad.numpy(), rtol=1e-5, atol=1e-5
    )
    np.testing.assert_allclose(ours.bias.grad.numpy(), theirs.bias.grad.numpy(), rtol=1e-5)
