"""eigh / eigvalsh of Hermitian complex matrices: NumPy reference, real eigenvalues, gradients
of two orders with a loss that does not depend on the eigenvectors' phase, and parity with
Paddle (values, dtypes, errors) and PyTorch (gradients)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

L = framework.linalg


def _hermitian_input(*shape: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _hermitian(t):
    return (t + framework.conj(t).transpose([*range(t.ndim - 2), t.ndim - 1, t.ndim - 2])) * 0.5


def _phase_free(w, v):
    """Eigenvalues and |v|^2: both unchanged when an eigenvector is multiplied by a phase."""
    return [w, (v * framework.conj(v)).real()]


@pytest.mark.parametrize("dtype,real", [("complex64", np.float32), ("complex128", np.float64)])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_it_matches_numpy_with_real_eigenvalues(dtype, real, uplo):
    a = _hermitian_input(2, 4, 4).astype(dtype)
    w, v = L.eigh(framework.to_tensor(a), UPLO=uplo)
    w_ref, v_ref = np.linalg.eigh(a, UPLO=uplo)
    assert w.dtype == real and v.dtype == np.dtype(dtype)
    assert L.eigvalsh(framework.to_tensor(a), UPLO=uplo).dtype == real
    tol = 1e-4 if dtype == "complex64" else 1e-10
    np.testing.assert_allclose(w.numpy(), w_ref, rtol=tol, atol=tol)
    # Eigenvectors agree up to a phase per column: compare the projectors v v^H.
    # The Hermitian matrix LAPACK reads: one triangle, the diagonal's real part.
    part = np.tril(a, -1) if uplo == "L" else np.conj(np.swapaxes(np.triu(a, 1), -1, -2))
    h = part + np.conj(np.swapaxes(part, -1, -2)) + np.real(a) * np.eye(4)
    got = v.numpy()
    np.testing.assert_allclose(
        got @ (w.numpy()[..., None] * np.conj(got.swapaxes(-1, -2))), h, atol=tol * 10
    )
    np.testing.assert_allclose(np.abs(got), np.abs(v_ref), atol=tol * 10)


def test_gradients_match_central_differences():
    a = _hermitian_input(2, 3, 3)
    check_backward(lambda t: _phase_free(*L.eigh(_hermitian(t))), [a])
    check_backward(lambda t: L.eigvalsh(_hermitian(t), UPLO="U"), [a])


def test_second_derivatives_match_central_differences():
    a = _hermitian_input(3, 3, seed=1)
    check_double_backward(lambda t: _phase_free(*L.eigh(_hermitian(t))), [a])
    check_double_backward(lambda t: L.eigvalsh(_hermitian(t)), [a])


def test_a_gauge_invariant_vector_loss_matches_central_differences():
    # v diag(f) v^H is the same for every choice of phases.
    a = _hermitian_input(3, 3, seed=2)
    f = framework.to_tensor(np.array([0.5, -1.0, 2.0]))

    def projector(t):
        w, v = L.eigh(_hermitian(t))
        return framework.matmul(v * f.astype(v.dtype), framework.conj(v).t()) + w.sum()

    check_backward(projector, [a])
    check_double_backward(projector, [a])


def test_the_gradient_is_hermitian_and_matches_torch():
    torch = pytest.importorskip("torch")
    a = _hermitian_input(3, 3, seed=3)
    a = (a + a.conj().T) / 2
    weights = np.random.default_rng(4).standard_normal((3, 3))
    ours = framework.to_tensor(a, stop_gradient=False)
    w, v = L.eigh(ours)
    (
        (w * framework.to_tensor(weights[0])).sum()
        + ((v.abs() ** 2) * framework.to_tensor(weights)).sum()
    ).backward()
    theirs = torch.tensor(a, requires_grad=True)
    wt, vt = torch.linalg.eigh(theirs)
    (
        (wt * torch.tensor(weights[0])).sum() + (vt.abs() ** 2 * torch.tensor(weights)).sum()
    ).backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(ours.grad.numpy(), ours.grad.numpy().conj().T, atol=1e-12)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_it_matches_paddle_values_dtypes_and_gradients(dtype):
    paddle = pytest.importorskip("paddle")
    a = _hermitian_input(3, 3, seed=5)
    a = ((a + a.conj().T) / 2).astype(dtype)
    weights = np.random.default_rng(6).standard_normal(3)
    results = []
    for m in (framework, paddle):
        x = m.to_tensor(a, stop_gradient=False)
        w, v = m.linalg.eigh(x)
        loss = (w * m.to_tensor(weights.astype(w.numpy().dtype))).sum()
        loss = (
            loss
            + (v.abs() ** 2 * m.to_tensor(np.outer(weights, weights).astype(w.numpy().dtype))).sum()
        )
        (gx,) = m.grad(loss, x)
        results.append((w.numpy(), np.abs(v.numpy()), gx.numpy(), str(w.dtype), str(v.dtype)))
    (w, av, g, wd, vd), (pw, pav, pg, pwd, pvd) = results
    assert (wd.split(".")[-1], vd.split(".")[-1]) == (pwd.split(".")[-1], pvd.split(".")[-1])
    assert g.dtype == pg.dtype == np.dtype(dtype)
    tol = 1e-4 if dtype == "complex64" else 1e-10
    np.testing.assert_allclose(w, pw, rtol=tol, atol=tol)
    np.testing.assert_allclose(av, pav, rtol=tol, atol=tol)
    np.testing.assert_allclose(g, pg, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize(
    "shape,kwargs,message",
    [
        ((3, 3), {"UPLO": "X"}, "UPLO must be L or U. But received UPLO is: X"),
        ((2, 3), {}, "The input matrix must be batches of square matrices"),
        ((3,), {}, "only support >=2 tensor"),
    ],
)
def test_it_rejects_bad_arguments_as_paddle_does(shape, kwargs, message):
    paddle = pytest.importorskip("paddle")
    a = np.ones(shape, dtype=np.complex128)
    with pytest.raises(ValueError, match=message):
        paddle.linalg.eigh(paddle.to_tensor(a), **kwargs)
    with pytest.raises(ValueError, match=message):
        L.eigh(framework.to_tensor(a), **kwargs)
    with pytest.raises(ValueError, match=message):
        L.eigvalsh(framework.to_tensor(a), **kwargs)


def test_it_rejects_integer_matrices():
    with pytest.raises(
        TypeError, match="eigh: expects a float32, float64, complex64 or complex128"
    ):
        L.eigh(framework.to_tensor(np.eye(2, dtype=np.int32)))
