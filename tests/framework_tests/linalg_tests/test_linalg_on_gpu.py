"""paddle.linalg on a GPU (CuPy's linalg) gives what it gives on the CPU, forward and
gradients. Run by `make gpu-check`; skipped where no CUDA GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import framework

pytestmark = pytest.mark.gpu

L = framework.linalg
RNG = np.random.default_rng(5)
SQUARE = RNG.standard_normal((2, 4, 4)) + 4 * np.eye(4)
RHS = RNG.standard_normal((2, 4, 3))
_G = RNG.standard_normal((2, 4, 4))
SPD = _G @ _G.transpose(0, 2, 1) + 4 * np.eye(4)
HERMITIAN = SPD + 1j * (_G - _G.transpose(0, 2, 1))


def _sym(t):
    return (t + t.mT) * 0.5


OPS = {
    "inv": (L.inv, [SQUARE]),
    "det_slogdet": (lambda a: L.det(a) + L.slogdet(a)[1], [SQUARE]),
    "solve": (L.solve, [SQUARE, RHS]),
    "triangular_solve": (lambda a, b: L.triangular_solve(a, b, upper=False), [SQUARE, RHS]),
    "cholesky": (lambda a: L.cholesky(_sym(a)), [SPD]),
    "qr": (lambda a: [t * t for t in L.qr(a)], [RHS]),
    "eigh": (lambda a: L.eigvalsh(_sym(a)), [SPD]),
    "eigh_complex": (
        lambda a: [w * w for w in L.eigh((a + framework.conj(a).mT) * 0.5)[:1]],
        [HERMITIAN],
    ),
    "svd": (L.svdvals, [RHS]),
    "pinv": (L.pinv, [RHS]),
    "lu": (lambda a: L.lu(a)[0], [SQUARE]),
    "matrix_exp": (L.matrix_exp, [SQUARE * 0.5]),
    "matrix_rank_and_norms": (
        lambda a: L.matrix_norm(a, "nuc") * L.matrix_rank(a).astype("float64"),
        [RHS],
    ),
}


@pytest.fixture
def on_gpu():
    framework.set_device("gpu")
    yield
    framework.set_device("cpu")


def _run(fn, arrays, device):
    inputs = [framework.to_tensor(a, place=device, stop_gradient=False) for a in arrays]
    outputs = fn(*inputs)
    outputs = outputs if isinstance(outputs, list) else [outputs]
    loss = sum(o.sum() for o in outputs)
    grads = framework.grad(loss, inputs)
    return [o.numpy() for o in outputs], [g.numpy() for g in grads], outputs[0].place


@pytest.mark.parametrize("name", sorted(OPS))
def test_linalg_on_gpu_matches_cpu(name, on_gpu):
    fn, arrays = OPS[name]
    cpu_out, cpu_grads, _ = _run(fn, arrays, "cpu")
    gpu_out, gpu_grads, place = _run(fn, arrays, "gpu")
    assert place.is_gpu_place()
    for a, b in zip(gpu_out + gpu_grads, cpu_out + cpu_grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9)


def test_eig_says_it_needs_the_cpu(on_gpu):
    with pytest.raises(NotImplementedError, match="CPU"):
        L.eig(framework.to_tensor(SQUARE, place="gpu"))
