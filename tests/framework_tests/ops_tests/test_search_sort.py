"""topk, sort, argsort, kthvalue, mode, searchsorted, unique, one_hot."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.search import one_hot
from framework.testing import check_backward, check_double_backward


def _rand(shape, seed=0, dtype=np.float64):
    # A permutation scaled: no ties, so orders and gradients are unambiguous.
    n = int(np.prod(shape))
    values = np.random.default_rng(seed).permutation(n).astype(dtype) / n - 0.5
    return values.reshape(shape)


@pytest.mark.parametrize("shape", [(5,), (3, 6), (2, 3, 4), (3, 0)])
@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_match_numpy(shape, axis, descending):
    x = _rand(shape)
    order = np.argsort(-x if descending else x, axis=axis, kind="stable")
    got = framework.argsort(framework.to_tensor(x), axis=axis, descending=descending)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), order)
    values = framework.sort(framework.to_tensor(x), axis=axis, descending=descending)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, order, axis))
    if x.size:
        check_backward(lambda t: framework.sort(t, axis, descending), [x])
        check_double_backward(lambda t: framework.sort(t * t * t, axis, descending), [x])


def test_sort_is_stable_in_both_directions_and_keeps_dtypes():
    x = framework.to_tensor([2, 1, 2, 1, 3], dtype="int32")
    assert framework.argsort(x).numpy().tolist() == [1, 3, 0, 2, 4]
    assert framework.argsort(x, descending=True).numpy().tolist() == [4, 0, 2, 1, 3]
    assert framework.sort(x, descending=True).dtype == np.int32
    b = framework.to_tensor([True, False, True])
    assert framework.argsort(b, descending=True).numpy().tolist() == [0, 2, 1]


def test_sort_matches_torch_forward_and_grad():
    torch = pytest.importorskip("torch")
    x = _rand((3, 5), dtype=np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    y = framework.sort(ours, axis=1, descending=True)
    yt = torch.sort(theirs, dim=1, descending=True).values
    g = _rand((3, 5), seed=1, dtype=np.float32)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_array_equal(y.numpy(), yt.detach().numpy())
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


@pytest.mark.parametrize("k", [1, 3, 6])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_topk_matches_torch(k, largest, axis):
    torch = pytest.importorskip("torch")
    x = _rand((6, 40), dtype=np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    values, indices = framework.topk(ours, k, axis=axis, largest=largest)
    vt, it = torch.topk(theirs, k, dim=-1 if axis is None else axis, largest=largest)
    assert indices.dtype == np.int64 and indices.stop_gradient
    np.testing.assert_array_equal(values.numpy(), vt.detach().numpy())
    np.testing.assert_array_equal(indices.numpy(), it.numpy())
    g = np.random.default_rng(2).standard_normal(values.shape).astype(np.float32)
    values.backward(framework.to_tensor(g))
    vt.backward(torch.tensor(g))
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


def test_topk_unsorted_returns_the_same_set_and_gradients_check():
    x = _rand((3, 50))
    values, _ = framework.topk(framework.to_tensor(x), 4, sorted=False)
    expected = np.sort(x, axis=1)[:, -4:]
    np.testing.assert_array_equal(np.sort(values.numpy(), axis=1), expected)
    small = _rand((2, 5))
    check_backward(lambda t: framework.topk(t, 2)[0], [small])
    check_double_backward(lambda t: framework.topk(t * t * t, 2, axis=0)[0], [small])
    with pytest.raises(ValueError, match="out of range"):
        framework.topk(framework.to_tensor(small), 6)


def test_kthvalue_matches_torch():
    torch = pytest.importorskip("torch")
    x = _rand((4, 7), dtype=np.float32)
    for keepdim in (False, True):
        ours = framework.to_tensor(x, stop_gradient=False)
        theirs = torch.tensor(x, requires_grad=True)
        v, i = framework.kthvalue(ours, 3, axis=1, keepdim=keepdim)
        vt, it = torch.kthvalue(theirs, 3, dim=1, keepdim=keepdim)
        np.testing.assert_array_equal(v.numpy(), vt.detach().numpy())
        np.testing.assert_array_equal(i.numpy(), it.numpy())
        v.sum().backward()
        vt.sum().backward()
        np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())
    check_backward(lambda t: framework.kthvalue(t, 2)[0], [_rand((3, 4))])


def test_mode_follows_paddle():
    values, indices = framework.mode(framework.to_tensor([[3.0, 1.0, 3.0, 1.0, 2.0]]))
    assert values.numpy().tolist() == [1.0] and indices.numpy().tolist() == [3]
    x = framework.to_tensor([[1.0, 2.0], [2.0, 2.0], [1.0, 3.0]], stop_gradient=False)
    v, i = framework.mode(x, axis=0, keepdim=True)
    assert v.shape == [1, 2] and v.numpy().tolist() == [[1.0, 2.0]]
    assert i.numpy().tolist() == [[2, 1]]
    v.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0], [0, 1], [1, 0]])


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted(right):
    seq = np.array([1, 3, 3, 5])
    vals = np.array([[0, 3, 6], [3, 4, 5]])
    got = framework.searchsorted(framework.to_tensor(seq), framework.to_tensor(vals), right=right)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(
        got.numpy(), np.searchsorted(seq, vals, "right" if right else "left")
    )
    rows = np.array([[1, 3, 5], [2, 4, 6]])
    got = framework.searchsorted(
        framework.to_tensor(rows),
        framework.to_tensor(np.array([[3, 6], [1, 7]])),
        out_int32=True,
        right=right,
    )
    side = "right" if right else "left"
    expected = [np.searchsorted(rows[0], [3, 6], side), np.searchsorted(rows[1], [1, 7], side)]
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.numpy(), expected)


def test_unique():
    x = framework.to_tensor([3, 1, 3, 2])
    np.testing.assert_array_equal(framework.unique(x).numpy(), [1, 2, 3])
    values, index, inverse, counts = framework.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    assert index.numpy().tolist() == [1, 3, 0]
    assert inverse.numpy().tolist() == [2, 0, 2, 1]
    assert counts.numpy().tolist() == [1, 1, 2]
    assert counts.dtype == np.int64
    rows = framework.unique(framework.to_tensor([[1, 2], [1, 2], [0, 5]]), axis=0)
    assert rows.numpy().tolist() == [[0, 5], [1, 2]]
    _, c32 = framework.unique(x, return_counts=True, dtype="int32")
    assert c32.dtype == np.int32


def test_one_hot():
    out = one_hot(framework.to_tensor([[1, 0], [2, 2]]), num_classes=3)
    assert out.dtype == np.float32 and out.shape == [2, 2, 3]
    np.testing.assert_array_equal(out.numpy(), np.eye(3, dtype=np.float32)[[[1, 0], [2, 2]]])
    assert one_hot(framework.to_tensor([4]), -1).shape == [1, 5]
    with pytest.raises(ValueError, match=r"\[0, 3\)"):
        one_hot(framework.to_tensor([3]), 3)
