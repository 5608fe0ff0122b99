"""Losses (functional and layers): NumPy references with Paddle's semantics, float64 gradient
checks of first and second order, PyTorch parity in float32, error messages."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((5, 4))
Y = rng.standard_normal((5, 4))
P = rng.uniform(0.05, 0.95, (5, 4))
T = rng.uniform(0.0, 1.0, (5, 4))
LABELS = np.array([0, 3, 1, 3, 2])
CLASS_WEIGHT = np.array([1.0, 2.0, 0.5, 3.0])


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def reduce(values, reduction):
    return {"mean": values.mean(), "sum": values.sum(), "none": values}[reduction]


def log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def huber(r, delta):
    a = np.abs(r)
    return np.where(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta))


def bce_logits(x, y, pos_weight=1.0):
    return (1 - y) * x + (1 + (pos_weight - 1) * y) * np.log1p(np.exp(-x))


ELEMENTWISE = {
    "mse": (lambda a, b, r: F.mse_loss(a, b, r), lambda x, y: (x - y) ** 2, X, Y),
    "l1": (lambda a, b, r: F.l1_loss(a, b, r), lambda x, y: np.abs(x - y), X, Y),
    "smooth_l1": (
        lambda a, b, r: F.smooth_l1_loss(a, b, r, delta=0.7),
        lambda x, y: huber(x - y, 0.7),
        X,
        Y,
    ),
    "smooth_l1_not_huber": (
        lambda a, b, r: F.smooth_l1_loss(a, b, r, delta=0.7, is_huber=False),
        lambda x, y: huber(x - y, 0.7) / 0.7,
        X,
        Y,
    ),
    "bce": (
        lambda a, b, r: F.binary_cross_entropy(a, b, reduction=r),
        lambda x, y: -(y * np.log(x) + (1 - y) * np.log(1 - x)),
        P,
        T,
    ),
    "bce_weighted": (
        lambda a, b, r: F.binary_cross_entropy(a, b, tensor(CLASS_WEIGHT), r),
        lambda x, y: -(y * np.log(x) + (1 - y) * np.log(1 - x)) * CLASS_WEIGHT,
        P,
        T,
    ),
    "bce_with_logits": (
        lambda a, b, r: F.binary_cross_entropy_with_logits(a, b, reduction=r),
        bce_logits,
        X,
        T,
    ),
    "bce_with_logits_pos_weight": (
        lambda a, b, r: F.binary_cross_entropy_with_logits(
            a, b, tensor(CLASS_WEIGHT[::-1].copy()), r, pos_weight=tensor(CLASS_WEIGHT)
        ),
        lambda x, y: bce_logits(x, y, CLASS_WEIGHT) * CLASS_WEIGHT[::-1],
        X,
        T,
    ),
    "kl_div": (lambda a, b, r: F.kl_div(a, b, r), lambda x, y: y * (np.log(y) - x), X, P),
    "kl_div_log_target": (
        lambda a, b, r: F.kl_div(a, b, r, log_target=True),
        lambda x, y: np.exp(y) * (y - x),
        X,
        Y,
    ),
}


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_losses_match_numpy(name, reduction):
    function, reference, x, y = ELEMENTWISE[name]
    out = function(tensor(x), tensor(y), reduction)
    np.testing.assert_allclose(out.numpy(), reduce(reference(x, y), reduction), rtol=1e-10)
    out32 = function(tensor(x.astype(np.float32)), tensor(y.astype(np.float32)), reduction)
    assert out32.dtype == np.float32


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_loss_gradients_in_float64(name, reduction):
    function, _, x, y = ELEMENTWISE[name]
    check_backward(lambda a, b: function(a, b, reduction), [x, y])
    check_double_backward(lambda a, b: function(a, b, reduction), [x, y])


def test_losses_broadcast_label_against_input_and_sum_gradients_back():
    x, y = X, Y[:1]
    out = F.mse_loss(tensor(x), tensor(y), "none")
    np.testing.assert_allclose(out.numpy(), (x - y) ** 2)
    check_backward(lambda a, b: F.mse_loss(a, b), [x, y])


def test_kl_div_batchmean_and_zero_targets():
    label = np.where(P > 0.5, P, 0.0)
    expected = np.where(label > 0, label * (np.log(np.where(label > 0, label, 1)) - X), 0)
    out = F.kl_div(tensor(X), tensor(label), "batchmean")
    np.testing.assert_allclose(out.numpy(), expected.sum() / X.shape[0])
    check_backward(lambda a: F.kl_div(a, tensor(label), "batchmean"), [X])


def test_binary_cross_entropy_clamps_the_log_at_minus_100():
    out = F.binary_cross_entropy(tensor([[0.0, 1.0]]), tensor([[1.0, 0.0]]), reduction="none")
    np.testing.assert_allclose(out.numpy(), [[100.0, 100.0]])


def test_sigmoid_focal_loss_matches_its_definition():
    def reference(x, y, normalizer=1.0):
        p = 1 / (1 + np.exp(-x))
        p_t = p * y + (1 - p) * (1 - y)
        alpha_t = 0.25 * y + 0.75 * (1 - y)
        return (alpha_t * (1 - p_t) ** 2 * bce_logits(x, y)).sum() / normalizer

    label = (T > 0.5).astype(np.float64)
    np.testing.assert_allclose(
        F.sigmoid_focal_loss(tensor(X), tensor(label)).numpy(), reference(X, label)
    )
    normalized = F.sigmoid_focal_loss(tensor(X), tensor(label), normalizer=tensor([4.0]))
    np.testing.assert_allclose(normalized.numpy(), reference(X, label, 4.0))
    check_backward(lambda a: F.sigmoid_focal_loss(a, tensor(label), reduction="mean"), [X])
    check_double_backward(lambda a: F.sigmoid_focal_loss(a, tensor(label)), [X])


def test_log_loss_matches_its_definition():
    out = F.log_loss(tensor(P), tensor(T), epsilon=1e-4)
    expected = -T * np.log(P + 1e-4) - (1 - T) * np.log(1 - P + 1e-4)
    np.testing.assert_allclose(out.numpy(), expected)


# --- cross-entropy and NLL ----------------------------------------------------------------------
def ce_reference(x, labels, weight=None, ignore_index=-100, reduction="mean"):
    """Paddle's rules for hard labels (see framework.nn.functional.cross_entropy)."""
    logp = log_softmax(x)
    valid = labels != ignore_index
    safe = np.where(valid, labels, 0)
    losses = -np.take_along_axis(logp, safe[:, None], 1)[:, 0] * valid
    sample_weight = valid * (1.0 if weight is None else weight[safe])
    losses = losses * sample_weight
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    if weight is not None:
        return losses.sum() / sample_weight.sum()
    return losses.sum() / (valid.sum() if ignore_index >= 0 else len(labels))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 3])
def test_cross_entropy_with_hard_labels_follows_paddle(reduction, weighted, ignore_index):
    weight = CLASS_WEIGHT if weighted else None
    labels = LABELS.copy()
    if ignore_index < 0:
        labels[1] = ignore_index
    out = F.cross_entropy(
        tensor(X),
        tensor(labels),
        weight=None if weight is None else tensor(weight),
        ignore_index=ignore_index,
        reduction=reduction,
    )
    expected = ce_reference(X, labels, weight, ignore_index, reduction)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)

    def loss(a):
        w = None if weight is None else tensor(weight)
        return F.cross_entropy(a, tensor(labels), w, ignore_index, reduction)

    check_backward(loss, [X])
    check_double_backward(loss, [X])


def test_cross_entropy_mean_over_ignored_samples_follows_paddle_quirk():
    labels = np.array([0, -100, 2, 1])
    x = X[:4]
    out = F.cross_entropy(tensor(x), tensor(labels)).item()
    per_sample = F.cross_entropy(tensor(x), tensor(labels), reduction="none").numpy()
    assert per_sample[1] == 0.0
    assert out == pytest.approx(per_sample.sum() / 4)  # ignored samples count (ignore_index < 0)
    out = F.cross_entropy(tensor(x), tensor(np.array([0, 1, 2, 1])), ignore_index=1).item()
    assert out == pytest.approx(-(log_softmax(x)[0, 0] + log_softmax(x)[2, 2]) / 2)


def test_cross_entropy_label_shapes_and_output_shapes():
    x = tensor(X)
    assert F.cross_entropy(x, tensor(LABELS), reduction="none").shape == [5]
    assert F.cross_entropy(x, tensor(LABELS[:, None]), reduction="none").shape == [5, 1]
    smoothed = F.cross_entropy(x, tensor(LABELS), reduction="none", label_smoothing=0.1)
    assert smoothed.shape == [5, 1]
    soft = F.cross_entropy(
        x, tensor(P / P.sum(1, keepdims=True)), soft_label=True, reduction="none"
    )
    assert soft.shape == [5, 1]
    assert F.cross_entropy(x, tensor(LABELS)).shape == []


def test_cross_entropy_soft_labels_and_smoothing():
    soft = P / P.sum(1, keepdims=True)
    logp = log_softmax(X)
    weighted = (soft * CLASS_WEIGHT).sum(1)
    out = F.cross_entropy(tensor(X), tensor(soft), tensor(CLASS_WEIGHT), soft_label=True)
    expected = ((-(soft * logp).sum(1)) * weighted).sum() / weighted.sum()
    np.testing.assert_allclose(out.numpy(), expected)
    smooth = np.full((5, 4), 0.2 / 4) + 0.8 * np.eye(4)[LABELS]
    out = F.cross_entropy(tensor(X), tensor(LABELS), label_smoothing=0.2)
    np.testing.assert_allclose(out.numpy(), (-(smooth * logp).sum(1)).mean())
    check_double_backward(
        lambda a: F.cross_entropy(a, tensor(soft), soft_label=True, reduction="sum"), [X]
    )


def test_cross_entropy_along_another_axis_and_without_softmax():
    x = rng.standard_normal((2, 4, 3))
    labels = rng.integers(0, 4, (2, 3))
    logp = log_softmax(x, axis=1)
    expected = -np.take_along_axis(logp, labels[:, None, :], 1).mean()
    out = F.cross_entropy(tensor(x), tensor(labels), axis=1)
    np.testing.assert_allclose(out.numpy(), expected)
    check_backward(lambda a: F.cross_entropy(a, tensor(labels), axis=1), [x])
    probs = np.exp(log_softmax(X))
    out = F.cross_entropy(tensor(probs), tensor(LABELS), use_softmax=False)
    np.testing.assert_allclose(out.numpy(), ce_reference(X, LABELS))


def test_softmax_with_cross_entropy_keeps_the_class_axis_and_returns_softmax():
    loss, probs = F.softmax_with_cross_entropy(
        tensor(X), tensor(LABELS[:, None]), return_softmax=True
    )
    assert loss.shape == [5, 1]
    np.testing.assert_allclose(loss.numpy()[:, 0], ce_reference(X, LABELS, reduction="none"))
    np.testing.assert_allclose(probs.numpy(), np.exp(log_softmax(X)))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_divides_by_the_weight_of_non_ignored_samples(reduction):
    labels = LABELS.copy()
    labels[2] = -100
    out = F.nll_loss(tensor(X), tensor(labels), tensor(CLASS_WEIGHT), reduction=reduction)
    valid = labels != -100
    safe = np.where(valid, labels, 0)
    w = CLASS_WEIGHT[safe] * valid
    losses = -X[np.arange(5), safe] * w
    expected = {"none": losses, "sum": losses.sum(), "mean": losses.sum() / w.sum()}[reduction]
    np.testing.assert_allclose(out.numpy(), expected)
    check_double_backward(lambda a: F.nll_loss(a, tensor(labels), reduction=reduction), [X])


def test_nll_loss_on_images():
    x = rng.standard_normal((2, 3, 2, 2))
    labels = rng.integers(0, 3, (2, 2, 2))
    out = F.nll_loss(tensor(x), tensor(labels), reduction="none")
    assert out.shape == [2, 2, 2]
    np.testing.assert_allclose(out.numpy(), -np.take_along_axis(x, labels[:, None], 1)[:, 0])


# --- PyTorch parity in float32 --------------------------------------------------------------------
def torch_cases(torch):
    tf = torch.nn.functional
    w = CLASS_WEIGHT.astype(np.float32)
    tw = torch.tensor(w)
    soft = (P / P.sum(1, keepdims=True)).astype(np.float32)
    return {
        "mse": (lambda a, b: F.mse_loss(a, b), lambda a, b: tf.mse_loss(a, b), X, Y),
        "l1": (
            lambda a, b: F.l1_loss(a, b, "sum"),
            lambda a, b: tf.l1_loss(a, b, reduction="sum"),
            X,
            Y,
        ),
        "huber": (
            lambda a, b: F.smooth_l1_loss(a, b, delta=0.7),
            lambda a, b: tf.huber_loss(a, b, delta=0.7),
            X,
            Y,
        ),
        "smooth_l1": (
            lambda a, b: F.smooth_l1_loss(a, b, "none", 0.7, is_huber=False),
            lambda a, b: tf.smooth_l1_loss(a, b, reduction="none", beta=0.7),
            X,
            Y,
        ),
        "bce": (
            lambda a, b: F.binary_cross_entropy(a, b, tensor(w)),
            lambda a, b: tf.binary_cross_entropy(a, b, tw),
            P,
            T,
        ),
        "bce_logits": (
            lambda a, b: F.binary_cross_entropy_with_logits(a, b, pos_weight=tensor(w)),
            lambda a, b: tf.binary_cross_entropy_with_logits(a, b, pos_weight=tw),
            X,
            T,
        ),
        "kl_div": (
            lambda a, b: F.kl_div(a, b, "sum"),
            lambda a, b: tf.kl_div(a, b, reduction="sum"),
            X,
            P,
        ),
        "cross_entropy": (
            lambda a, b: F.cross_entropy(a, tensor(LABELS)),
            lambda a, b: tf.cross_entropy(a, torch.tensor(LABELS)),
            X,
            None,
        ),
        "cross_entropy_weight_ignore": (
            lambda a, b: F.cross_entropy(a, tensor(LABELS), tensor(w), ignore_index=3),
            lambda a, b: tf.cross_entropy(a, torch.tensor(LABELS), tw, ignore_index=3),
            X,
            None,
        ),
        "cross_entropy_smoothing": (
            lambda a, b: F.cross_entropy(a, tensor(LABELS), label_smoothing=0.1),
            lambda a, b: tf.cross_entropy(a, torch.tensor(LABELS), label_smoothing=0.1),
            X,
            None,
        ),
        "cross_entropy_soft": (
            lambda a, b: F.cross_entropy(a, tensor(soft), soft_label=True),
            lambda a, b: tf.cross_entropy(a, torch.tensor(soft)),
            X,
            None,
        ),
        "nll": (
            lambda a, b: F.nll_loss(a, tensor(LABELS), tensor(w)),
            lambda a, b: tf.nll_loss(a, torch.tensor(LABELS), tw),
            X,
            None,
        ),
    }


@pytest.mark.parametrize(
    "name",
    [
        "mse",
        "l1",
        "huber",
        "smooth_l1",
        "bce",
        "bce_logits",
        "kl_div",
        "cross_entropy",
        "cross_entropy_weight_ignore",
        "cross_entropy_smoothing",
        "cross_entropy_soft",
        "nll",
    ],
)
def test_losses_match_pytorch(name):
    torch = pytest.importorskip("torch")
    ours_fn, torch_fn, x, y = torch_cases(torch)[name]
    x = x.astype(np.float32)
    ours = tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    label = None if y is None else y.astype(np.float32)
    out = ours_fn(ours, None if label is None else tensor(label))
    expected = torch_fn(theirs, None if label is None else torch.tensor(label))
    g = np.random.default_rng(1).standard_normal(expected.shape).astype(np.float32)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-6)


# --- errors and layers ---------------------------------------------------------------------------
def test_cross_entropy_errors_speak_the_users_language():
    x = tensor(X.astype(np.float32))
    with pytest.raises(ValueError, match=r"got label 7, outside \[0, 4\)"):
        F.cross_entropy(x, tensor(np.array([0, 7, 1, 1, 1])))
    with pytest.raises(
        ValueError, match=r"expects hard labels of shape \[5\].*got labels of shape \[4\]"
    ):
        F.cross_entropy(x, tensor(np.array([0, 1, 1, 1])))
    with pytest.raises(TypeError, match="soft_label=True"):
        F.cross_entropy(x, tensor(P.astype(np.float32)))
    with pytest.raises(ValueError, match="'reduction'"):
        F.cross_entropy(x, tensor(LABELS), reduction="avg")
    with pytest.raises(ValueError, match="class_dimension"):
        F.cross_entropy(x, tensor(LABELS), weight=tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="ignore_index"):
        F.cross_entropy(x, tensor(P.astype(np.float32)), soft_label=True, ignore_index=2)


def test_nll_loss_rejects_mismatched_labels():
    # [N, 1] is Paddle's other label shape (test_paddle_behaviours); [N, 2] is not one.
    with pytest.raises(ValueError, match=r"labels of shape \[5\].*got \[5, 2\]"):
        F.nll_loss(tensor(X), tensor(np.stack([LABELS, LABELS], axis=1)))


LOSS_LAYERS = [
    (
        nn.CrossEntropyLoss(label_smoothing=0.1),
        lambda a: F.cross_entropy(a, tensor(LABELS), label_smoothing=0.1),
        "labels",
    ),
    (
        nn.NLLLoss(reduction="sum"),
        lambda a: F.nll_loss(a, tensor(LABELS), reduction="sum"),
        "labels",
    ),
    (nn.MSELoss(), lambda a: F.mse_loss(a, tensor(Y)), Y),
    (nn.L1Loss("sum"), lambda a: F.l1_loss(a, tensor(Y), "sum"), Y),
    (nn.SmoothL1Loss(delta=0.5), lambda a: F.smooth_l1_loss(a, tensor(Y), delta=0.5), Y),
    (nn.BCELoss(), lambda a: F.binary_cross_entropy(a, tensor(T)), T),
    (
        nn.BCEWithLogitsLoss(pos_weight=tensor(CLASS_WEIGHT)),
        lambda a: F.binary_cross_entropy_with_logits(a, tensor(T), pos_weight=tensor(CLASS_WEIGHT)),
        T,
    ),
    (nn.KLDivLoss("batchmean"), lambda a: F.kl_div(a, tensor(P), "batchmean"), P),
]


@pytest.mark.parametrize("layer, function, label", LOSS_LAYERS, ids=lambda v: type(v).__name__)
def test_loss_layers_wrap_the_functional_form(layer, function, label):
    x = P if isinstance(layer, nn.BCELoss) else X
    label = tensor(LABELS) if isinstance(label, str) else tensor(label)
    np.testing.assert_array_equal(layer(tensor(x), label).numpy(), function(tensor(x)).numpy())
    assert layer.parameters() == [] and list(layer.state_dict()) == []


def test_loss_layers_reject_unknown_reductions():
    for build in (nn.CrossEntropyLoss, nn.MSELoss, nn.L1Loss, nn.BCELoss, nn.NLLLoss):
        with pytest.raises(ValueError, match="reduction"):
            build(reduction="avg")
    with pytest.raises(ValueError, match="reduction"):
        nn.KLDivLoss(reduction="avg")


def test_cross_entropy_on_an_empty_batch_is_nan_without_warnings():
    import warnings

    x = tensor(np.zeros((0, 4), np.float32), stop_gradient=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = F.cross_entropy(x, tensor(np.zeros((0,), np.int64)))
        assert np.isnan(loss.item())
        loss.backward()
    assert x.grad.shape == [0, 4]
    assert F.cross_entropy(x, tensor(np.zeros((0,), np.int64)), reduction="sum").item() == 0.0


def test_binary_cross_entropy_gradient_stays_finite_at_saturated_probabilities():
    import warnings

    p = np.array([0.0, 0.3, 1.0])
    y = np.array([0.0, 1.0, 0.5])
    x, label = tensor(p, stop_gradient=False), tensor(y, stop_gradient=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gx, gy = framework.grad(F.binary_cross_entropy(x, label, reduction="sum"), [x, label])
    np.testing.assert_allclose(gx.numpy(), (p - y) / np.maximum(p * (1 - p), 1e-12))
    with np.errstate(divide="ignore"):
        log_x, log_1mx = np.maximum(np.log(p), -100), np.maximum(np.log1p(-p), -100)
    np.testing.assert_allclose(gy.numpy(), log_1mx - log_x)
