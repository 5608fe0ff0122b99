"""`pad` (Paddle's `nn.functional.pad`): layouts, modes, gradients."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.manipulation.pad import pad
from framework.testing import check_backward, check_double_backward

NUMPY_MODES = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_paddle_docstring_examples():
    x = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 1, 2, 3)
    t = framework.to_tensor(x)
    out = pad(t, [0, 0, 0, 0, 0, 0, 1, 1, 0, 0], pad_from_left_axis=True)
    assert out.shape == [1, 1, 1, 4, 3]
    out = pad(t, [0, 0, 0, 0, 0, 0, 1, 1, 0, 0], pad_from_left_axis=False)
    assert out.shape == [1, 3, 1, 2, 3]
    assert pad(t, [1, 0, 0, 1]).shape == [1, 1, 1, 3, 4]
    reflect = pad(t, [2, 2, 1, 1, 0, 0], mode="reflect")
    np.testing.assert_array_equal(reflect.numpy()[0, 0, 0, 0], [6, 5, 4, 5, 6, 5, 4])
    replicate = pad(t, [2, 2, 1, 1, 0, 0], mode="replicate")
    np.testing.assert_array_equal(replicate.numpy()[0, 0, 0, 0], [1, 1, 1, 2, 3, 3, 3])
    circular = pad(t, [2, 2, 1, 1, 0, 0], mode="circular")
    np.testing.assert_array_equal(circular.numpy()[0, 0, 0, 0], [5, 6, 4, 5, 6, 4, 5])
    ncl = pad(framework.to_tensor(np.array([[[1.0, 2.0, 3.0]]])), [2, 3], value=1.0)
    np.testing.assert_array_equal(ncl.numpy()[0, 0], [1, 1, 1, 2, 3, 1, 1, 1])


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize(
    "shape,data_format,widths_of",
    [
        ((2, 2, 4), "NCL", lambda p: [(0, 0), (0, 0), (p[0], p[1])]),
        ((1, 4, 2), "NLC", lambda p: [(0, 0), (p[0], p[1]), (0, 0)]),
        ((1, 2, 3, 4), "NCHW", lambda p: [(0, 0), (0, 0), (p[2], p[3]), (p[0], p[1])]),
        ((1, 3, 4, 2), "NHWC", lambda p: [(0, 0), (p[2], p[3]), (p[0], p[1]), (0, 0)]),
        (
            (1, 1, 3, 3, 4),
            "NCDHW",
            lambda p: [(0, 0), (0, 0), (p[4], p[5]), (p[2], p[3]), (p[0], p[1])],
        ),
    ],
)
def test_spatial_padding_matches_numpy(mode, shape, data_format, widths_of):
    x = _rand(*shape)
    spatial = len(shape) - 2
    pads = [1, 2, 2, 0, 0, 1][: 2 * spatial]
    got = pad(framework.to_tensor(x), pads, mode=mode, value=0.5, data_format=data_format)
    widths = widths_of(pads)
    if mode == "constant":
        expected = np.pad(x, widths, constant_values=0.5)
    else:
        expected = np.pad(x, widths, mode=NUMPY_MODES[mode])
    np.testing.assert_array_equal(got.numpy(), expected)
    check_backward(lambda t: pad(t, pads, mode=mode, data_format=data_format), [x])


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_non_constant_modes_are_twice_differentiable(mode):
    check_double_backward(lambda t: pad(t * t, [2, 1, 1, 2], mode=mode), [_rand(1, 1, 3, 3)])


def test_constant_padding_of_any_rank_from_the_last_dim():
    x = _rand(2, 3)
    got = pad(framework.to_tensor(x), [1, 2])
    np.testing.assert_array_equal(got.numpy(), np.pad(x, [(0, 0), (1, 2)]))
    got = pad(framework.to_tensor(x), [1, 0, 0, 2])
    np.testing.assert_array_equal(got.numpy(), np.pad(x, [(1, 0), (0, 2)]))
    check_double_backward(lambda t: pad(t * t, [1, 2], value=3.0), [x])


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_matches_torch_forward_and_grad(mode):
    torch = pytest.importorskip("torch")
    x = _rand(2, 3, 4, 5).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    pads = [1, 2, 3, 1]
    y = pad(ours, pads, mode=mode)
    yt = torch.nn.functional.pad(theirs, pads, mode=mode)
    g = np.random.default_rng(1).standard_normal(y.shape).astype(np.float32)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy())
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_pad_keeps_int_dtype_and_accepts_a_tensor_pad():
    x = framework.to_tensor(np.ones((1, 1, 2, 2), dtype=np.int32))
    out = pad(x, framework.to_tensor([1, 1, 0, 0]), value=7)
    assert out.dtype == np.int32 and out.shape == [1, 1, 2, 4] and out.numpy()[0, 0, 0, 0] == 7


def test_pad_errors_say_what_is_wrong():
    x = framework.ones([1, 1, 3, 3])
    with pytest.raises(ValueError, match="smaller than the dim size"):
        pad(x, [3, 0, 0, 0], mode="reflect")
    with pytest.raises(ValueError, match="needs 4 pad values"):
        pad(x, [1, 1], mode="replicate")
    with pytest.raises(ValueError, match="mode must be one of"):
        pad(x, [1, 1, 1, 1], mode="wrap")
    with pytest.raises(ValueError, match="data_format"):
        pad(x, [1, 1, 1, 1], mode="reflect", data_format="NCL")
