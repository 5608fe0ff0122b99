"""Margin, embedding and likelihood losses, pairwise_distance and label_smooth: PyTorch (and
Paddle) parity, float64 gradient checks of first and second order, layers."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
A = rng.standard_normal((5, 4))
B = rng.standard_normal((5, 4))
C = rng.standard_normal((5, 4))
SIGNS = np.array([1.0, -1.0, 1.0, 1.0, -1.0])
BITS = (rng.uniform(size=(5, 4)) > 0.5).astype(np.float64)
COUNTS = rng.integers(0, 6, (5, 4)).astype(np.float64)
VARIANCE = rng.uniform(0.2, 2.0, (5, 4))


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def cases(torch):
    tf = torch.nn.functional
    return {
        "margin_ranking": (
            lambda a, b: F.margin_ranking_loss(a, b, tensor(SIGNS[:, None] * np.ones(4)), 0.3),
            lambda a, b: tf.margin_ranking_loss(
                a, b, torch.tensor(SIGNS[:, None] * np.ones(4)), 0.3
            ),
            [A, B],
        ),
        "hinge_embedding": (
            lambda a: F.hinge_embedding_loss(a, tensor(SIGNS[:, None] * np.ones(4)), 0.5),
            lambda a: tf.hinge_embedding_loss(a, torch.tensor(SIGNS[:, None] * np.ones(4)), 0.5),
            [A],
        ),
        "cosine_embedding": (
            lambda a, b: F.cosine_embedding_loss(a, b, tensor(SIGNS), 0.2, "sum"),
            lambda a, b: tf.cosine_embedding_loss(a, b, torch.tensor(SIGNS), 0.2, reduction="sum"),
            [A, B],
        ),
        "triplet": (
            lambda a, b, c: F.triplet_margin_loss(a, b, c, margin=0.5),
            lambda a, b, c: tf.triplet_margin_loss(a, b, c, margin=0.5),
            [A, B, C],
        ),
        "triplet_swap_p1": (
            lambda a, b, c: F.triplet_margin_loss(a, b, c, p=1, swap=True, reduction="none"),
            lambda a, b, c: tf.triplet_margin_loss(a, b, c, p=1, swap=True, reduction="none"),
            [A, B, C],
        ),
        "soft_margin": (
            lambda a: F.soft_margin_loss(a, tensor(np.sign(B))),
            lambda a: tf.soft_margin_loss(a, torch.tensor(np.sign(B))),
            [A],
        ),
        "multi_label_soft_margin": (
            lambda a: F.multi_label_soft_margin_loss(a, tensor(BITS), tensor(VARIANCE[0])),
            lambda a: tf.multilabel_soft_margin_loss(
                a, torch.tensor(BITS), torch.tensor(VARIANCE[0])
            ),
            [A],
        ),
        "poisson_log_input": (
            lambda a: F.poisson_nll_loss(a, tensor(COUNTS), full=True),
            lambda a: tf.poisson_nll_loss(a, torch.tensor(COUNTS), full=True),
            [A],
        ),
        "poisson_rate": (
            lambda v: F.poisson_nll_loss(v, tensor(COUNTS), log_input=False, reduction="sum"),
            lambda v: tf.poisson_nll_loss(
                v, torch.tensor(COUNTS), log_input=False, reduction="sum"
            ),
            [VARIANCE],
        ),
        "gaussian": (
            lambda a, v: F.gaussian_nll_loss(a, tensor(B), v, full=True),
            lambda a, v: tf.gaussian_nll_loss(a, torch.tensor(B), v, full=True),
            [A, VARIANCE],
        ),
        "gaussian_per_sample_variance": (
            lambda a, v: F.gaussian_nll_loss(a, tensor(B), v, reduction="none"),
            lambda a, v: tf.gaussian_nll_loss(a, torch.tensor(B), v, reduction="none"),
            [A, VARIANCE[:, 0]],
        ),
        "pairwise_distance": (
            lambda a, b: F.pairwise_distance(a, b, p=3.0, keepdim=True),
            lambda a, b: tf.pairwise_distance(a, b, p=3.0, keepdim=True),
            [A, B],
        ),
    }


NAMES = [
    "margin_ranking",
    "hinge_embedding",
    "cosine_embedding",
    "triplet",
    "triplet_swap_p1",
    "soft_margin",
    "multi_label_soft_margin",
    "poisson_log_input",
    "poisson_rate",
    "gaussian",
    "gaussian_per_sample_variance",
    "pairwise_distance",
]


@pytest.mark.parametrize("name", NAMES)
def test_matches_pytorch_forward_and_gradients(name):
    torch = pytest.importorskip("torch")
    ours_fn, torch_fn, arrays = cases(torch)[name]
    ours = [tensor(a, stop_gradient=False) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, expected = ours_fn(*ours), torch_fn(*theirs)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-7, atol=1e-9)
    g = rng.standard_normal(expected.shape)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", NAMES)
def test_gradients_in_float64(name):
    torch = pytest.importorskip("torch")
    ours_fn, _, arrays = cases(torch)[name]
    check_backward(ours_fn, arrays)
    check_double_backward(ours_fn, arrays)


def test_cosine_and_hinge_match_paddle():
    paddle = pytest.importorskip("paddle")
    pf = paddle.nn.functional
    ours = F.cosine_embedding_loss(tensor(A), tensor(B), tensor(SIGNS), margin=0.1)
    theirs = pf.cosine_embedding_loss(
        paddle.to_tensor(A), paddle.to_tensor(B), paddle.to_tensor(SIGNS), margin=0.1
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10)
    labels = SIGNS[:, None] * np.ones(4)
    ours = F.hinge_embedding_loss(tensor(A), tensor(labels), reduction="none")
    theirs = pf.hinge_embedding_loss(
        paddle.to_tensor(A), paddle.to_tensor(labels), reduction="none"
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10)


def test_label_smooth_matches_paddle_and_accepts_a_prior():
    one_hot = np.eye(4)[[0, 2, 3]]
    out = F.label_smooth(tensor(one_hot), epsilon=0.2)
    np.testing.assert_allclose(out.numpy(), 0.8 * one_hot + 0.05)
    prior = np.array([0.1, 0.2, 0.3, 0.4])
    out = F.label_smooth(tensor(one_hot), prior_dist=tensor(prior), epsilon=0.5)
    np.testing.assert_allclose(out.numpy(), 0.5 * one_hot + 0.5 * prior)
    assert F.one_hot(tensor(np.array([1, 0])), 3).shape == [2, 3]


def test_loss_layers_wrap_the_functions():
    a, b, c = tensor(A), tensor(B), tensor(C)
    signs = tensor(SIGNS)
    pairs = [
        (
            nn.MarginRankingLoss(0.3)(a, b, tensor(SIGNS[:, None] * np.ones(4))),
            F.margin_ranking_loss(a, b, tensor(SIGNS[:, None] * np.ones(4)), 0.3),
        ),
        (
            nn.HingeEmbeddingLoss()(a, tensor(SIGNS[:, None] * np.ones(4))),
            F.hinge_embedding_loss(a, tensor(SIGNS[:, None] * np.ones(4))),
        ),
        (nn.CosineEmbeddingLoss(0.2)(a, b, signs), F.cosine_embedding_loss(a, b, signs, 0.2)),
        (nn.TripletMarginLoss(swap=True)(a, b, c), F.triplet_margin_loss(a, b, c, swap=True)),
        (
            nn.SoftMarginLoss("sum")(a, tensor(np.sign(B))),
            F.soft_margin_loss(a, tensor(np.sign(B)), "sum"),
        ),
        (
            nn.MultiLabelSoftMarginLoss()(a, tensor(BITS)),
            F.multi_label_soft_margin_loss(a, tensor(BITS)),
        ),
        (nn.PoissonNLLLoss()(a, tensor(COUNTS)), F.poisson_nll_loss(a, tensor(COUNTS))),
        (nn.GaussianNLLLoss()(a, b, tensor(VARIANCE)), F.gaussian_nll_loss(a, b, tensor(VARIANCE))),
        (nn.PairwiseDistance()(a, b), F.pairwise_distance(a, b)),
    ]
    for layer_out, function_out in pairs:
        np.testing.assert_array_equal(layer_out.numpy(), function_out.numpy())
    assert repr(nn.PairwiseDistance()) == "PairwiseDistance(p=2.0, epsilon=1e-06, keepdim=False)"


def test_margin_losses_check_their_arguments():
    with pytest.raises(ValueError, match="greater than 0"):
        F.triplet_margin_loss(tensor(A), tensor(B), tensor(C), margin=-1.0)
    with pytest.raises(ValueError, match="shape"):
        F.triplet_margin_loss(tensor(A), tensor(B[:2]), tensor(C))
    with pytest.raises(ValueError, match="1D target"):
        F.cosine_embedding_loss(tensor(A), tensor(B), tensor(BITS))
    with pytest.raises(ValueError, match="negative"):
        F.gaussian_nll_loss(tensor(A), tensor(B), tensor(-VARIANCE))
    with pytest.raises(ValueError, match="reduction"):
        nn.SoftMarginLoss("avg")


@pytest.mark.parametrize("axis", [1, 0, -1])
def test_cosine_similarity_matches_pytorch(axis):
    torch = pytest.importorskip("torch")
    ours = [tensor(a, stop_gradient=False) for a in (A, B[:1] if axis != 0 else B)]
    theirs = [torch.tensor(a.numpy(), requires_grad=True) for a in ours]
    out = F.cosine_similarity(*ours, axis=axis)
    expected = torch.nn.functional.cosine_similarity(*theirs, dim=axis)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-10)
    out.backward(tensor(np.ones(out.shape)))
    expected.backward(torch.ones(expected.shape, dtype=torch.float64))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-8, atol=1e-12)
    layer = nn.CosineSimilarity(axis=axis)
    np.testing.assert_array_equal(layer(*ours).numpy(), out.numpy())
    check_double_backward(lambda a, b: F.cosine_similarity(a, b, axis=axis), [A, B])
