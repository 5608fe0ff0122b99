"""paddle.linalg parity: the same calls give the same values, shapes, dtypes and gradients in
PaddlePaddle (the API this framework mirrors).

Each case maps the module (`framework` or `paddle`) and input tensors to an output. Outputs
that are unique only up to sign (eigenvectors, singular vectors, Q) enter as sign-free
products. Gradients are of `sum(output * w)` for a fixed random `w`.
"""

from __future__ import annotations

import numpy as np
import pytest

import framework

RNG = np.random.default_rng(7)
SQUARE = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
RHS = RNG.standard_normal((2, 3, 2))
TALL_RHS = RNG.standard_normal((4, 2))
TALL = RNG.standard_normal((2, 4, 3))
WIDE = RNG.standard_normal((3, 5))
_G = RNG.standard_normal((2, 3, 3))
SPD = _G @ _G.transpose(0, 2, 1) + 3 * np.eye(3)


def _sym(t):
    return (t + t.transpose([0, 2, 1])) * 0.5


def _lin(m):
    return m.linalg


CASES = {
    "inv": (lambda m, a: _lin(m).inv(a), [SQUARE]),
    "det": (lambda m, a: _lin(m).det(a), [SQUARE]),
    "slogdet": (lambda m, a: _lin(m).slogdet(a), [SQUARE]),
    "solve": (lambda m, a, b: _lin(m).solve(a, b), [SQUARE, RHS]),
    "solve_broadcast": (lambda m, a, b: _lin(m).solve(a, b), [SQUARE[0], RHS]),
    "solve_vector": (lambda m, a, b: _lin(m).solve(a, b), [SQUARE[0], RHS[0, :, 0]]),
    "solve_right": (
        lambda m, a, b: _lin(m).solve(a, b.transpose([0, 2, 1]), left=False),
        [SQUARE, RHS],
    ),
    "triangular_solve_upper": (lambda m, a, b: _lin(m).triangular_solve(a, b), [SQUARE, RHS]),
    "triangular_solve_lower_t_unit": (
        lambda m, a, b: _lin(m).triangular_solve(
            a, b, upper=False, transpose=True, unitriangular=True
        ),
        [SQUARE, RHS],
    ),
    "cholesky": (lambda m, a: _lin(m).cholesky(_sym(a)), [SPD]),
    "cholesky_upper": (lambda m, a: _lin(m).cholesky(_sym(a), upper=True), [SPD]),
    "cholesky_solve": (lambda m, b, u: _lin(m).cholesky_solve(b, m.tril(u)), [RHS, SPD]),
    "cholesky_solve_upper": (
        lambda m, b, u: _lin(m).cholesky_solve(b, m.triu(u), upper=True),
        [RHS, SPD],
    ),
    "cholesky_inverse": (lambda m, a: _lin(m).cholesky_inverse(m.tril(a)), [SPD[0]]),
    "qr_r": (lambda m, a: _lin(m).qr(a, mode="r").abs(), [TALL]),
    "qr_reduced_product": (lambda m, a: m.matmul(*_lin(m).qr(a)), [TALL]),
    "qr_q_squared": (lambda m, a: [q**2 for q in _lin(m).qr(a)], [TALL]),
    "qr_wide_r": (lambda m, a: _lin(m).qr(a)[1].abs(), [WIDE]),
    "qr_wide_q_squared": (lambda m, a: [q**2 for q in _lin(m).qr(a)], [WIDE]),
    "eigh_values": (lambda m, a: _lin(m).eigh(_sym(a))[0], [TALL[:, :3]]),
    "eigh_upper_values": (lambda m, a: _lin(m).eigh(a, UPLO="U")[0], [TALL[:, :3]]),
    "eigh_vectors_squared": (lambda m, a: _lin(m).eigh(_sym(a))[1] ** 2, [TALL[:, :3]]),
    "eigvalsh": (lambda m, a: _lin(m).eigvalsh(_sym(a)), [TALL[:, 1:]]),
    "svd_values": (lambda m, a: _lin(m).svd(a)[1], [TALL]),
    "svd_u_squared": (lambda m, a: _lin(m).svd(a)[0] ** 2, [TALL]),
    "svd_vh_squared_wide": (lambda m, a: _lin(m).svd(a)[2] ** 2, [WIDE]),
    "svd_full_shapes": (lambda m, a: _lin(m).svd(a, full_matrices=True)[1], [WIDE]),
    "svdvals": (lambda m, a: _lin(m).svdvals(a), [WIDE]),
    "pinv": (lambda m, a: _lin(m).pinv(a), [TALL]),
    "pinv_hermitian": (lambda m, a: _lin(m).pinv(_sym(a), hermitian=True), [SPD]),
    "lstsq_solution": (lambda m, a, b: _lin(m).lstsq(a, b)[0], [TALL[0], TALL_RHS]),
    "lu_packed": (lambda m, a: _lin(m).lu(a)[0], [SQUARE]),
    "lu_pivots": (lambda m, a: _lin(m).lu(a)[1], [SQUARE]),
    "lu_wide": (lambda m, a: _lin(m).lu(a)[0], [WIDE]),
    "lu_unpack": (lambda m, a: _lin(m).lu_unpack(*_lin(m).lu(a)), [TALL]),
    "lu_solve": (lambda m, a, b: _lin(m).lu_solve(b, *_lin(m).lu(a)), [SQUARE, RHS]),
    "lu_solve_t": (lambda m, a, b: _lin(m).lu_solve(b, *_lin(m).lu(a), trans="T"), [SQUARE, RHS]),
    "matrix_rank": (lambda m, a: _lin(m).matrix_rank(a), [np.array([[1.0, 2.0], [2.0, 4.0]])]),
    "matrix_rank_hermitian_tol": (
        lambda m, a: _lin(m).matrix_rank(a, tol=2.5, hermitian=True),
        [SPD],
    ),
    "matrix_rank_atol_rtol": (
        lambda m, a: _lin(m).matrix_rank(a, atol=0.5, rtol=0.3),
        [TALL],
    ),
    "matrix_norm_nuc": (lambda m, a: _lin(m).matrix_norm(a, p="nuc"), [TALL]),
    "matrix_norm_2_keepdim": (lambda m, a: _lin(m).matrix_norm(a, p=2, keepdim=True), [TALL]),
    "matrix_norm_minus2_axes": (lambda m, a: _lin(m).matrix_norm(a, p=-2, axis=[0, 2]), [TALL]),
    "matrix_norm_inf": (lambda m, a: _lin(m).matrix_norm(a, p=np.inf), [TALL]),
    "norm_nuc": (lambda m, a: _lin(m).norm(a, p="nuc", axis=[1, 2]), [TALL]),
    "vector_norm": (lambda m, a: _lin(m).vector_norm(a, p=3, axis=[0, 2]), [TALL]),
    "multi_dot": (
        lambda m, a, b, c: _lin(m).multi_dot([a[0, 0], b, c, a[1, :, 0]]),
        [TALL, SQUARE[0], WIDE[:, :4]],
    ),
    "matrix_power_3": (lambda m, a: _lin(m).matrix_power(a, 3), [SQUARE]),
    "matrix_power_minus_2": (lambda m, a: _lin(m).matrix_power(a, -2), [SQUARE]),
    "matrix_power_0": (lambda m, a: _lin(m).matrix_power(a, 0), [SQUARE]),
    "matrix_transpose": (lambda m, a: _lin(m).matrix_transpose(a), [TALL]),
    "vecdot": (lambda m, a, b: _lin(m).vecdot(a, b, axis=1), [TALL[:, :3], SQUARE]),
    "cross_default_axis": (lambda m, a, b: _lin(m).cross(a, b), [TALL[:, :3], SQUARE]),
    "cross_axis": (lambda m, a, b: m.cross(a, b, axis=2), [TALL[:, :3], SQUARE]),
    "cond_2": (lambda m, a: _lin(m).cond(a), [TALL]),
    "cond_minus_2": (lambda m, a: _lin(m).cond(a, p=-2), [WIDE]),
    "cond_fro": (lambda m, a: _lin(m).cond(a, p="fro"), [SQUARE]),
    "cond_nuc": (lambda m, a: _lin(m).cond(a, p="nuc"), [SQUARE]),
    "cond_inf": (lambda m, a: _lin(m).cond(a, p=np.inf), [SQUARE]),
    "cond_minus_1": (lambda m, a: _lin(m).cond(a, p=-1), [SQUARE]),
    "cov": (lambda m, a: _lin(m).cov(a), [WIDE]),
    "cov_columns_biased": (lambda m, a: _lin(m).cov(a, rowvar=False, ddof=False), [WIDE]),
    "cov_weights": (
        lambda m, a: _lin(m).cov(
            a,
            fweights=m.to_tensor(np.array([1, 2, 1, 3, 1])),
            aweights=m.to_tensor(np.array([0.5, 1.0, 2.0, 1.0, 0.25])),
        ),
        [WIDE],
    ),
    "cov_vector": (lambda m, a: _lin(m).cov(a), [WIDE[0]]),
    "corrcoef": (lambda m, a: _lin(m).corrcoef(a), [WIDE]),
    "corrcoef_columns": (lambda m, a: _lin(m).corrcoef(a, rowvar=False), [TALL[0]]),
    "matrix_exp": (lambda m, a: _lin(m).matrix_exp(a), [SQUARE * 0.3]),
    "matrix_exp_scaled": (lambda m, a: _lin(m).matrix_exp(a), [SQUARE * 2]),
    "householder_product": (lambda m, a, t: _lin(m).householder_product(a, t), [TALL, TALL[:, 0]]),
    "ormqr_left": (lambda m, a, t, y: _lin(m).ormqr(a, t, y), [SQUARE, TALL[:, 0], RHS]),
    "ormqr_left_t": (
        lambda m, a, t, y: _lin(m).ormqr(a, t, y, transpose=True),
        [TALL, TALL[:, 0], TALL],
    ),
    "ormqr_right_t": (
        lambda m, a, t, y: _lin(m).ormqr(a, t, y, left=False, transpose=True),
        [SQUARE, TALL[:, 0], TALL],
    ),
    "kron": (lambda m, a, b: m.kron(a, b), [SQUARE[0], TALL[0, :2]]),
    "kron_ranks": (lambda m, a, b: m.kron(a, b), [TALL, WIDE[0]]),
    "inner": (lambda m, a, b: m.inner(a, b), [TALL, SQUARE]),
    "mv": (lambda m, a, b: m.mv(a, b), [TALL[0], SQUARE[0, 0]]),
    "tensordot_int": (lambda m, a, b: m.tensordot(a, b, 2), [TALL, TALL[0]]),
    "tensordot_lists": (lambda m, a, b: m.tensordot(a, b, [[0, 2], [0, 1]]), [TALL, RHS]),
    "addmm": (
        lambda m, c, a, b: m.addmm(c, a, b, beta=0.5, alpha=2.0),
        [RHS[0], SQUARE[0], RHS[1]],
    ),
    "baddbmm": (lambda m, c, a, b: m.baddbmm(c, a, b, beta=-1.0, alpha=0.5), [RHS, SQUARE, RHS]),
}


def _tensors(m, arrays, grad):
    tensors = [m.to_tensor(a) for a in arrays]
    for t in tensors:
        t.stop_gradient = not grad
    return tensors


def _as_list(result) -> list:
    return [r for r in result if r is not None] if isinstance(result, list | tuple) else [result]


def _run(m, name):
    fn, arrays = CASES[name]
    inputs = _tensors(m, arrays, grad=True)
    outputs = _as_list(fn(m, *inputs))
    # One weight per float output, drawn in order, so both sides weight each output alike
    # even where one marks an output (lu_unpack's P) as differentiable and the other not.
    rng = np.random.default_rng(0)
    weighted = [(o, rng.standard_normal(o.shape)) for o in outputs if o.numpy().dtype.kind == "f"]
    terms = [(o * m.to_tensor(w)).sum() for o, w in weighted if not o.stop_gradient]
    if not terms:
        return outputs, []
    return outputs, m.grad(sum(terms), inputs, allow_unused=True)


# Cases whose gradients are compared with central differences only (test_linalg_gradients.py):
# where Paddle 3.3's gradient disagrees with them (ours agree), or Paddle has none (its qr
# mode='r' raises, its lstsq result has stop_gradient=True, and its QR backward crashes the
# process when only R of a wide matrix is used).
VALUES_ONLY = {
    "eigh_values": "Paddle's batched eigh gradient is wrong beyond the first matrix",
    "eigh_upper_values": "Paddle's batched eigh gradient is wrong beyond the first matrix",
    "eigvalsh": "Paddle's batched eigh gradient is wrong beyond the first matrix",
    "pinv_hermitian": "Paddle's batched eigh gradient is wrong beyond the first matrix",
    "lu_solve_t": "Paddle's lu_solve(trans='T') gradient in the factors is wrong",
    "triangular_solve_lower_t_unit": "Paddle's gradient in x is wrong for this triangle",
    "householder_product": "Paddle's householder_product backward fails (an in-place write)",
    "ormqr_left": "Paddle's householder_product backward fails (an in-place write)",
    "ormqr_left_t": "Paddle's householder_product backward fails (an in-place write)",
    "ormqr_right_t": "Paddle's householder_product backward fails (an in-place write)",
    "qr_r": "Paddle does not differentiate qr(mode='r')",
    "qr_wide_r": "Paddle's QR backward segfaults without a Q gradient",
    "lstsq_solution": "Paddle's lstsq is not differentiable",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_values_dtypes_and_gradients_as_paddle(name):
    paddle = pytest.importorskip("paddle")
    ours, our_grads = _run(framework, name)
    theirs, their_grads = _run(paddle, name) if name not in VALUES_ONLY else (None, None)
    if name in VALUES_ONLY:
        theirs = _as_list(CASES[name][0](paddle, *_tensors(paddle, CASES[name][1], grad=False)))
    assert len(ours) == len(theirs), name
    for a, b in zip(ours, theirs, strict=True):
        expected = b.numpy()
        assert a.shape == list(expected.shape), name
        assert a.numpy().dtype == expected.dtype, name
        np.testing.assert_allclose(a.numpy(), expected, rtol=1e-7, atol=1e-10, err_msg=name)
    if name in VALUES_ONLY:
        return
    assert len(our_grads) == len(their_grads)
    for a, b in zip(our_grads, their_grads, strict=True):
        if b is None:
            assert a is None or not np.any(a.numpy()), name
            continue
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-7, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("name", ["inv", "det", "cholesky", "svd_values", "lu_packed", "qr_r"])
def test_float32_results_stay_float32_as_in_paddle(name):
    paddle = pytest.importorskip("paddle")
    fn, arrays = CASES[name]
    ours = _as_list(fn(framework, *[framework.to_tensor(a.astype(np.float32)) for a in arrays]))
    theirs = _as_list(fn(paddle, *[paddle.to_tensor(a.astype(np.float32)) for a in arrays]))
    for a, b in zip(ours, theirs, strict=True):
        assert a.numpy().dtype == b.numpy().dtype
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5)


def test_low_rank_svd_and_pca_agree_with_paddle_on_a_low_rank_matrix():
    paddle = pytest.importorskip("paddle")
    a = TALL @ RNG.standard_normal((2, 3, 6))  # rank 3
    for m in (framework, paddle):
        m.seed(0)
    ours = framework.linalg.svd_lowrank(framework.to_tensor(a), q=3)
    theirs = paddle.linalg.svd_lowrank(paddle.to_tensor(a), q=3)
    assert [t.shape for t in ours] == [list(t.shape) for t in theirs]
    np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-9)
    ours = framework.linalg.pca_lowrank(framework.to_tensor(a[0]))
    theirs = paddle.linalg.pca_lowrank(paddle.to_tensor(a[0]))
    assert [t.shape for t in ours] == [list(t.shape) for t in theirs]
    np.testing.assert_allclose(ours[1].numpy()[:3], theirs[1].numpy()[:3], rtol=1e-9)
