"""select_scatter, slice_scatter, diagonal_scatter, index_fill, index_put, masked_scatter,
scatter_add, scatter_reduce, index_sample, multiplex, reduce_as: NumPy reference, gradients
of two orders (into the tensor and the written values), PyTorch and PaddlePaddle parity,
bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

A = np.arange(12, dtype=np.float32).reshape(3, 4)
X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


def test_select_and_slice_scatter_match_numpy_and_have_gradients():
    x, v = _rand((3, 4)), _rand((3,), 1)
    want = x.copy()
    want[:, -1] = v
    np.testing.assert_array_equal(framework.select_scatter(_t(x), _t(v), 1, -1).numpy(), want)
    check_backward(lambda a, b: framework.select_scatter(a, b, 1, -1), [x, v])
    check_double_backward(lambda a, b: framework.select_scatter(a * a, b * b, 1, -1), [x, v])
    s = _rand((3, 2), 2)
    want = x.copy()
    want[:, 0:4:2] = s
    got = framework.slice_scatter(_t(x), _t(s), [1], [0], [4], [2])
    np.testing.assert_array_equal(got.numpy(), want)
    check_backward(lambda a, b: framework.slice_scatter(a, b, [1], [0], [4], [2]), [x, s])
    check_double_backward(
        lambda a, b: framework.slice_scatter(a * a, b, [1], [0], [4], [2]), [x, s]
    )


@pytest.mark.parametrize("offset,a1,a2", [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (0, 1, 0)])
def test_diagonal_scatter_matches_torch_and_has_gradients(offset, a1, a2):
    torch = pytest.importorskip("torch")
    x = _rand((3, 4))
    y = _rand(np.diagonal(x, offset, a1, a2).shape, 1)
    got = framework.diagonal_scatter(_t(x), _t(y), offset, a1, a2)
    want = torch.diagonal_scatter(torch.tensor(x), torch.tensor(y), offset, a1, a2)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    check_backward(lambda a, b: framework.diagonal_scatter(a, b, offset, a1, a2), [x, y])
    check_double_backward(
        lambda a, b: framework.diagonal_scatter(a * a, b * b, offset, a1, a2), [x, y]
    )


@pytest.mark.parametrize("axis,index", [(0, [0, 2]), (1, [1, 3, 1]), (-1, [0])])
def test_index_fill_matches_torch_and_has_gradients(axis, index):
    torch = pytest.importorskip("torch")
    x = _rand((3, 4))
    got = framework.index_fill(_t(x), _t(index), axis, -1.5)
    want = torch.tensor(x).index_fill(axis, torch.tensor(index), -1.5)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    check_backward(lambda t: framework.index_fill(t, _t(index), axis, 2.0), [x])
    check_double_backward(lambda t: framework.index_fill(t * t, _t(index), axis, 2.0), [x])
    ints = framework.index_fill(_t(np.arange(6).reshape(2, 3)), _t([1]), 1, 7)
    assert ints.dtype == np.int64 and ints.numpy().tolist() == [[0, 7, 2], [3, 7, 5]]


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_matches_torch_and_has_gradients(accumulate):
    torch = pytest.importorskip("torch")
    x, v = _rand((3, 4)), _rand((3,), 1)
    rows, cols = np.array([0, 2, 0]), np.array([1, 3, 1 if accumulate else 2])
    got = framework.index_put(_t(x), (_t(rows), _t(cols)), _t(v), accumulate)
    want = torch.tensor(x).index_put(
        (torch.tensor(rows), torch.tensor(cols)), torch.tensor(v), accumulate
    )
    np.testing.assert_allclose(got.numpy(), want.numpy())
    key = (_t(rows), _t(cols))
    check_backward(lambda a, b: framework.index_put(a, key, b, accumulate), [x, v])
    check_double_backward(lambda a, b: framework.index_put(a * a, key, b * b, accumulate), [x, v])
    mask = framework.index_put(_t(x), (_t(x > 0),), _t(0.0))
    np.testing.assert_array_equal(mask.numpy(), np.where(x > 0, 0.0, x))


def test_masked_scatter_matches_torch_and_has_gradients():
    torch = pytest.importorskip("torch")
    x, v = _rand((3, 4)), _rand((12,), 1)
    for mask in (x > 0, np.array([True, False, True, False])):
        got = framework.masked_scatter(_t(x), _t(mask), _t(v))
        want = torch.tensor(x).masked_scatter(torch.tensor(mask), torch.tensor(v))
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        check_backward(lambda a, b, m=mask: framework.masked_scatter(a, _t(m), b), [x, v])
        check_double_backward(
            lambda a, b, m=mask: framework.masked_scatter(a * a, _t(m), b), [x, v]
        )


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_matches_torch(reduce, include_self):
    torch = pytest.importorskip("torch")
    x, src = _rand((3, 4)), _rand((3, 3), 1)
    index = np.array([[0, 0, 2], [1, 3, 1], [3, 3, 0]])
    got = framework.scatter_reduce(_t(x), 1, _t(index), _t(src), reduce, include_self=include_self)
    want = torch.tensor(x).scatter_reduce(
        1, torch.tensor(index), torch.tensor(src), reduce, include_self=include_self
    )
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    if reduce in ("sum", "mean"):

        def fn(a, b):
            return framework.scatter_reduce(a, 1, _t(index), b, reduce, include_self=include_self)

        check_backward(fn, [x, src])
        check_double_backward(lambda a, b: fn(a * a, b * b), [x, src])


def test_scatter_add_uses_the_leading_block_of_a_larger_src_and_has_gradients():
    torch = pytest.importorskip("torch")
    x, src = _rand((3, 4)), _rand((3, 4), 1)
    index = np.array([[0, 0], [1, 1]])
    got = framework.scatter_add(_t(x), 1, _t(index), _t(src))
    want = torch.tensor(x).scatter_add(1, torch.tensor(index), torch.tensor(src))
    np.testing.assert_allclose(got.numpy(), want.numpy())
    check_backward(lambda a, b: framework.scatter_add(a, 1, _t(index), b), [x, src])
    check_double_backward(lambda a, b: framework.scatter_add(a * a, 1, _t(index), b * b), [x, src])


def test_gathers_and_reduce_as_match_numpy_and_have_gradients():
    x = _rand((3, 4))
    index = np.array([[0, 3], [1, 1], [2, 0]])
    np.testing.assert_array_equal(
        framework.index_sample(_t(x), _t(index)).numpy(), np.take_along_axis(x, index, 1)
    )
    check_backward(lambda t: framework.index_sample(t, _t(index)), [x])
    check_double_backward(lambda t: framework.index_sample(t * t, _t(index)), [x])
    a, b, c = _rand((3, 4)), _rand((3, 4), 1), _rand((3, 4), 2)
    pick = np.array([[2], [0], [1]])
    got = framework.multiplex([_t(a), _t(b), _t(c)], _t(pick))
    np.testing.assert_array_equal(got.numpy(), np.stack([c[0], a[1], b[2]]))
    check_backward(lambda *ts: framework.multiplex(list(ts), _t(pick)), [a, b, c])
    check_double_backward(lambda *ts: framework.multiplex([t * t for t in ts], _t(pick)), [a, b, c])
    y = _rand((2, 3, 4))
    np.testing.assert_allclose(
        framework.reduce_as(_t(y), _t(np.ones((3, 1)))).numpy(), y.sum(axis=(0, 2))[:, None]
    )
    check_backward(lambda t: framework.reduce_as(t, _t(np.ones((2, 1, 4)))), [y])
    check_double_backward(lambda t: framework.reduce_as(t * t, _t(np.ones((4,)))), [y])


ONES4 = np.ones(4, np.float32)
IDX = [[0, 0], [1, 1], [3, 3]]
PARITY = {
    "select_scatter": lambda m: m.select_scatter(m.to_tensor(A), m.to_tensor(ONES4), 0, 1),
    "select_scatter_3d": lambda m: m.select_scatter(
        m.to_tensor(X), m.to_tensor(np.ones((2, 4), np.float32)), -2, 0
    ),
    "slice_scatter": lambda m: m.slice_scatter(
        m.to_tensor(A), m.to_tensor(np.ones((1, 2), np.float32)), [0, 1], [1, 1], [2, 3], [1, 1]
    ),
    "diagonal_scatter_offset": lambda m: m.diagonal_scatter(
        m.to_tensor(A), m.to_tensor(np.array([9.0, 8, 7], np.float32)), 1
    ),
    "diagonal_scatter_3d": lambda m: m.diagonal_scatter(
        m.to_tensor(X), m.to_tensor(np.ones((3, 2), np.float32)), 0, 0, 2
    ),
    "diagonal_scatter_ints": lambda m: m.diagonal_scatter(
        m.to_tensor(np.arange(9).reshape(3, 3)), m.to_tensor([9, 8, 7])
    ),
    "index_fill": lambda m: m.index_fill(m.to_tensor(A), m.to_tensor([1, 3]), 1, 5.0),
    "index_fill_ints": lambda m: m.index_fill(
        m.to_tensor(np.arange(6).reshape(2, 3)), m.to_tensor([1]), 1, 7
    ),
    "index_put_accumulate": lambda m: m.index_put(
        m.to_tensor(A),
        (m.to_tensor([0, 0]), m.to_tensor([1, 1])),
        m.to_tensor(np.array([9.0, 8.0], np.float32)),
        True,
    ),
    "index_put_rows": lambda m: m.index_put(
        m.to_tensor(A), (m.to_tensor([0, 2]),), m.to_tensor(ONES4)
    ),
    "index_put_bool": lambda m: m.index_put(
        m.to_tensor(A), (m.to_tensor(A > 5),), m.to_tensor(np.float32(0.0))
    ),
    "masked_scatter": lambda m: m.masked_scatter(
        m.to_tensor(A), m.to_tensor(A > 5), m.to_tensor(np.arange(20, dtype=np.float32))
    ),
    "masked_scatter_broadcast_mask": lambda m: m.masked_scatter(
        m.to_tensor(A),
        m.to_tensor([True, False, True, False]),
        m.to_tensor(np.arange(6, dtype=np.float32)),
    ),
    "scatter_add": lambda m: m.scatter_add(
        m.to_tensor(A), 1, m.to_tensor(IDX), m.to_tensor(np.ones((3, 2), np.float32))
    ),
    "scatter_add_larger_src": lambda m: m.scatter_add(
        m.to_tensor(A), 1, m.to_tensor([[0, 0], [1, 1]]), m.to_tensor(np.ones((3, 4), np.float32))
    ),
    "index_sample": lambda m: m.index_sample(m.to_tensor(A), m.to_tensor([[0, 3], [1, 1], [2, 0]])),
    "multiplex": lambda m: m.multiplex(
        [m.to_tensor(A), m.to_tensor(-A)], m.to_tensor(np.array([[1], [0], [1]], np.int32))
    ),
    "reduce_as": lambda m: m.reduce_as(m.to_tensor(X), m.to_tensor(np.ones((2, 1, 4), np.float32))),
    "reduce_as_ints": lambda m: m.reduce_as(
        m.to_tensor(np.ones((2, 3), np.int32)), m.to_tensor(np.ones((3,), np.int32))
    ),
}
for _reduce in ("sum", "prod", "mean", "amax", "amin"):
    for _self in (True, False):
        PARITY[f"scatter_reduce_{_reduce}_{_self}"] = lambda m, r=_reduce, s=_self: (
            m.scatter_reduce(
                m.to_tensor(A),
                1,
                m.to_tensor(IDX),
                m.to_tensor(np.array([[1.0, 20], [3, 4], [50, 6]], np.float32)),
                r,
                include_self=s,
            )
        )


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    a = _t(A)
    f32 = lambda *s: framework.ones(list(s))  # noqa: E731
    with pytest.raises(ValueError, match="do not fit"):
        framework.select_scatter(a, f32(3), 0, 1)
    with pytest.raises(IndexError, match="out of range"):
        framework.select_scatter(a, f32(4), 0, 5)
    with pytest.raises(ValueError, match="one length"):
        framework.slice_scatter(a, f32(3, 2), [1], [0, 1], [4], [2])
    with pytest.raises(ValueError, match="must not be 0"):
        framework.slice_scatter(a, f32(3, 2), [1], [0], [4], [0])
    with pytest.raises(ValueError, match="do not fit"):
        framework.slice_scatter(a, f32(3, 3), [1], [0], [4], [2])
    with pytest.raises(ValueError, match="y must be"):
        framework.diagonal_scatter(a, f32(2))
    with pytest.raises(TypeError, match="integer tensor"):
        framework.index_fill(a, _t([0.0]), 0, 1.0)
    with pytest.raises(IndexError, match="out of range"):
        framework.index_fill(a, _t([5]), 0, 1.0)
    with pytest.raises(ValueError, match="3 index tensors"):
        framework.index_put(a, (_t([0]), _t([0]), _t([0])), _t(1.0))
    with pytest.raises(IndexError, match="out of range"):
        framework.index_put(a, (_t([5]),), _t(1.0))
    with pytest.raises(ValueError, match="do not fit"):
        framework.index_put(a, (_t([0, 1]),), f32(3))
    with pytest.raises(ValueError, match="only 2 values"):
        framework.masked_scatter(a, _t(A > 5), f32(2))
    with pytest.raises(TypeError, match="bool tensor"):
        framework.masked_scatter(a, _t([1, 0, 1, 0]), f32(12))
    with pytest.raises(ValueError, match="does not broadcast"):
        framework.masked_scatter(a, _t([True, False]), f32(12))
    with pytest.raises(ValueError, match="reduce must be one of"):
        framework.scatter_reduce(a, 1, _t([[0]]), f32(1, 1), "max")
    with pytest.raises(IndexError, match="out of range"):
        framework.scatter_add(a, 1, _t([[9]]), f32(1, 1))
    with pytest.raises(ValueError, match="smaller than index"):
        framework.scatter_add(a, 1, _t([[0, 1]]), f32(1, 1))
    with pytest.raises(ValueError, match="dims of input"):
        framework.scatter_add(a, 1, _t([0, 1]), f32(2))
    with pytest.raises(ValueError, match=r"x \[N, D\]"):
        framework.index_sample(a, _t([[0, 3]]))
    with pytest.raises(IndexError, match="out of range"):
        framework.index_sample(a, _t([[9], [0], [0]]))
    with pytest.raises(ValueError, match="one entry per row"):
        framework.multiplex([a, a], _t([[1], [0]]))
    with pytest.raises(IndexError, match="out of range"):
        framework.multiplex([a, a], _t([[1], [0], [2]]))
    with pytest.raises(TypeError, match="integer tensor"):
        framework.multiplex([a, a], _t([[1.0], [0], [1]]))
    with pytest.raises(ValueError, match="does not broadcast"):
        framework.reduce_as(_t(X), f32(2, 2))
