"""Gather and scatter ops: gather, gather_nd, index_select, take_along_axis, scatter,
scatter_nd_add, scatter_nd, index_add, put_along_axis."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _ids(values) -> framework.Tensor:
    return framework.to_tensor(np.asarray(values, dtype=np.int64))


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
    "shape,index,axis",
    [((4, 3), [2, 0, 2], 0), ((2, 5), [4, 4, 1], 1), ((2, 3, 4), [-1, 0], 2), ((3, 2), [], 0)],
)
def test_gather_and_index_select(shape, index, axis):
    x = _rand(*shape)
    expected = np.take(x, np.asarray(index, dtype=np.int64), axis=axis)
    for op in (framework.gather, framework.index_select):
        got = op(framework.to_tensor(x), _ids(index), axis)
        np.testing.assert_array_equal(got.numpy(), expected)
    check_backward(lambda t: framework.gather(t, _ids(index), axis), [x])
    check_double_backward(lambda t: framework.index_select(t * t, _ids(index), axis), [x])
    if index:
        torch = pytest.importorskip("torch")
        _torch_parity(
            lambda t: framework.index_select(t, _ids(index), axis),
            lambda t: torch.index_select(t, axis, torch.tensor(index) % shape[axis]),
            x,
        )


def test_gather_default_axis_0d_index_and_errors():
    x = framework.to_tensor(_rand(3, 2))
    assert framework.gather(x, _ids([1, 0])).shape == [2, 2]
    assert framework.gather(x, framework.to_tensor(1)).shape == [2]
    with pytest.raises(IndexError, match="out of range"):
        framework.gather(x, _ids([3]))
    with pytest.raises(TypeError, match="integer"):
        framework.gather(x, framework.to_tensor([0.0]))


@pytest.mark.parametrize(
    "index",
    [[[1, 0], [0, 1]], [[2], [2], [0]], [[[0, 1, 1]]]],
    ids=["pairs", "rows_repeated", "full_coordinates"],
)
def test_gather_nd(index):
    x = _rand(3, 2, 2)
    idx = np.asarray(index)
    expected = x[tuple(np.moveaxis(idx, -1, 0))]
    np.testing.assert_array_equal(
        framework.gather_nd(framework.to_tensor(x), _ids(idx)).numpy(), expected
    )
    check_backward(lambda t: framework.gather_nd(t, _ids(idx)), [x])


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("broadcast", [True, False])
def test_take_along_axis_matches_numpy_and_torch_gather(axis, broadcast):
    x = _rand(3, 4)
    rng = np.random.default_rng(1)
    shape = [3, 4]
    shape[axis] = 5
    idx = rng.integers(0, x.shape[axis], size=shape)
    got = framework.take_along_axis(framework.to_tensor(x), _ids(idx), axis, broadcast)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(x, idx, axis))
    check_backward(lambda t: framework.take_along_axis(t, _ids(idx), axis), [x])
    check_double_backward(lambda t: framework.take_along_axis(t * t, _ids(idx), axis), [x])
    torch = pytest.importorskip("torch")
    _torch_parity(
        lambda t: framework.take_along_axis(t, _ids(idx), axis),
        lambda t: torch.gather(t, axis, torch.tensor(idx)),
        x,
    )


def test_take_along_axis_broadcasts_indices_like_paddle():
    x = framework.to_tensor(_rand(3, 4))
    assert framework.take_along_axis(x, _ids([[0], [1], [2]]), 1).shape == [3, 1]
    assert framework.take_along_axis(x, _ids([[0, 1]]), 1).shape == [3, 2]
    smaller = framework.take_along_axis(x, _ids([[3, 0]]), 1, broadcast=False)
    np.testing.assert_array_equal(smaller.numpy(), x.numpy()[:1, [3, 0]])


@pytest.mark.parametrize("overwrite", [True, False])
def test_scatter_rows(overwrite):
    x = _rand(4, 2)
    updates = _rand(3, 2, seed=1)
    index = [1, 3, 1] if not overwrite else [1, 3, 0]
    expected = x.copy()
    if overwrite:
        expected[index] = updates
    else:
        expected[index] = 0
        np.add.at(expected, index, updates)
    got = framework.scatter(
        framework.to_tensor(x), _ids(index), framework.to_tensor(updates), overwrite
    )
    np.testing.assert_allclose(got.numpy(), expected)
    check_backward(lambda t, u: framework.scatter(t, _ids(index), u, overwrite), [x, updates])
    check_double_backward(
        lambda t, u: framework.scatter(t * t, _ids(index), u * u, overwrite), [x, updates]
    )


def test_scatter_overwrite_gradients_match_paddle_rule():
    x = framework.to_tensor(np.ones((3, 2)), stop_gradient=False)
    u = framework.to_tensor(np.full((1, 2), 5.0), stop_gradient=False)
    framework.scatter(x, _ids([2]), u).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 1], [1, 1], [0, 0]])
    np.testing.assert_array_equal(u.grad.numpy(), [[1, 1]])


def test_scatter_nd_add_and_scatter_nd():
    x = _rand(3, 4)
    index = np.array([[1, 2], [1, 2], [0, 3]])
    updates = _rand(3, seed=1)
    expected = x.copy()
    np.add.at(expected, (index[:, 0], index[:, 1]), updates)
    got = framework.scatter_nd_add(
        framework.to_tensor(x), _ids(index), framework.to_tensor(updates)
    )
    np.testing.assert_allclose(got.numpy(), expected)
    check_backward(lambda t, u: framework.scatter_nd_add(t, _ids(index), u), [x, updates])
    rows = _rand(2, 4, seed=2)
    out = framework.scatter_nd(_ids([[2], [2]]), framework.to_tensor(rows), [3, 4])
    np.testing.assert_allclose(out.numpy(), np.stack([np.zeros(4), np.zeros(4), rows.sum(0)]))
    check_backward(lambda u: framework.scatter_nd(_ids([[2], [0]]), u, [3, 4]), [rows])


def test_index_add():
    x = _rand(3, 4)
    value = _rand(3, 2, seed=1)
    expected = x.copy()
    np.add.at(expected, (slice(None), [3, 3]), 2 * value)
    got = framework.index_add(
        framework.to_tensor(x), _ids([3, 3]), 1, framework.to_tensor(value), alpha=2
    )
    np.testing.assert_allclose(got.numpy(), expected)
    check_backward(lambda t, v: framework.index_add(t, _ids([0, 3]), 1, v), [x, value])


@pytest.mark.parametrize("reduce", ["add", "mean", "amax", "amin", "mul"])
@pytest.mark.parametrize("include_self", [True, False])
def test_put_along_axis_reductions_match_torch_scatter_reduce(reduce, include_self):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4))
    idx = np.array([[0, 2, 0], [1, 1, 1], [3, 0, 2]])
    values = rng.standard_normal((3, 3))
    values[1, 2] = values[1, 0]  # a tie for amax/amin: the gradient is shared
    ours_x = framework.to_tensor(x, stop_gradient=False)
    ours_v = framework.to_tensor(values, stop_gradient=False)
    out = framework.put_along_axis(ours_x, _ids(idx), ours_v, 1, reduce, include_self)
    xt = torch.tensor(x, requires_grad=True)
    vt = torch.tensor(values, requires_grad=True)
    name = {"add": "sum", "mul": "prod"}.get(reduce, reduce)
    expected = xt.scatter_reduce(1, torch.tensor(idx), vt, name, include_self=include_self)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-12)
    if reduce == "mul":
        return
    g = rng.standard_normal((3, 4))
    out.backward(framework.to_tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(ours_x.grad.numpy(), xt.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(ours_v.grad.numpy(), vt.grad.numpy(), rtol=1e-12)
    values[1, 2] += 0.5  # numerical checks need a point away from ties
    check_backward(
        lambda t, v: framework.put_along_axis(t, _ids(idx), v, 1, reduce, include_self),
        [x, values],
    )


def test_put_along_axis_assign_matches_torch_scatter():
    x = _rand(3, 4)
    values = _rand(3, 2, seed=1)
    idx = np.array([[0, 2], [3, 1], [1, 0]])
    expected = x.copy()
    np.put_along_axis(expected, idx, values, 1)
    got = framework.put_along_axis(
        framework.to_tensor(x), _ids(idx), framework.to_tensor(values), 1
    )
    np.testing.assert_array_equal(got.numpy(), expected)
    check_backward(lambda t, v: framework.put_along_axis(t, _ids(idx), v, 1), [x, values])
    check_double_backward(
        lambda t, v: framework.put_along_axis(t * t, _ids(idx), v * v, 1), [x, values]
    )
    torch = pytest.importorskip("torch")
    _torch_parity(
        lambda t, v: framework.put_along_axis(t, _ids(idx), v, 1),
        lambda t, v: t.scatter(1, torch.tensor(idx), v),
        x,
        values,
    )


def test_put_along_axis_broadcasts_scalars_and_rejects_mul_gradients():
    x = framework.zeros([2, 3])
    out = framework.put_along_axis(x, _ids([[2], [0]]), 1.0, axis=1)
    np.testing.assert_array_equal(out.numpy(), [[0, 0, 1], [1, 0, 0]])
    w = framework.to_tensor(np.ones((2, 3)), stop_gradient=False)
    y = framework.put_along_axis(w * 1.0, _ids([[1], [1]]), 2.0, axis=1, reduce="mul")
    with pytest.raises(RuntimeError, match="has no gradient"):
        y.sum().backward()
