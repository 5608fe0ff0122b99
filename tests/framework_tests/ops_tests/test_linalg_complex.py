"""Complex linalg: inv, det, svd, qr and eig on complex64/complex128 against NumPy and Paddle
(values and dtypes), with the conjugate-Wirtinger gradients of inv, det and svd checked by
central differences (svd through phase-invariant losses, since singular vectors carry a phase)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward

RNG = np.random.default_rng(24)


def _complex(*shape: int, dtype: str = "complex128") -> np.ndarray:
    return (RNG.normal(size=shape) + 1j * RNG.normal(size=shape)).astype(dtype)


def _paddle():
    return pytest.importorskip("paddle")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_inv_and_det_match_numpy_and_paddle_dtypes(dtype):
    paddle = _paddle()
    a = _complex(2, 3, 3, dtype=dtype) + 3 * np.eye(3, dtype=dtype)
    tol = 1e-4 if dtype == "complex64" else 1e-10
    for ours_fn, theirs_fn, ref in [
        (framework.linalg.inv, paddle.linalg.inv, np.linalg.inv(a)),
        (framework.linalg.det, paddle.linalg.det, np.linalg.det(a)),
    ]:
        ours, theirs = ours_fn(framework.to_tensor(a)), theirs_fn(paddle.to_tensor(a))
        assert str(theirs.dtype) == f"paddle.{ours.dtype}"
        np.testing.assert_allclose(ours.numpy(), ref, rtol=tol, atol=tol)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_svd_reconstructs_and_has_paddle_dtypes(shape, dtype):
    paddle = _paddle()
    a = _complex(*shape, dtype=dtype)
    u, s, vh = framework.linalg.svd(framework.to_tensor(a))
    pu, ps, pvh = paddle.linalg.svd(paddle.to_tensor(a))
    assert [str(t.dtype) for t in (pu, ps, pvh)] == [f"paddle.{t.dtype}" for t in (u, s, vh)]
    tol = 1e-4 if dtype == "complex64" else 1e-10
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=tol)
    recon = (u.numpy() * s.numpy()[None, :]) @ vh.numpy()
    np.testing.assert_allclose(recon, a, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_qr_forward_is_unitary_triangular_with_paddle_dtypes(dtype):
    paddle = _paddle()
    a = _complex(4, 3, dtype=dtype)
    q, r = framework.linalg.qr(framework.to_tensor(a))
    pq, pr = paddle.linalg.qr(paddle.to_tensor(a))
    assert [str(pq.dtype), str(pr.dtype)] == [f"paddle.{q.dtype}", f"paddle.{r.dtype}"]
    tol = 1e-4 if dtype == "complex64" else 1e-10
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a, rtol=tol, atol=tol)
    np.testing.assert_allclose(q.numpy().conj().T @ q.numpy(), np.eye(3), atol=tol)
    np.testing.assert_allclose(np.tril(r.numpy(), -1), 0, atol=tol)


def test_qr_backward_on_complex_refuses_clearly():
    x = framework.to_tensor(_complex(3, 3), stop_gradient=False)
    q, r = framework.linalg.qr(x)
    with pytest.raises(NotImplementedError, match="qr: the gradient for complex128"):
        (q.abs().sum() + r.abs().sum()).backward()


def test_eig_on_complex_matches_numpy_and_paddle_dtype():
    paddle = _paddle()
    a = _complex(3, 3, dtype="complex64")
    w, v = framework.linalg.eig(framework.to_tensor(a))
    pw, _ = paddle.linalg.eig(paddle.to_tensor(a))
    assert str(pw.dtype) == f"paddle.{w.dtype}"
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * w.numpy()[None, :], atol=1e-4)


def test_inv_gradient_matches_central_differences():
    check_backward(framework.linalg.inv, [_complex(3, 3) + 3 * np.eye(3)])


def test_det_gradient_matches_central_differences():
    check_backward(framework.linalg.det, [_complex(2, 3, 3)])


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
def test_svd_gradient_matches_central_differences_for_phase_invariant_losses(shape):
    def loss(x):
        u, s, vh = framework.linalg.svd(x)
        # s, |U|^2 and U diag(s) VH do not depend on the per-pair phase.
        return s * 1.5, (u * u.conj()).real(), framework.matmul(u * s.cast(u.dtype), vh)

    check_backward(loss, [_complex(*shape)])
