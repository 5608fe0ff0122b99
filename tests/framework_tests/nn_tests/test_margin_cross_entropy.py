"""F.margin_cross_entropy: a NumPy reference (ArcFace, CosFace, SphereFace margins), gradients
of two orders, reductions and errors. Paddle has no CPU kernel for it, so no Paddle run."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)
COS = RNG.uniform(-0.9, 0.9, (4, 6))
LABEL = np.array([1, 3, 0, 5])
MARGINS = [
    (1.0, 0.5, 0.0, 64.0),
    (1.0, 0.0, 0.35, 30.0),
    (1.35, 0.0, 0.0, 10.0),
    (0.9, 0.2, 0.1, 4.0),
]


def _numpy_loss(cos, label, m1, m2, m3, s):
    logits = cos.copy()
    rows = np.arange(len(label))
    logits[rows, label] = np.cos(m1 * np.arccos(cos[rows, label]) + m2) - m3
    logits = logits * s
    logits = logits - logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -logp[rows, label][:, None], np.exp(logp)


@pytest.mark.parametrize("margins", MARGINS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_it_matches_a_numpy_reference(margins, dtype):
    m1, m2, m3, s = margins
    loss, soft = F.margin_cross_entropy(
        framework.to_tensor(COS.astype(dtype)),
        framework.to_tensor(LABEL),
        m1,
        m2,
        m3,
        s,
        return_softmax=True,
        reduction=None,
    )
    want, want_soft = _numpy_loss(COS, LABEL, *margins)
    assert loss.dtype == soft.dtype == np.dtype(dtype) and list(loss.shape) == [4, 1]
    tol = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(loss.numpy(), want, rtol=tol, atol=tol)
    np.testing.assert_allclose(soft.numpy(), want_soft, rtol=tol, atol=tol)


def test_reductions_and_label_shapes():
    cos, label = framework.to_tensor(COS), framework.to_tensor(LABEL)
    per_row = F.margin_cross_entropy(cos, label, reduction=None).numpy()
    assert F.margin_cross_entropy(cos, label).shape == []
    np.testing.assert_allclose(F.margin_cross_entropy(cos, label).numpy(), per_row.mean())
    np.testing.assert_allclose(
        F.margin_cross_entropy(cos, label, reduction="sum").numpy(), per_row.sum()
    )
    column = framework.to_tensor(LABEL[:, None])
    np.testing.assert_allclose(F.margin_cross_entropy(cos, column, reduction=None).numpy(), per_row)


@pytest.mark.parametrize("margins", MARGINS[1:])
def test_gradients_match_central_differences(margins):
    m1, m2, m3, s = margins
    label = framework.to_tensor(LABEL)

    def loss(cos):
        return F.margin_cross_entropy(cos, label, m1, m2, m3, s, reduction=None)

    check_backward(loss, [COS])
    check_double_backward(loss, [COS])


def test_it_rejects_bad_arguments():
    cos, label = framework.to_tensor(COS), framework.to_tensor(LABEL)
    with pytest.raises(ValueError, match="'reduction' in margin_cross_entropy"):
        F.margin_cross_entropy(cos, label, reduction="max")
    with pytest.raises(ValueError, match="label must be"):
        F.margin_cross_entropy(cos, framework.to_tensor(LABEL[:3]))
    with pytest.raises(NotImplementedError, match="model-parallel"):
        F.margin_cross_entropy(cos, label, group=object())
