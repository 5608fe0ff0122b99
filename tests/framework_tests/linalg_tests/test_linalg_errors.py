"""Bad input to paddle.linalg ops gets a clear error, not a NumPy traceback or a wrong result."""

from __future__ import annotations

import numpy as np
import pytest

import framework

L = framework.linalg


def _t(a):
    return framework.to_tensor(np.asarray(a, dtype=np.float64))


@pytest.mark.parametrize(
    "call",
    [
        lambda: L.inv(_t(np.ones((2, 3)))),
        lambda: L.det(_t([1.0, 2.0])),
        lambda: L.cholesky(_t(np.ones((3, 2)))),
        lambda: L.solve(_t(np.eye(3)), _t(np.ones((2, 1)))),
        lambda: L.triangular_solve(_t(np.eye(2)), _t(np.ones(2))),
        lambda: L.lu_unpack(_t(np.eye(3)), framework.to_tensor(np.ones(2, np.int32))),
        lambda: L.lstsq(_t(np.ones((3, 2))), _t(np.ones((2, 1)))),
        lambda: L.matrix_norm(_t(np.eye(2)), axis=[0]),
        lambda: L.matrix_norm(_t(np.eye(2)), axis=[1, 1]),
    ],
)
def test_it_rejects_wrong_shapes(call):
    with pytest.raises(ValueError):
        call()


def test_it_rejects_integer_matrices_and_mixed_dtypes():
    with pytest.raises(
        TypeError,
        match="inv: expects a float32, float64, complex64 or complex128 tensor, got int64",
    ):
        L.inv(framework.to_tensor(np.eye(2, dtype=np.int64)))
    with pytest.raises(TypeError, match="same dtype"):
        L.solve(_t(np.eye(2)), framework.to_tensor(np.ones((2, 1), np.float32)))


def test_it_says_when_a_matrix_is_singular_or_not_positive_definite():
    with pytest.raises(ValueError, match="singular"):
        L.inv(_t(np.ones((2, 2))))
    with pytest.raises(ValueError, match="singular"):
        L.solve(_t(np.ones((2, 2))), _t(np.ones((2, 1))))
    with pytest.raises(ValueError, match="positive definite"):
        L.cholesky(_t(-np.eye(2)))


def test_it_rejects_unknown_modes():
    with pytest.raises(ValueError, match="mode"):
        L.qr(_t(np.eye(2)), mode="raw")
    with pytest.raises(ValueError, match="UPLO"):
        L.eigh(_t(np.eye(2)), UPLO="X")
    with pytest.raises(ValueError, match="trans"):
        L.lu_solve(_t(np.ones((2, 1))), *L.lu(_t(np.eye(2))), trans="X")
    with pytest.raises(ValueError, match="driver"):
        L.lstsq(_t(np.eye(2)), _t(np.eye(2)), driver="magic")


def test_complete_qr_of_a_tall_matrix_has_no_gradient():
    x = framework.to_tensor(np.random.default_rng(0).standard_normal((3, 2)), stop_gradient=False)
    q, _ = L.qr(x, mode="complete")
    with pytest.raises(RuntimeError, match="complete"):
        q.sum().backward()


def test_eig_says_it_is_not_differentiable():
    x = framework.to_tensor(np.eye(2), stop_gradient=False)
    w, _ = L.eig(x)
    with pytest.raises(NotImplementedError, match="not differentiable"):
        w.sum().backward()
