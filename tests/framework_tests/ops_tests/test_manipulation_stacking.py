"""atleast_*d, vstack/hstack/dstack/column_stack, tensor_split and h/v/dsplit: NumPy reference,
gradients of two orders, PaddlePaddle parity (uneven splits, negative indices) and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a):
    return framework.to_tensor(np.asarray(a))


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (1, 2, 3, 4)])
def test_atleast_nd_match_numpy(shape):
    x = _rand(shape)
    for ours, ref in (
        (framework.atleast_1d, np.atleast_1d),
        (framework.atleast_2d, np.atleast_2d),
        (framework.atleast_3d, np.atleast_3d),
    ):
        got = ours(_t(x))
        assert got.shape == list(ref(x).shape)
        np.testing.assert_array_equal(got.numpy(), ref(x))
        assert got.dtype == np.float64


def test_atleast_nd_several_inputs_give_a_list():
    out = framework.atleast_2d(_t(1.0), _t([1, 2]))
    assert [o.shape for o in out] == [[1, 1], [1, 2]]
    assert out[1].dtype == np.int64
    assert framework.atleast_1d(np.ones(2)).shape == [2]


@pytest.mark.parametrize(
    "ours,ref,shapes",
    [
        ("vstack", np.vstack, [(3,), (3,)]),
        ("vstack", np.vstack, [(2, 3), (1, 3)]),
        ("vstack", np.vstack, [(2, 3, 4), (1, 3, 4)]),
        ("row_stack", np.vstack, [(3,), (2, 3)]),
        ("hstack", np.hstack, [(2,), (3,)]),
        ("hstack", np.hstack, [(), ()]),
        ("hstack", np.hstack, [(2, 3), (2, 1)]),
        ("dstack", np.dstack, [(3,), (3,)]),
        ("dstack", np.dstack, [(2, 3), (2, 3)]),
        ("dstack", np.dstack, [(2, 3, 4), (2, 3, 1)]),
        ("column_stack", np.column_stack, [(3,), (3, 2)]),
        ("column_stack", np.column_stack, [(), ()]),
        ("column_stack", np.column_stack, [(2, 3, 4), (2, 1, 4)]),
        ("hstack", np.hstack, [(0,), (2,)]),
    ],
)
def test_stacking_matches_numpy_and_has_gradients(ours, ref, shapes):
    xs = [_rand(s, seed=i) for i, s in enumerate(shapes)]
    op = getattr(framework, ours)
    got = op([_t(x) for x in xs])
    np.testing.assert_allclose(got.numpy(), ref(xs))
    assert got.dtype == np.float64
    if all(x.size for x in xs):
        check_backward(lambda *ts: op(list(ts)), xs)
        check_double_backward(lambda *ts: op([t * t for t in ts]), xs)


def test_stacking_keeps_integer_dtypes():
    a = framework.to_tensor([1, 2], dtype="int32")
    assert framework.vstack([a, a]).dtype == np.int32
    assert framework.column_stack([a, a]).numpy().tolist() == [[1, 1], [2, 2]]


@pytest.mark.parametrize(
    "length,spec",
    [
        (7, 3),
        (3, 5),
        (6, 3),
        (7, [2, 5]),
        (7, (2, 5)),
        (7, [-2]),
        (7, [5, 2]),
        (7, [2, 10]),
        (7, []),
        (0, 2),
    ],
)
def test_tensor_split_matches_numpy(length, spec):
    x = np.arange(length, dtype=np.float64)
    got = framework.tensor_split(_t(x), spec)
    want = np.array_split(x, spec if isinstance(spec, int) else list(spec))
    assert [g.shape for g in got] == [list(w.shape) for w in want]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g.numpy(), w)


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_tensor_split_axis_and_gradient(axis):
    x = _rand((2, 3, 5))
    got = framework.tensor_split(_t(x), 2, axis=axis)
    for g, w in zip(got, np.array_split(x, 2, axis=axis), strict=True):
        np.testing.assert_array_equal(g.numpy(), w)
    check_backward(lambda t: framework.tensor_split(t, [1, 2], axis=axis)[1] * 2, [x])
    check_double_backward(lambda t: framework.tensor_split(t * t, 2, axis=axis)[0], [x])


def test_hsplit_vsplit_dsplit_match_numpy_on_even_splits():
    x = _rand((4, 6, 2))
    for ours, ref in ((framework.hsplit, np.hsplit), (framework.vsplit, np.vsplit)):
        for spec in (2, [1, 3]):
            for g, w in zip(ours(_t(x), spec), ref(x, spec), strict=True):
                np.testing.assert_array_equal(g.numpy(), w)
    for g, w in zip(framework.dsplit(_t(x), 2), np.dsplit(x, 2), strict=True):
        np.testing.assert_array_equal(g.numpy(), w)
    one_d = np.arange(6.0)
    assert [g.shape for g in framework.hsplit(_t(one_d), 3)] == [[2], [2], [2]]


PARITY = {
    "atleast_3d_vector": lambda m: m.atleast_3d(m.to_tensor([1.0, 2.0, 3.0])),
    "atleast_1d_many": lambda m: m.atleast_1d(m.to_tensor(3.0), m.to_tensor([1, 2])),
    "vstack_ints": lambda m: m.vstack([m.to_tensor([1, 2]), m.to_tensor([3, 4])]),
    "hstack_matrices": lambda m: m.hstack([m.to_tensor(X[0]), m.to_tensor(X[1])]),
    "dstack_3d": lambda m: m.dstack([m.to_tensor(X), m.to_tensor(X)]),
    "column_stack_mixed": lambda m: m.column_stack([m.to_tensor([1.0, 2.0]), m.ones([2, 2])]),
    "tensor_split_negative_index": lambda m: m.tensor_split(m.arange(7), [-2]),
    "tensor_split_more_parts_than_items": lambda m: m.tensor_split(m.arange(3), 5),
    "tensor_split_last_axis": lambda m: m.tensor_split(m.to_tensor(X), 3, axis=-1),
    "hsplit_uneven": lambda m: m.hsplit(m.to_tensor(X), 2),
    "vsplit_indices": lambda m: m.vsplit(m.to_tensor(X), [1]),
    "dsplit_indices": lambda m: m.dsplit(m.to_tensor(X), [1, 3]),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    ours = ours if isinstance(ours, list) else [ours]
    theirs = theirs if isinstance(theirs, list) else [theirs]
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == list(b.shape)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    seven = framework.arange(7)
    with pytest.raises(ValueError, match="number of sections must be positive"):
        framework.tensor_split(seven, 0)
    with pytest.raises(TypeError, match="int or a list of ints"):
        framework.tensor_split(seven, 2.5)
    with pytest.raises(TypeError, match="indices must be ints"):
        framework.tensor_split(seven, [1.5])
    with pytest.raises(ValueError, match="out of range"):
        framework.tensor_split(seven, 2, axis=1)
    with pytest.raises(ValueError, match="out of range"):
        framework.tensor_split(framework.to_tensor(3.0), 2)
    with pytest.raises(ValueError, match="at least 2 dims"):
        framework.vsplit(seven, 7)
    with pytest.raises(ValueError, match="at least 3 dims"):
        framework.dsplit(framework.ones([2, 2]), 2)
    with pytest.raises(ValueError, match="at least one tensor"):
        framework.vstack([])
    with pytest.raises(TypeError, match="same dtype"):
        framework.vstack([framework.to_tensor([1, 2]), framework.to_tensor([1.0, 2.0])])
