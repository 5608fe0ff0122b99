"""trace, diagflat, block_diag, vander, tril/triu_indices, cartesian_prod, combinations: NumPy
reference, gradients of two orders, PaddlePaddle parity (dtypes), bad input."""

from __future__ import annotations

import itertools

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


@pytest.mark.parametrize(
    "shape,offset,a1,a2",
    [
        ((4, 5), 0, 0, 1),
        ((4, 5), 2, 0, 1),
        ((4, 5), -3, 0, 1),
        ((4, 5), 9, 0, 1),
        ((2, 3, 4), 1, 1, 2),
        ((2, 3, 4), 0, -1, 0),
    ],
)
def test_trace_matches_numpy_and_has_gradients(shape, offset, a1, a2):
    x = _rand(shape)
    got = framework.trace(_t(x), offset, a1, a2)
    np.testing.assert_allclose(got.numpy(), np.trace(x, offset, a1, a2))
    assert got.dtype == np.float64
    check_backward(lambda t: framework.trace(t, offset, a1, a2), [x])
    check_double_backward(lambda t: framework.trace(t * t, offset, a1, a2), [x])


def test_trace_keeps_integer_dtype():
    x = framework.to_tensor(np.arange(9).reshape(3, 3), dtype="int32")
    assert framework.trace(x).dtype == np.int32 and framework.trace(x).item() == 12


@pytest.mark.parametrize("shape,offset", [((3,), 0), ((2, 2), 1), ((3,), -2), ((), 0)])
def test_diagflat_matches_numpy(shape, offset):
    x = _rand(shape)
    got = framework.diagflat(_t(x), offset)
    np.testing.assert_array_equal(got.numpy(), np.diagflat(x, offset))
    check_backward(lambda t: framework.diagflat(t, offset), [x])
    check_double_backward(lambda t: framework.diagflat(t * t, offset), [x])


def test_block_diag_matches_scipy_layout_and_has_gradients():
    a, b, c = _rand((2, 2)), _rand((1, 3), 1), _rand((), 2)
    got = framework.block_diag([_t(a), _t(b), _t(c)])
    want = np.zeros((4, 6))
    want[:2, :2], want[2:3, 2:5], want[3, 5] = a, b, c
    np.testing.assert_array_equal(got.numpy(), want)
    check_backward(lambda *ts: framework.block_diag(list(ts)), [a, b, c])
    check_double_backward(lambda *ts: framework.block_diag([t * t for t in ts]), [a, b])
    one_d = framework.block_diag([framework.to_tensor([1, 2]), framework.to_tensor([[3]])])
    assert one_d.numpy().tolist() == [[1, 2, 0], [0, 0, 3]] and one_d.dtype == np.int64


@pytest.mark.parametrize("n,increasing", [(None, False), (4, True), (2, False), (0, False)])
def test_vander_matches_numpy(n, increasing):
    x = _rand((3,))
    got = framework.vander(_t(x), n, increasing)
    np.testing.assert_allclose(got.numpy(), np.vander(x, n, increasing))
    if n != 0:
        check_backward(lambda t: framework.vander(t, n, increasing), [x])
        check_double_backward(lambda t: framework.vander(t, n, increasing), [x])
    assert framework.vander(framework.to_tensor([1, 2])).dtype == np.int64


@pytest.mark.parametrize("row,col,offset", [(3, 3, 0), (3, 4, 1), (4, 3, -1), (0, 2, 0)])
def test_triangle_indices_match_numpy(row, col, offset):
    np.testing.assert_array_equal(
        framework.tril_indices(row, col, offset).numpy(),
        np.stack(np.tril_indices(row, offset, col)),
    )
    np.testing.assert_array_equal(
        framework.triu_indices(row, col, offset).numpy(),
        np.stack(np.triu_indices(row, offset, col)),
    )
    assert framework.tril_indices(row, col, offset).dtype == np.int64
    assert framework.triu_indices(row, col, offset, "int32").dtype == np.int32


def test_cartesian_prod_and_combinations_match_itertools():
    a, b = _rand((2,)), _rand((3,), 1)
    got = framework.cartesian_prod([_t(a), _t(b)])
    np.testing.assert_array_equal(got.numpy(), np.array(list(itertools.product(a, b))))
    check_backward(lambda s, t: framework.cartesian_prod([s, t]), [a, b])
    check_double_backward(lambda s, t: framework.cartesian_prod([s * s, t]), [a, b])
    x = _rand((4,))
    for r, rep in ((2, False), (3, False), (2, True)):
        pick = itertools.combinations_with_replacement if rep else itertools.combinations
        got = framework.combinations(_t(x), r, rep)
        np.testing.assert_array_equal(got.numpy(), np.array(list(pick(x, r))))
    check_backward(lambda t: framework.combinations(t, 2), [x])
    check_double_backward(lambda t: framework.combinations(t * t, 2, True), [x])
    assert framework.combinations(_t(x), 5).shape == [0, 5]


PARITY = {
    "trace_offset": lambda m: m.trace(m.to_tensor(A), 1),
    "trace_3d": lambda m: m.trace(m.to_tensor(X), 0, -1, 0),
    "trace_int32": lambda m: m.trace(m.to_tensor(np.arange(9, dtype=np.int32).reshape(3, 3))),
    "diagflat_matrix_offset": lambda m: m.diagflat(m.to_tensor([[1, 2], [3, 4]]), -1),
    "block_diag": lambda m: m.block_diag([m.to_tensor([[1.0, 2.0]]), m.to_tensor(3.0)]),
    "vander_int": lambda m: m.vander(m.to_tensor([1, 2, 3])),
    "vander_increasing": lambda m: m.vander(m.to_tensor([1.0, 2.0, 3.0]), 4, True),
    "tril_indices": lambda m: m.tril_indices(4, 3, -1),
    "triu_indices_int32": lambda m: m.triu_indices(3, 4, 1, "int32"),
    "cartesian_prod": lambda m: m.cartesian_prod([m.to_tensor([1, 2]), m.to_tensor([3, 4, 5])]),
    "combinations_replacement": lambda m: m.combinations(m.to_tensor([1.0, 2, 3]), 2, True),
    "combinations_too_long": lambda m: m.combinations(m.to_tensor([1.0, 2.0]), 3),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match="bool"):
        framework.trace(framework.to_tensor(np.eye(2, dtype=bool)))
    with pytest.raises(ValueError, match="at least 2-D"):
        framework.trace(framework.ones([3]))
    with pytest.raises(TypeError, match="one dtype"):
        framework.block_diag([framework.to_tensor([[1]]), framework.to_tensor([[1.0]])])
    with pytest.raises(ValueError, match="at most 2-D"):
        framework.block_diag([framework.ones([1, 1, 1])])
    with pytest.raises(ValueError, match="at least one"):
        framework.block_diag([])
    with pytest.raises(ValueError, match="1-D"):
        framework.vander(framework.ones([2, 2]))
    with pytest.raises(ValueError, match="non-negative"):
        framework.vander(framework.ones([2]), -1)
    with pytest.raises(ValueError, match=">= 0"):
        framework.tril_indices(-1, 2)
    with pytest.raises(ValueError, match="1-D"):
        framework.cartesian_prod([framework.ones([2, 2])])
    with pytest.raises(ValueError, match="1-D"):
        framework.combinations(framework.ones([2, 2]))
    with pytest.raises(ValueError, match="non-negative"):
        framework.combinations(framework.ones([2]), -1)
