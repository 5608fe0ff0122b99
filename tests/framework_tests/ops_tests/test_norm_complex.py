"""Norms of complex tensors are the norms of their magnitudes and are real (float32 for
complex64), as in Paddle; checked against Paddle 3.3, NumPy and central differences."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

X = np.array([[1 + 2j, 5 + 0j, -1j], [3.5 + 1j, 1j, 0.2 - 0.1j]], np.complex64)
CASES = [
    {},
    {"p": 1, "axis": 1},
    {"p": 2, "axis": 0},
    {"p": math.inf},
    {"p": -math.inf, "axis": 1},
    {"p": 3.0, "axis": 1, "keepdim": True},
    {"p": 0},
    {"p": 1, "axis": [0, 1]},
    {"p": math.inf, "axis": [0, 1]},
    {"p": "nuc", "axis": [0, 1]},
    {"p": 2, "axis": [0, 1]},
]


@pytest.mark.parametrize("kwargs", CASES, ids=[str(c) for c in CASES])
def test_complex_norms_match_paddle(kwargs):
    paddle = pytest.importorskip("paddle")
    ours = framework.linalg.norm(framework.to_tensor(X), **kwargs)
    theirs = paddle.linalg.norm(paddle.to_tensor(X), **kwargs)
    assert ours.dtype.name == "float32" == str(theirs.dtype).removeprefix("paddle.")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5)


def test_the_frobenius_norm_of_a_complex_matrix_is_real():
    # Paddle 3.3 returns sqrt(sum(z * z)) here, a complex number; NumPy's is the norm.
    ours = framework.linalg.norm(framework.to_tensor(X), p="fro", axis=[0, 1])
    assert ours.dtype == framework.float32
    np.testing.assert_allclose(ours.numpy(), np.linalg.norm(X, "fro"), rtol=1e-6)
    matrix = framework.linalg.matrix_norm(framework.to_tensor(X.astype(np.complex128)))
    np.testing.assert_allclose(matrix.numpy(), np.linalg.norm(X.astype(np.complex128)))


@pytest.mark.parametrize(
    "kwargs", [{}, {"p": 1, "axis": 1}, {"p": 3.0, "axis": 0}, {"p": "fro", "axis": [0, 1]}]
)
def test_complex_norm_gradients_match_central_differences(kwargs):
    data = X.astype(np.complex128)

    def op(t):
        return framework.linalg.norm(t, **kwargs)

    check_backward(op, [data])
    check_double_backward(op, [data])
