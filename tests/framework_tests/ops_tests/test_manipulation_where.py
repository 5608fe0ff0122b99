"""Selection by condition: where, clip, masked_fill, masked_select, nonzero."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _torch_parity(ours, theirs, *arrays, rtol=1e-5, atol=1e-6):
    torch = pytest.importorskip("torch")
    arrays = [a.astype(np.float32) for a in arrays]
    xs = [framework.to_tensor(a, stop_gradient=False) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    y, yt = ours(*xs), theirs(*ts)
    g = np.random.default_rng(7).standard_normal(y.shape).astype(np.float32)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=rtol, atol=atol)
    for x, t in zip(xs, ts, strict=True):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize(
    "c_shape,x_shape,y_shape",
    [
        ((2, 3), (2, 3), (2, 3)),
        ((2, 3), (3,), (2, 1)),
        ((1, 3), (2, 1), ()),
        ((0, 3), (3,), (0, 3)),
    ],
)
def test_where_broadcasts_and_routes_gradients(c_shape, x_shape, y_shape):
    cond = np.random.default_rng(3).random(c_shape) > 0.5
    x, y = _rand(*x_shape), _rand(*y_shape, seed=1)
    got = framework.where(framework.to_tensor(cond), framework.to_tensor(x), framework.to_tensor(y))
    np.testing.assert_array_equal(got.numpy(), np.where(cond, x, y))
    c = framework.to_tensor(cond)
    check_backward(lambda a, b: framework.where(c, a, b), [x, y])
    check_double_backward(lambda a, b: framework.where(c, a * b, b * b), [x, y])
    torch = pytest.importorskip("torch")
    _torch_parity(
        lambda a, b: framework.where(c, a, b),
        lambda a, b: torch.where(torch.tensor(cond), a, b),
        x,
        y,
    )


def test_where_with_scalars_keeps_the_tensor_dtype():
    x = framework.to_tensor([1.0, -2.0, 3.0])
    out = framework.where(x > 0, x, 0.0)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), [1.0, 0.0, 3.0])
    assert framework.where(x > 0, 1.0, 0.0).dtype == np.float32
    np.testing.assert_array_equal((x > 0).where(x, x * 2.0).numpy(), [1.0, -4.0, 3.0])


def test_where_with_only_a_condition_is_nonzero_as_tuple():
    rows, cols = framework.where(framework.to_tensor([[0.0, 1.0], [2.0, 0.0]]) > 0)
    assert rows.numpy().tolist() == [0, 1] and cols.numpy().tolist() == [1, 0]
    assert rows.dtype == np.int64


@pytest.mark.parametrize("low,high", [(-0.5, 0.5), (None, 0.0), (0.0, None), (-0.5, -0.5)])
def test_clip(low, high):
    x = _rand(3, 4)
    got = framework.clip(framework.to_tensor(x), low, high)
    np.testing.assert_array_equal(got.numpy(), np.clip(x, low, high))
    check_backward(lambda t: framework.clip(t, low, high), [x])
    check_double_backward(lambda t: framework.clip(t * t, low, high), [x])
    torch = pytest.importorskip("torch")
    _torch_parity(lambda t: framework.clip(t, low, high), lambda t: torch.clamp(t, low, high), x)


def test_clip_passes_the_gradient_at_the_bounds_like_paddle():
    x = framework.to_tensor([0.0, 1.0, 2.0], stop_gradient=False)
    framework.clip(x, 0.0, 2.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0, 1.0])


def test_clip_accepts_tensor_bounds_and_keeps_int_dtype():
    x = framework.to_tensor([1, 5, 9])
    out = x.clip(framework.to_tensor(2), framework.to_tensor(6))
    assert out.dtype == np.int64 and out.numpy().tolist() == [2, 5, 6]


def test_masked_fill():
    x = _rand(2, 3)
    mask = np.array([True, False, True])
    got = framework.masked_fill(framework.to_tensor(x), framework.to_tensor(mask), -1.0)
    np.testing.assert_array_equal(got.numpy(), np.where(mask, -1.0, x))
    m = framework.to_tensor(mask)
    check_backward(lambda t: framework.masked_fill(t, m, 3.0), [x])
    check_backward(lambda t, v: framework.masked_fill(t, m, v), [x, np.array(2.0)])
    torch = pytest.importorskip("torch")
    _torch_parity(
        lambda t: t.masked_fill(m, 0.5), lambda t: t.masked_fill(torch.tensor(mask), 0.5), x
    )


def test_masked_select():
    x = _rand(2, 3)
    mask = np.array([[True, False, True], [False, False, True]])
    got = framework.masked_select(framework.to_tensor(x), framework.to_tensor(mask))
    np.testing.assert_array_equal(got.numpy(), x[mask])
    row_mask = framework.to_tensor(np.array([True, False, True]))
    assert framework.masked_select(framework.to_tensor(x), row_mask).shape == [4]
    check_backward(lambda t: framework.masked_select(t, row_mask), [x])
    torch = pytest.importorskip("torch")
    _torch_parity(
        lambda t: framework.masked_select(t, framework.to_tensor(mask)),
        lambda t: torch.masked_select(t, torch.tensor(mask)),
        x,
    )


@pytest.mark.parametrize("shape", [(2, 3), (4,), (0, 2), ()])
def test_nonzero(shape):
    x = np.random.default_rng(0).integers(0, 2, size=shape).astype(np.float32)
    got = framework.nonzero(framework.to_tensor(x))
    expected = np.argwhere(x)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), expected)
    as_tuple = framework.nonzero(framework.to_tensor(x), as_tuple=True)
    for ours, theirs in zip(as_tuple, np.nonzero(x) if x.ndim else (), strict=True):
        np.testing.assert_array_equal(ours.numpy(), theirs)
