"""F.max_unpool1d/2d/3d and MaxUnPool1D/2D/3D: they undo our max_pool*d(return_mask=True)
as a NumPy scatter does, have gradients of two orders, and match real Paddle (values, dtypes,
output_size rules, reprs)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
SHAPES = {1: (2, 3, 8), 2: (2, 3, 4, 6), 3: (1, 2, 4, 4, 6)}
POOLS = [dict(kernel_size=2), dict(kernel_size=2, stride=1), dict(kernel_size=3, stride=2)]


def _pooled(dims: int, dtype=np.float32, **pool):
    x = rng.standard_normal(SHAPES[dims]).astype(dtype)
    y, mask = getattr(F, f"max_pool{dims}d")(framework.to_tensor(x), return_mask=True, **pool)
    return x, y, mask


def _numpy_unpool(y: np.ndarray, mask: np.ndarray, spatial) -> np.ndarray:
    n, c = y.shape[:2]
    out = np.zeros((n, c, int(np.prod(spatial))), y.dtype)
    np.put_along_axis(out, mask.reshape(n, c, -1), y.reshape(n, c, -1), axis=2)
    return out.reshape(n, c, *spatial)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_it_puts_each_maximum_back_as_numpy_does(dims):
    x, y, mask = _pooled(dims, kernel_size=2)
    got = getattr(F, f"max_unpool{dims}d")(y, mask, 2)
    assert got.shape == list(x.shape) and got.dtype == y.dtype
    np.testing.assert_array_equal(got.numpy(), _numpy_unpool(y.numpy(), mask.numpy(), x.shape[2:]))
    kept = got.numpy() != 0
    np.testing.assert_array_equal(got.numpy()[kept], x[kept])  # each maximum in its place


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_it_has_gradients_of_two_orders(dims):
    _, y, mask = _pooled(dims, np.float64, kernel_size=2)
    unpool = getattr(F, f"max_unpool{dims}d")
    idx = mask.numpy()
    check_backward(lambda t, i: unpool(t, i, 2), [y.numpy(), idx])
    check_double_backward(lambda t: unpool(t * t, mask, 2), [y.numpy()])


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("pool", range(len(POOLS)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_it_matches_paddle(dims, pool, dtype):
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal(SHAPES[dims]).astype(dtype)
    kwargs = POOLS[pool]
    y, mask = getattr(F, f"max_pool{dims}d")(framework.to_tensor(x), return_mask=True, **kwargs)
    py, pmask = getattr(paddle.nn.functional, f"max_pool{dims}d")(
        paddle.to_tensor(x), return_mask=True, **kwargs
    )
    np.testing.assert_array_equal(mask.numpy(), pmask.numpy())
    size = list(x.shape) if dims == 1 else list(x.shape[2:])  # Paddle's 1-D wants [N, C, L]
    ours = getattr(F, f"max_unpool{dims}d")(y, mask, output_size=size, **kwargs)
    theirs = getattr(paddle.nn.functional, f"max_unpool{dims}d")(
        py, pmask, output_size=size, **kwargs
    )
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_layers_match_paddle_with_equal_reprs(dims):
    paddle = pytest.importorskip("paddle")
    _, y, mask = _pooled(dims, kernel_size=2)
    ours = getattr(nn, f"MaxUnPool{dims}D")(2)
    theirs = getattr(paddle.nn, f"MaxUnPool{dims}D")(2)
    want = theirs(paddle.to_tensor(y.numpy()), paddle.to_tensor(mask.numpy()))
    np.testing.assert_array_equal(ours(y, mask).numpy(), want.numpy())
    assert repr(ours) == repr(theirs)
    assert getattr(nn, f"MaxUnpool{dims}d") is getattr(nn, f"MaxUnPool{dims}D")


def test_an_output_size_in_forward_wins_with_a_warning():
    _, y, mask = _pooled(2, kernel_size=2)
    layer = nn.MaxUnPool2D(2, output_size=[4, 6])
    with pytest.warns(UserWarning, match="overrides"):
        assert layer(y, mask, output_size=[5, 7]).shape == [2, 3, 5, 7]


def test_it_rejects_bad_arguments():
    _, y, mask = _pooled(2, kernel_size=2)
    with pytest.raises(ValueError, match="dim 1 must be between 4 and 8"):
        F.max_unpool2d(y, mask, 2, output_size=[4, 8])
    with pytest.raises(ValueError, match="2 or 4 elements"):
        F.max_unpool2d(y, mask, 2, output_size=[4])
    with pytest.raises(ValueError, match="data_format must be 'NCHW'"):
        F.max_unpool2d(y, mask, 2, data_format="NHWC")
    with pytest.raises(ValueError, match="indices must lie in"):
        F.max_unpool2d(y, mask, 2, stride=1)
    with pytest.raises(ValueError, match="one 4-D NCHW shape"):
        F.max_unpool2d(y, mask[:, :1], 2)


def test_the_gradient_matches_paddle():
    paddle = pytest.importorskip("paddle")
    _, y, mask = _pooled(2, kernel_size=2)
    g = rng.standard_normal((2, 3, 4, 6)).astype(np.float32)
    ours = framework.to_tensor(y.numpy(), stop_gradient=False)
    theirs = paddle.to_tensor(y.numpy(), stop_gradient=False)
    (F.max_unpool2d(ours, mask, 2) * framework.to_tensor(g)).sum().backward()
    unpooled = paddle.nn.functional.max_unpool2d(theirs, paddle.to_tensor(mask.numpy()), 2)
    (unpooled * paddle.to_tensor(g)).sum().backward()
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())
