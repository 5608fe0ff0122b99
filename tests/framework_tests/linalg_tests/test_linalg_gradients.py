"""paddle.linalg ops: forward against NumPy references, and first and second derivatives
against central differences (float64, batched, square, tall and wide where the op allows)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

L = framework.linalg
RNG = np.random.default_rng(3)
SQUARE = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
RHS = RNG.standard_normal((2, 3, 2))
_G = RNG.standard_normal((2, 3, 3))
SPD = _G @ _G.transpose(0, 2, 1) + 3 * np.eye(3)


def _sym(t):
    return (t + t.mT) * 0.5


def _sign_free(*tensors):
    """Squares of factors unique only up to column signs (Q, U, V, eigenvectors)."""
    return [t * t for t in tensors]


def _rand(*shape):
    return RNG.standard_normal(shape)


# name: (function of tensors, inputs). Functions of symmetric matrices take `_sym(a)` so that
# central differences see the whole input.
CASES = {
    "inv": (L.inv, [SQUARE]),
    "det": (L.det, [SQUARE]),
    "slogdet": (lambda a: L.slogdet(a)[1], [SQUARE]),
    "solve": (L.solve, [SQUARE, RHS]),
    "solve_broadcast": (L.solve, [SQUARE[0], RHS]),
    "solve_vector": (L.solve, [SQUARE[0], RHS[0, :, 0]]),
    "solve_right": (lambda a, b: L.solve(a, b.mT, left=False), [SQUARE, RHS]),
    "triangular_solve": (L.triangular_solve, [SQUARE, RHS]),
    "triangular_solve_lower_t_unit": (
        lambda a, b: L.triangular_solve(a, b, upper=False, transpose=True, unitriangular=True),
        [SQUARE, RHS],
    ),
    "cholesky": (lambda a: L.cholesky(_sym(a)), [SPD]),
    "cholesky_upper": (lambda a: L.cholesky(_sym(a), upper=True), [SPD]),
    "cholesky_solve": (lambda b, a: L.cholesky_solve(b, L.cholesky(_sym(a))), [RHS, SPD]),
    "cholesky_inverse": (lambda a: L.cholesky_inverse(L.cholesky(_sym(a))), [SPD]),
    "qr_tall": (lambda a: _sign_free(*L.qr(a)), [_rand(2, 4, 3)]),
    "qr_square_product": (lambda a: L.qr(a)[0] @ L.qr(a)[1].abs(), [_rand(3, 3)]),
    "qr_wide": (lambda a: _sign_free(*L.qr(a)), [_rand(2, 3, 5)]),
    "qr_r": (lambda a: L.qr(a, mode="r").abs(), [_rand(4, 3)]),
    "eigh": (lambda a: [L.eigh(_sym(a))[0], *_sign_free(L.eigh(_sym(a))[1])], [_rand(2, 3, 3)]),
    "eigvalsh_upper": (lambda a: L.eigvalsh(_sym(a), UPLO="U"), [_rand(3, 3)]),
    "svd_tall": (lambda a: _sign_free(*L.svd(a)), [_rand(2, 4, 3)]),
    "svd_wide": (lambda a: _sign_free(*L.svd(a)), [_rand(3, 5)]),
    "svd_full_matrices": (lambda a: L.svd(a, full_matrices=True)[1], [_rand(4, 3)]),
    "svd_product": (lambda a: (lambda u, s, vh: u @ vh)(*L.svd(a)), [_rand(4, 3)]),
    "svdvals": (L.svdvals, [_rand(2, 3, 4)]),
    "pinv": (L.pinv, [_rand(4, 3)]),
    "pinv_hermitian": (lambda a: L.pinv(_sym(a), hermitian=True), [_rand(3, 3)]),
    "lstsq": (lambda a, b: L.lstsq(a, b)[0], [_rand(4, 3), _rand(4, 2)]),
    "lu_square": (lambda a: L.lu(a)[0], [_rand(2, 3, 3)]),
    "lu_wide": (lambda a: L.lu(a)[0], [_rand(3, 5)]),
    "lu_tall": (lambda a: L.lu(a)[0], [_rand(2, 5, 3)]),
    "lu_unpack": (lambda a: L.lu_unpack(*L.lu(a))[1:], [_rand(2, 4, 3)]),
    "lu_solve": (lambda a, b: L.lu_solve(b, *L.lu(a)), [SQUARE, RHS]),
    "lu_solve_t": (lambda a, b: L.lu_solve(b, *L.lu(a), trans="T"), [SQUARE, RHS]),
    "matrix_norm_nuc": (lambda a: L.matrix_norm(a, p="nuc"), [_rand(2, 4, 3)]),
    "matrix_norm_2": (lambda a: L.matrix_norm(a, p=2, axis=[0, 2]), [_rand(4, 2, 3)]),
    "matrix_norm_minus2": (lambda a: L.matrix_norm(a, p=-2, keepdim=True), [_rand(2, 3, 4)]),
    "multi_dot": (lambda a, b, c: L.multi_dot([a, b, c]), [_rand(3), _rand(3, 4), _rand(4, 2)]),
    "matrix_power": (lambda a: L.matrix_power(a, 5), [SQUARE * 0.3]),
    "matrix_power_negative": (lambda a: L.matrix_power(a, -3), [SQUARE]),
    "cross": (lambda a, b: L.cross(a, b, axis=1), [_rand(2, 3, 2), _rand(2, 3, 2)]),
    "vecdot": (lambda a, b: L.vecdot(a, b), [_rand(2, 3), _rand(3)]),
    "cond": (L.cond, [_rand(2, 4, 3)]),
    "cond_fro": (lambda a: L.cond(a, p="fro"), [SQUARE]),
    "cov_weighted": (
        lambda a, w: L.cov(a, fweights=framework.to_tensor(np.array([1, 2, 1, 3])), aweights=w),
        [_rand(2, 4), np.array([0.5, 1.0, 2.0, 1.5])],
    ),
    "corrcoef": (L.corrcoef, [_rand(3, 5)]),
    "matrix_exp": (L.matrix_exp, [SQUARE * 0.2]),
    "matrix_exp_squared": (L.matrix_exp, [SQUARE * 3]),
    "householder_product": (L.householder_product, [_rand(2, 4, 3), _rand(2, 3)]),
    "ormqr": (
        lambda a, t, y: L.ormqr(a, t, y, transpose=True),
        [_rand(4, 3), _rand(3), _rand(4, 2)],
    ),
    "svd_lowrank": (
        lambda a, b: L.svd_lowrank(a @ b, q=2)[1],
        [_rand(5, 2), _rand(2, 4)],
    ),
    "kron": (framework.kron, [_rand(2, 3), _rand(2, 2)]),
    "inner": (framework.inner, [_rand(2, 3), _rand(4, 3)]),
    "tensordot": (lambda a, b: framework.tensordot(a, b, [[1], [0]]), [_rand(2, 3), _rand(3, 2)]),
    "addmm": (framework.addmm, [_rand(2, 1), _rand(2, 3), _rand(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_central_differences(name):
    fn, inputs = CASES[name]
    check_backward(fn, inputs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivatives_match_central_differences(name):
    fn, inputs = CASES[name]
    check_double_backward(fn, inputs)


def _t(a):
    return framework.to_tensor(a)


def test_inverse_det_and_solves_match_numpy():
    np.testing.assert_allclose(L.inv(_t(SQUARE)).numpy(), np.linalg.inv(SQUARE), rtol=1e-12)
    np.testing.assert_allclose(L.det(_t(SQUARE)).numpy(), np.linalg.det(SQUARE), rtol=1e-12)
    sign, logabs = np.linalg.slogdet(SQUARE)
    np.testing.assert_allclose(L.slogdet(_t(SQUARE)).numpy(), [sign, logabs], rtol=1e-12)
    expected = np.linalg.solve(SQUARE, RHS)
    np.testing.assert_allclose(L.solve(_t(SQUARE), _t(RHS)).numpy(), expected, rtol=1e-12)
    upper = np.triu(SQUARE)
    got = L.triangular_solve(_t(SQUARE), _t(RHS)).numpy()
    np.testing.assert_allclose(got, np.linalg.solve(upper, RHS), rtol=1e-12)
    unit_lower_t = (np.tril(SQUARE, -1) + np.eye(3)).transpose(0, 2, 1)
    got = L.triangular_solve(_t(SQUARE), _t(RHS), upper=False, transpose=True, unitriangular=True)
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(unit_lower_t, RHS), rtol=1e-12)
    factor = np.linalg.cholesky(SPD)
    got = L.cholesky_solve(_t(RHS), _t(factor)).numpy()
    np.testing.assert_allclose(got, np.linalg.solve(SPD, RHS), rtol=1e-10)
    got = L.cholesky_inverse(_t(factor)).numpy()
    np.testing.assert_allclose(got, np.linalg.inv(SPD), rtol=1e-10)


def test_decompositions_reconstruct_their_input():
    np.testing.assert_allclose(L.cholesky(_t(SPD)).numpy(), np.linalg.cholesky(SPD), rtol=1e-12)
    upper = L.cholesky(_t(SPD), upper=True).numpy()
    np.testing.assert_allclose(upper.transpose(0, 2, 1) @ upper, SPD, rtol=1e-12)
    for a in (_rand(2, 4, 3), _rand(3, 5)):
        q, r = (t.numpy() for t in L.qr(_t(a)))
        np.testing.assert_allclose(q @ r, a, atol=1e-12)
        np.testing.assert_allclose(r, np.triu(r))
        q, r = (t.numpy() for t in L.qr(_t(a), mode="complete"))
        assert q.shape[-1] == q.shape[-2] == a.shape[-2]
        np.testing.assert_allclose(q @ r, a, atol=1e-12)
        u, s, vh = (t.numpy() for t in L.svd(_t(a)))
        np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-12)
        np.testing.assert_allclose((u * s[..., None, :]) @ vh, a, atol=1e-12)
    w, v = (t.numpy() for t in L.eigh(_t(SPD)))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(SPD), rtol=1e-12)
    np.testing.assert_allclose((v * w[..., None, :]) @ v.transpose(0, 2, 1), SPD, atol=1e-12)
    w, v = (t.numpy() for t in L.eig(_t(SQUARE)))
    assert w.dtype == v.dtype == np.complex128
    np.testing.assert_allclose(SQUARE @ v, v * w[..., None, :], atol=1e-12)
    assert L.eigvals(_t(SQUARE.astype(np.float32))).numpy().dtype == np.complex64


@pytest.mark.parametrize("shape", [(2, 3, 3), (4, 3), (3, 5), (2, 5, 2)])
def test_lu_is_partial_pivoting_lu(shape):
    a = _rand(*shape)
    packed, pivots, infos = L.lu(_t(a), get_infos=True)
    p, lower, upper = (t.numpy() for t in L.lu_unpack(packed, pivots))
    np.testing.assert_allclose(p @ lower @ upper, a, atol=1e-12)
    assert np.all(np.abs(lower) <= 1 + 1e-12)  # partial pivoting picks the largest magnitude
    assert pivots.numpy().dtype == np.int32 and infos.numpy().dtype == np.int32
    assert not infos.numpy().any()


def test_lu_reports_the_first_zero_pivot():
    _, _, infos = L.lu(
        _t(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]])), True, True
    )
    assert infos.item() == 2


def test_pinv_lstsq_and_rank_match_numpy():
    a = _rand(2, 4, 3)
    np.testing.assert_allclose(L.pinv(_t(a)).numpy(), np.linalg.pinv(a), rtol=1e-10)
    deficient = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    np.testing.assert_allclose(L.pinv(_t(deficient)).numpy(), np.linalg.pinv(deficient))
    b = _rand(4, 2)
    solution, residuals, rank, values = L.lstsq(_t(a[0]), _t(b), driver="gelsd")
    expected = np.linalg.lstsq(a[0], b, rcond=None)
    np.testing.assert_allclose(solution.numpy(), expected[0], rtol=1e-10)
    np.testing.assert_allclose(residuals.numpy(), expected[1], rtol=1e-10)
    assert rank.item() == expected[2] and rank.numpy().dtype == np.int32
    np.testing.assert_allclose(values.numpy(), expected[3], rtol=1e-12)
    assert L.matrix_rank(_t(deficient)).item() == 1
    ranks = L.matrix_rank(_t(a)).numpy()
    np.testing.assert_array_equal(ranks, np.linalg.matrix_rank(a))
    assert ranks.dtype == np.int64


def test_spectral_and_nuclear_norms_match_numpy():
    a = _rand(2, 4, 3)
    for p in ("nuc", 2, -2):
        np.testing.assert_allclose(
            L.matrix_norm(_t(a), p=p).numpy(), np.linalg.norm(a, ord=p, axis=(1, 2)), rtol=1e-12
        )
    np.testing.assert_allclose(
        L.norm(_t(a), p="nuc", axis=[0, 2]).numpy(), np.linalg.norm(a, "nuc", axis=(0, 2))
    )


def test_products_match_numpy():
    a, b, c = _rand(3), _rand(3, 4), _rand(4, 2)
    np.testing.assert_allclose(L.multi_dot([_t(a), _t(b), _t(c)]).numpy(), a @ b @ c)
    np.testing.assert_allclose(
        L.matrix_power(_t(SQUARE), -3).numpy(), np.linalg.matrix_power(SQUARE, -3), rtol=1e-10
    )
    x, y = _rand(4, 3), _rand(4, 3)
    np.testing.assert_allclose(L.cross(_t(x), _t(y)).numpy(), np.cross(x, y, axis=1))
    np.testing.assert_allclose(framework.kron(_t(b), _t(c)).numpy(), np.kron(b, c))
    np.testing.assert_allclose(framework.inner(_t(x), _t(y)).numpy(), np.inner(x, y))
    np.testing.assert_allclose(
        framework.tensordot(_t(x), _t(y), [[0], [0]]).numpy(), np.tensordot(x, y, ([0], [0]))
    )


def test_statistics_and_matrix_functions_match_numpy():
    x = _rand(3, 6)
    fw, aw = np.array([1, 2, 1, 3, 1, 2]), np.array([0.5, 1.0, 2.0, 1.5, 1.0, 0.2])
    got = L.cov(_t(x), fweights=framework.to_tensor(fw), aweights=_t(aw)).numpy()
    np.testing.assert_allclose(got, np.cov(x, fweights=fw, aweights=aw), rtol=1e-12)
    np.testing.assert_allclose(
        L.cov(_t(x), rowvar=False, ddof=False).numpy(), np.cov(x, rowvar=False, ddof=0), rtol=1e-12
    )
    np.testing.assert_allclose(L.corrcoef(_t(x)).numpy(), np.corrcoef(x), rtol=1e-12)
    np.testing.assert_allclose(L.cond(_t(SQUARE), p=1).numpy(), np.linalg.cond(SQUARE, 1))
    # exp(A) for A = V diag(w) V^T is V diag(exp(w)) V^T.
    w, v = np.linalg.eigh(SPD)
    expected = (v * np.exp(w / 4)[..., None, :]) @ v.transpose(0, 2, 1)
    np.testing.assert_allclose(L.matrix_exp(_t(SPD / 4)).numpy(), expected, rtol=1e-12)


def test_householder_product_rebuilds_q_from_lapack_reflectors():
    # The reflectors of a QR decomposition, built here by hand: H = I - tau w w^T maps the
    # column onto a multiple of e_1.
    a = _rand(4, 3)
    reflectors, taus, r = np.zeros_like(a), np.zeros(3), a.copy()
    for j in range(3):
        col = r[j:, j]
        alpha = -np.sign(col[0]) * np.linalg.norm(col)
        w = col.copy()
        w[0] -= alpha
        w /= w[0]
        tau = 2 / (w @ w)
        r[j:] -= tau * np.outer(w, w @ r[j:])
        reflectors[j + 1 :, j], taus[j] = w[1:], tau
    q = L.householder_product(_t(reflectors), _t(taus)).numpy()
    np.testing.assert_allclose(q @ np.triu(r[:3]), a, atol=1e-12)
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-12)


def test_low_rank_svd_and_pca_recover_a_low_rank_matrix():
    framework.seed(1)
    a = _rand(2, 8, 3) @ _rand(2, 3, 6)
    u, s, v = L.svd_lowrank(_t(a), q=3)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False)[:, :3], rtol=1e-10)
    np.testing.assert_allclose(
        (u.numpy() * s.numpy()[:, None]) @ v.numpy().transpose(0, 2, 1), a, atol=1e-10
    )
    u, s, v = L.pca_lowrank(_t(a[0]), q=3)
    centered = a[0] - a[0].mean(axis=0)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(centered, compute_uv=False)[:3], rtol=1e-10)
