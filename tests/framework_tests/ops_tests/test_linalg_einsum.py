"""einsum against numpy.einsum, with first and second order gradients."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("ij,jk", [(2, 3), (3, 2)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("i,j->ij", [(3,), (2,)]),
    ("i,i->", [(4,), (4,)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->j", [(2, 2, 3)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 2)]),
    ("b...d,bkd->b...k", [(2, 3, 4), (2, 2, 4)]),
    ("bhqd,bhkd->bhqk", [(1, 2, 3, 2), (1, 2, 2, 2)]),
    ("i,ij,j->", [(2,), (2, 3), (3,)]),
    ("ij,kj->ikj", [(2, 0), (3, 0)]),
]


def _arrays(shapes, dtype=np.float64):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


@pytest.mark.parametrize("equation,shapes", CASES, ids=[c[0] for c in CASES])
def test_einsum_matches_numpy(equation, shapes):
    arrays = _arrays(shapes)
    got = framework.einsum(equation, *[framework.to_tensor(a) for a in arrays])
    expected = np.einsum(equation, *arrays)
    assert got.shape == list(expected.shape)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("equation,shapes", CASES, ids=[c[0] for c in CASES])
def test_einsum_gradients_first_and_second_order(equation, shapes):
    arrays = _arrays(shapes)
    check_backward(lambda *ts: framework.einsum(equation, *ts), arrays)
    if all(a.size for a in arrays):
        check_double_backward(lambda *ts: framework.einsum(equation, *ts) * 1.0, arrays)


@pytest.mark.parametrize("equation,shapes", CASES[:14], ids=[c[0] for c in CASES[:14]])
def test_einsum_matches_torch_in_float32(equation, shapes):
    torch = pytest.importorskip("torch")
    arrays = _arrays(shapes, np.float32)
    ours = [framework.to_tensor(a, stop_gradient=False) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    y = framework.einsum(equation, *ours)
    yt = torch.einsum(equation, *theirs)
    g = np.random.default_rng(1).standard_normal(y.shape).astype(np.float32)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-5)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_einsum_errors():
    with pytest.raises(ValueError, match="2 operands"):
        framework.einsum("ij,jk->ik", framework.ones([2, 2]))
    with pytest.raises(ValueError, match="has sizes 3 and 4"):
        framework.einsum("ij,jk->ik", framework.ones([2, 3]), framework.ones([4, 2]))
    with pytest.raises(TypeError, match="one dtype"):
        framework.einsum("i,i->", framework.ones([2]), framework.ones([2], dtype="float64"))
