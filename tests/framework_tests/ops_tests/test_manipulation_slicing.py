"""slice, strided_slice, crop, narrow, take, unfold, rot90, unflatten, ravel, view, view_as,
permute, msort: NumPy reference, gradients of two orders, PaddlePaddle parity, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

A = np.arange(20, dtype=np.float32).reshape(4, 5)
X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a):
    return framework.to_tensor(np.asarray(a))


def test_slice_and_strided_slice_match_numpy():
    x = _rand((4, 5, 6))
    got = framework.slice(_t(x), axes=[0, -1], starts=[1, -4], ends=[3, 100])
    np.testing.assert_array_equal(got.numpy(), x[1:3, :, -4:100])
    got = framework.strided_slice(_t(x), axes=[1, 2], starts=[4, 0], ends=[0, 6], strides=[-2, 3])
    np.testing.assert_array_equal(got.numpy(), x[:, 4:0:-2, 0:6:3])
    assert got.dtype == np.float64
    assert framework.slice(_t(x), [0], [3], [1]).shape == [0, 5, 6]
    ints = framework.slice(framework.to_tensor([[1, 2, 3]], dtype="int32"), [1], [1], [3])
    assert ints.dtype == np.int32 and ints.numpy().tolist() == [[2, 3]]
    check_backward(lambda t: framework.slice(t, [0, 2], [1, -4], [3, 5]), [x])
    check_double_backward(lambda t: framework.strided_slice(t * t, [1], [4], [0], [-2]), [x])


def test_crop_narrow_match_numpy_and_have_gradients():
    x = _rand((4, 5))
    np.testing.assert_array_equal(
        framework.crop(_t(x), shape=[2, -1], offsets=[1, 2]).numpy(), x[1:3, 2:]
    )
    np.testing.assert_array_equal(framework.crop(_t(x), shape=[2, 2]).numpy(), x[:2, :2])
    np.testing.assert_array_equal(framework.narrow(_t(x), -1, -3, 2).numpy(), x[:, 2:4])
    check_backward(lambda t: framework.crop(t, [2, 3], [1, 1]), [x])
    check_double_backward(lambda t: framework.narrow(t * t, 0, 1, 2), [x])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take_matches_numpy_and_accumulates_repeated_gradients(mode):
    x = _rand((3, 4))
    idx = np.array([[0, 5, 5], [11, -1, 2]]) if mode == "raise" else np.array([[13, -20, 5, 5]])
    got = framework.take(_t(x), _t(idx), mode=mode)
    np.testing.assert_array_equal(got.numpy(), np.take(x, idx, mode=mode))
    assert got.shape == list(idx.shape) and got.dtype == np.float64
    check_backward(lambda t: framework.take(t, _t(idx), mode=mode), [x])
    check_double_backward(lambda t: framework.take(t * t, _t(idx), mode=mode), [x])
    ints = framework.take(framework.arange(6), framework.to_tensor([1, 2], dtype="int32"))
    assert ints.dtype == np.int64 and ints.numpy().tolist() == [1, 2]


@pytest.mark.parametrize(
    "shape,axis,size,step",
    [((5,), 0, 2, 2), ((2, 6, 3), 1, 3, 2), ((2, 3, 4), -1, 4, 1), ((3, 4), 0, 0, 1)],
)
def test_unfold_matches_numpy_windows(shape, axis, size, step):
    x = _rand(shape)
    got = framework.unfold(_t(x), axis, size, step)
    ax = axis % len(shape)
    want = np.lib.stride_tricks.sliding_window_view(x, size, axis=ax)
    want = np.take(want, np.arange(0, want.shape[ax], step), axis=ax)
    assert got.shape == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)
    if size:
        check_backward(lambda t: framework.unfold(t, axis, size, step), [x])
        check_double_backward(lambda t: framework.unfold(t * t, axis, size, step), [x])


@pytest.mark.parametrize(
    "k,axes", [(1, (0, 1)), (2, (0, 1)), (3, (1, 0)), (-1, (0, 2)), (5, (-1, -2)), (0, (0, 1))]
)
def test_rot90_matches_numpy(k, axes):
    x = _rand((2, 3, 4))
    got = framework.rot90(_t(x), k, list(axes))
    np.testing.assert_array_equal(got.numpy(), np.rot90(x, k, axes))
    check_backward(lambda t: framework.rot90(t, k, list(axes)), [x])
    check_double_backward(lambda t: framework.rot90(t * t, k, list(axes)), [x])


def test_reshaping_views_match_numpy_and_have_gradients():
    x = _rand((2, 3, 4))
    assert framework.unflatten(_t(x), -1, [2, -1]).shape == [2, 3, 2, 2]
    np.testing.assert_array_equal(framework.ravel(_t(x)).numpy(), x.ravel())
    assert framework.ravel(_t(2.0)).shape == [1]
    np.testing.assert_array_equal(framework.view(_t(x), [-1, 4]).numpy(), x.reshape(-1, 4))
    np.testing.assert_array_equal(framework.view_as(_t(x), _t(np.ones(24))).numpy(), x.ravel())
    np.testing.assert_array_equal(framework.permute(_t(x), [2, 0, 1]).numpy(), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(_t(x).permute(2, 0, 1).numpy(), x.transpose(2, 0, 1))
    for op in (
        lambda t: framework.unflatten(t, 1, [3, 1]),
        framework.ravel,
        lambda t: framework.view(t, [6, 4]),
        lambda t: framework.permute(t, -1, 0, 1),
    ):
        check_backward(op, [x])
        check_double_backward(lambda t, op=op: op(t * t), [x])


def test_view_as_another_dtype_reinterprets_bytes():
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
    got = framework.view(framework.to_tensor(x), "int32")
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.numpy(), x.view(np.int32))
    assert framework.view(framework.to_tensor(x), "float16").shape == [2, 8]
    assert framework.view(framework.to_tensor(x), "int64").shape == [2, 2]


def test_msort_matches_numpy():
    x = _rand((5, 3))
    np.testing.assert_array_equal(framework.msort(_t(x)).numpy(), np.sort(x, axis=0))
    check_backward(framework.msort, [x])


PARITY = {
    "slice": lambda m: m.slice(m.to_tensor(A), axes=[0, 1], starts=[1, 0], ends=[3, -1]),
    "slice_out_of_range_ends": lambda m: m.slice(m.to_tensor(A), [1], [-100], [100]),
    "slice_tensor_bounds": lambda m: m.slice(
        m.to_tensor(A), [0], m.to_tensor([1]), m.to_tensor([3])
    ),
    "strided_slice_backwards": lambda m: m.strided_slice(
        m.to_tensor(X), axes=[0, 2], starts=[0, 3], ends=[2, 0], strides=[1, -1]
    ),
    "crop": lambda m: m.crop(m.to_tensor(A), shape=[-1, 2], offsets=[1, 2]),
    "narrow_negative": lambda m: m.narrow(m.to_tensor(A), -1, -2, 2),
    "take_raise": lambda m: m.take(m.to_tensor(A), m.to_tensor([[0, 5], [19, -1]])),
    "take_wrap": lambda m: m.take(m.to_tensor(A), m.to_tensor([25, -23]), mode="wrap"),
    "take_clip": lambda m: m.take(m.to_tensor(A), m.to_tensor([25, -3]), mode="clip"),
    "unfold": lambda m: m.unfold(m.to_tensor(X), 1, 2, 1),
    "unfold_0d": lambda m: m.unfold(m.to_tensor(3.0), 0, 1, 1),
    "rot90_k3": lambda m: m.rot90(m.to_tensor(A), 3),
    "rot90_axes": lambda m: m.rot90(m.to_tensor(X), 1, [2, 0]),
    "unflatten": lambda m: m.unflatten(m.to_tensor(X), -1, [2, 2]),
    "view_int32": lambda m: m.view(m.to_tensor(X), "int32"),
    "view_as": lambda m: m.view_as(m.to_tensor(X), m.ones([4, 6])),
    "permute": lambda m: m.permute(m.to_tensor(X), [2, 0, 1]),
    "msort_ints": lambda m: m.msort(m.to_tensor([[3, 1], [1, 2], [2, 0]])),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    a = framework.to_tensor(A)
    with pytest.raises(IndexError, match="out of range for 20"):
        framework.take(a, framework.to_tensor([20]))
    with pytest.raises(TypeError, match="integer tensor"):
        framework.take(a, framework.to_tensor([1.0]))
    with pytest.raises(ValueError, match="mode must be"):
        framework.take(a, framework.to_tensor([1]), mode="x")
    with pytest.raises(IndexError, match="empty tensor"):
        framework.take(framework.zeros([0]), framework.to_tensor([0]), mode="wrap")
    with pytest.raises(ValueError, match="one length"):
        framework.slice(a, axes=[0, 1], starts=[1], ends=[3, 3])
    with pytest.raises(ValueError, match="out of range"):
        framework.slice(a, axes=[2], starts=[1], ends=[3])
    with pytest.raises(ValueError, match="must not be 0"):
        framework.strided_slice(a, [0], [1], [3], [0])
    with pytest.raises(ValueError, match="leaves"):
        framework.crop(a, shape=[5, 2])
    with pytest.raises(ValueError, match="2 entries"):
        framework.crop(a, shape=[2])
    with pytest.raises(ValueError, match="outside dim 1"):
        framework.narrow(a, 1, 3, 3)
    with pytest.raises(ValueError, match="do not fit"):
        framework.unfold(a, 1, 6, 1)
    with pytest.raises(ValueError, match="do not fit"):
        framework.unfold(a, 1, 2, 0)
    with pytest.raises(ValueError, match="at least 2-D"):
        framework.rot90(framework.ones([3]))
    with pytest.raises(ValueError, match="must differ"):
        framework.rot90(a, 1, [0, -2])
    with pytest.raises(ValueError, match="cannot reshape"):
        framework.unflatten(a, 1, [2, 2])
    with pytest.raises(ValueError, match="cannot view"):
        framework.view(framework.ones([4, 3]), "int64")
    with pytest.raises(ValueError, match="differ in size"):
        framework.view_as(a, framework.ones([3]))


@pytest.mark.parametrize("args", [(0, 2), (-1, 0), (1, 1), ([2, 0, 1],)])
def test_swapaxes_takes_two_axes_or_a_permutation_like_paddle(args):
    paddle = pytest.importorskip("paddle")
    x = _rand((2, 3, 4))
    for op in ("swapaxes", "swapdims"):
        ours = getattr(framework, op)(_t(x), *args)
        theirs = getattr(paddle, op)(paddle.to_tensor(x), *args)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
        np.testing.assert_array_equal(getattr(_t(x), op)(*args).numpy(), theirs.numpy())
    check_backward(lambda t: framework.swapaxes(t, *args), [x])
    check_double_backward(lambda t: framework.swapdims(t * t, *args), [x])
    with pytest.raises(TypeError, match="two axes or one permutation"):
        framework.swapaxes(_t(x), 0)
    with pytest.raises(ValueError, match="out of range"):
        framework.swapaxes(_t(x), 0, 3)
