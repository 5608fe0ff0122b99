"""matmul (batched, broadcasting, transposes, 1-D cases), mm, bmm, dot, outer, `@`."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

SHAPES = [
    ((3, 4), (4, 5)),
    ((2, 3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((2, 3, 4), (4, 5)),
    ((3, 4), (2, 4, 5)),
    ((4,), (4, 5)),
    ((3, 4), (4,)),
    ((4,), (4,)),
    ((4,), (2, 4, 3)),
    ((2, 3, 4), (4,)),
    ((0, 4), (4, 5)),
    ((3, 0), (0, 5)),
    ((2, 0, 4), (4, 3)),
]


def _rand(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _t(a: np.ndarray, flag: bool) -> np.ndarray:
    return np.swapaxes(a, -1, -2) if flag and a.ndim > 1 else a


def _transposed_shapes(x_shape, y_shape, tx, ty):
    """Input shapes that, after the transposes, have the shapes in SHAPES."""
    xs = x_shape[:-2] + (x_shape[-1], x_shape[-2]) if tx and len(x_shape) > 1 else x_shape
    ys = y_shape[:-2] + (y_shape[-1], y_shape[-2]) if ty and len(y_shape) > 1 else y_shape
    return xs, ys


@pytest.mark.parametrize("x_shape,y_shape", SHAPES)
@pytest.mark.parametrize("tx,ty", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_matches_numpy_with_gradients(x_shape, y_shape, tx, ty):
    xs, ys = _transposed_shapes(x_shape, y_shape, tx, ty)
    x, y = _rand(xs), _rand(ys, seed=1)
    got = framework.matmul(framework.to_tensor(x), framework.to_tensor(y), tx, ty)
    expected = np.matmul(_t(x, tx), _t(y, ty))
    assert got.shape == list(expected.shape)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)
    check_backward(lambda a, b: framework.matmul(a, b, tx, ty), [x, y])


@pytest.mark.parametrize("x_shape,y_shape", SHAPES[:6])
def test_matmul_is_twice_differentiable(x_shape, y_shape):
    x, y = _rand(x_shape), _rand(y_shape, seed=1)
    check_double_backward(lambda a, b: framework.matmul(a, b), [x, y])
    check_double_backward(lambda a, b: framework.matmul(a * a, b, False, False), [x, y])


@pytest.mark.parametrize("x_shape,y_shape", SHAPES)
@pytest.mark.parametrize("tx,ty", [(False, False), (True, True), (False, True)])
def test_matmul_matches_torch_in_float32(x_shape, y_shape, tx, ty):
    torch = pytest.importorskip("torch")
    xs, ys = _transposed_shapes(x_shape, y_shape, tx, ty)
    x, y = _rand(xs, dtype=np.float32), _rand(ys, seed=1, dtype=np.float32)
    a, b = framework.to_tensor(x, stop_gradient=False), framework.to_tensor(y, stop_gradient=False)
    at, bt = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    out = framework.matmul(a, b, tx, ty)
    tt = at.transpose(-1, -2) if tx and at.ndim > 1 else at
    ut = bt.transpose(-1, -2) if ty and bt.ndim > 1 else bt
    ref = torch.matmul(tt, ut)
    assert out.dtype == np.float32
    g = _rand(tuple(ref.shape), seed=2, dtype=np.float32)
    out.backward(framework.to_tensor(g))
    ref.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(a.grad.numpy(), at.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), bt.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_matmul_errors_name_shapes_and_dtypes():
    with pytest.raises(
        ValueError,
        match=r"shapes paddle\.Size\(\[2, 3\]\) and paddle\.Size\(\[4, 5\]\) do not match.*3 and 4",
    ):
        framework.matmul(framework.ones([2, 3]), framework.ones([4, 5]))
    with pytest.raises(ValueError, match="transpose_y=True"):
        framework.matmul(framework.ones([2, 3]), framework.ones([4, 5]), transpose_y=True)
    with pytest.raises(TypeError, match="same dtype"):
        framework.matmul(framework.ones([2, 2]), framework.ones([2, 2], dtype="float64"))


def test_matmul_operators_and_methods():
    x = _rand((2, 3), dtype=np.float32)
    y = _rand((3, 4), seed=1, dtype=np.float32)
    a, b = framework.to_tensor(x), framework.to_tensor(y)
    np.testing.assert_allclose((a @ b).numpy(), x @ y, rtol=1e-6)
    np.testing.assert_allclose((x @ b).numpy(), x @ y, rtol=1e-6)
    np.testing.assert_allclose(a.matmul(b).numpy(), x @ y, rtol=1e-6)
    np.testing.assert_allclose(framework.mm(a, b).numpy(), x @ y, rtol=1e-6)


def test_bmm_checks_its_inputs():
    x, y = _rand((2, 3, 4)), _rand((2, 4, 5), seed=1)
    got = framework.bmm(framework.to_tensor(x), framework.to_tensor(y))
    np.testing.assert_allclose(got.numpy(), x @ y)
    with pytest.raises(ValueError, match="3-D"):
        framework.bmm(framework.ones([3, 4]), framework.ones([4, 5]))
    with pytest.raises(ValueError, match="batch sizes differ"):
        framework.bmm(framework.ones([2, 3, 4]), framework.ones([3, 4, 5]))


@pytest.mark.parametrize("shape", [(4,), (3, 4)])
def test_dot(shape):
    x, y = _rand(shape), _rand(shape, seed=1)
    got = framework.dot(framework.to_tensor(x), framework.to_tensor(y))
    np.testing.assert_allclose(got.numpy(), (x * y).sum(-1))
    assert got.shape == list(shape[:-1])
    check_backward(framework.dot, [x, y])
    check_double_backward(framework.dot, [x, y])


def test_outer():
    x, y = _rand((3,)), _rand((2, 2), seed=1)
    got = framework.outer(framework.to_tensor(x), framework.to_tensor(y))
    np.testing.assert_allclose(got.numpy(), np.outer(x, y))
    check_backward(framework.outer, [x, y])
    torch = pytest.importorskip("torch")
    a = framework.to_tensor(x.astype(np.float32), stop_gradient=False)
    at = torch.tensor(x.astype(np.float32), requires_grad=True)
    w = y.reshape(-1).astype(np.float32)
    framework.outer(a, framework.to_tensor(w)).sum().backward()
    torch.outer(at, torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), at.grad.numpy(), rtol=1e-6)


def test_batched_times_matrix_runs_as_one_gemm_without_copies():
    x = framework.to_tensor(_rand((8, 16, 32), dtype=np.float32))
    w = framework.to_tensor(_rand((32, 24), seed=1, dtype=np.float32))
    out = framework.matmul(x, w)
    np.testing.assert_allclose(out.numpy(), x.numpy() @ w.numpy(), rtol=1e-5, atol=1e-5)
    assert out._data.flags.c_contiguous
