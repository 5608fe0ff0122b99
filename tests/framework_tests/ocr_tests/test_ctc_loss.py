"""`nn.functional.ctc_loss` and `nn.CTCLoss`: equal to a brute-force sum over alignments
(NumPy), to torch's ctc_loss and to Paddle's warp-ctc (oracles), with numerical gradients."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing.gradient_check import check_backward


def _collapse(path: tuple[int, ...], blank: int) -> tuple[int, ...]:
    merged = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
    return tuple(c for c in merged if c != blank)


def _brute_force_nll(logits: np.ndarray, label: list[int], blank: int) -> float:
    """-log of the summed probability of every path (C^T of them) that collapses to label."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    steps, classes = log_probs.shape
    total = 0.0
    for path in itertools.product(range(classes), repeat=steps):
        if _collapse(path, blank) == tuple(label):
            total += np.exp(sum(log_probs[t, c] for t, c in enumerate(path)))
    return -np.log(total) if total > 0 else np.inf


def _batch(rng, steps=12, batch=4, classes=6, max_label=5, blank=0):
    logits = rng.standard_normal((steps, batch, classes))
    choices = [c for c in range(classes) if c != blank]
    labels = rng.choice(choices, (batch, max_label)).astype(np.int32)
    labels[0, :3] = [choices[1], choices[1], choices[2]]  # a repeat needs a blank between
    input_lengths = np.array([steps, steps - 2, 7, steps][:batch])
    label_lengths = np.array([5, 3, 2, 0][:batch])
    return logits, labels, input_lengths, label_lengths


def _ours(logits, labels, input_lengths, label_lengths, **kwargs):
    return F.ctc_loss(
        framework.to_tensor(logits),
        framework.to_tensor(labels),
        framework.to_tensor(input_lengths),
        framework.to_tensor(label_lengths),
        **kwargs,
    )


@pytest.mark.parametrize("blank", [0, 2])
def test_it_is_the_sum_over_all_alignments(blank) -> None:
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((5, 3, 3))
    labels = np.array([[1, 1, 0], [1, 0, 0], [1, 0, 1]], np.int32)
    labels = np.where(labels == blank, (blank + 1) % 3, labels).astype(np.int32)
    labels[0, :2] = [(blank + 1) % 3, (blank + 1) % 3]
    label_lengths = np.array([2, 1, 3])
    input_lengths = np.array([5, 4, 5])
    got = _ours(logits, labels, input_lengths, label_lengths, blank=blank, reduction="none")
    want = [
        _brute_force_nll(logits[: input_lengths[n], n], list(labels[n, : label_lengths[n]]), blank)
        for n in range(3)
    ]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype, tol", [("float64", 1e-10), ("float32", 2e-5)])
def test_loss_and_gradient_equal_torchs(reduction, dtype, tol) -> None:
    torch = pytest.importorskip("torch")
    logits, labels, input_lengths, label_lengths = _batch(np.random.default_rng(1))
    logits = logits.astype(dtype)
    x = framework.to_tensor(logits, stop_gradient=False)
    loss = F.ctc_loss(
        x,
        framework.to_tensor(labels),
        framework.to_tensor(input_lengths),
        framework.to_tensor(label_lengths),
        reduction=reduction,
    )
    weights = np.random.default_rng(2).standard_normal(loss.shape).astype(dtype)
    (loss * framework.to_tensor(weights)).sum().backward()
    tx = torch.tensor(logits, requires_grad=True)
    want = torch.nn.functional.ctc_loss(
        tx.log_softmax(2),
        torch.tensor(labels.astype(np.int64)),
        torch.tensor(input_lengths),
        torch.tensor(label_lengths),
        reduction=reduction,
    )
    (want * torch.tensor(weights)).sum().backward()
    assert loss.dtype == x.dtype
    np.testing.assert_allclose(loss.numpy(), want.detach().numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=tol, atol=tol)


def test_norm_by_times_scales_the_gradient_as_paddle_does() -> None:
    paddle = pytest.importorskip("paddle")
    logits, labels, input_lengths, label_lengths = _batch(np.random.default_rng(3))
    logits = logits.astype(np.float32)
    label_lengths = np.array([5, 3, 2, 1])  # Paddle's warp-ctc wants a label per sequence
    results = []
    for norm in (False, True):
        x = framework.to_tensor(logits, stop_gradient=False)
        loss = F.ctc_loss(
            x,
            framework.to_tensor(labels),
            framework.to_tensor(input_lengths),
            framework.to_tensor(label_lengths),
            reduction="sum",
            norm_by_times=norm,
        )
        loss.backward()
        px = paddle.to_tensor(logits, stop_gradient=False)
        want = paddle.nn.functional.ctc_loss(
            px,
            paddle.to_tensor(labels),
            paddle.to_tensor(input_lengths, dtype="int64"),
            paddle.to_tensor(label_lengths, dtype="int64"),
            reduction="sum",
            norm_by_times=norm,
        )
        want.backward()
        np.testing.assert_allclose(loss.numpy(), want.numpy(), rtol=1e-5)
        np.testing.assert_allclose(x.grad.numpy(), px.grad.numpy(), rtol=1e-4, atol=1e-6)
        results.append(x.grad.numpy())
    np.testing.assert_allclose(results[1], results[0] / input_lengths[None, :, None], rtol=1e-5)


def test_gradients_match_central_differences() -> None:
    logits, labels, input_lengths, label_lengths = _batch(
        np.random.default_rng(4), steps=6, batch=3, classes=4, max_label=3
    )
    label_lengths = np.array([3, 1, 0])
    input_lengths = np.array([6, 5, 3])

    def loss(x):
        return F.ctc_loss(
            x,
            framework.to_tensor(labels),
            framework.to_tensor(input_lengths),
            framework.to_tensor(label_lengths),
            reduction="none",
        )

    check_backward(loss, [logits])


def test_an_impossible_label_costs_infinity_with_no_gradient_or_zero_when_asked() -> None:
    logits = np.random.default_rng(5).standard_normal((3, 1, 4))
    labels = np.array([[1, 1, 2]], np.int32)  # needs 4 steps: 1, blank, 1, 2
    x = framework.to_tensor(logits, stop_gradient=False)
    one = framework.to_tensor(np.array([3]))
    three = framework.to_tensor(np.array([3]))
    loss = F.ctc_loss(x, framework.to_tensor(labels), one, three, reduction="sum")
    assert np.isinf(loss.numpy())
    loss.backward()
    assert not x.grad.numpy().any()
    zeroed = F.ctc_loss(
        x, framework.to_tensor(labels), one, three, reduction="sum", zero_infinity=True
    )
    assert float(zeroed.numpy()) == 0.0


def test_the_layer_is_paddles_ctcloss() -> None:
    logits, labels, input_lengths, label_lengths = _batch(np.random.default_rng(6))
    layer = framework.nn.CTCLoss(blank=0, reduction="mean")
    args = [framework.to_tensor(a) for a in (logits, labels, input_lengths, label_lengths)]
    np.testing.assert_allclose(layer(*args).numpy(), F.ctc_loss(*args).numpy())
    assert "blank=0" in repr(layer)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: {**a, "logits": a["logits"][0]}, r"\[T, N, C\]"),
        (lambda a: {**a, "labels": a["labels"].astype(np.float32)}, "integer"),
        (lambda a: {**a, "input_lengths": a["input_lengths"] + 1}, "input_lengths"),
        (lambda a: {**a, "label_lengths": a["label_lengths"][:2]}, "label_lengths"),
        (lambda a: {**a, "labels": a["labels"] * 0}, "blank"),
        (lambda a: {**a, "labels": a["labels"] + 10}, "class indices"),
    ],
)
def test_it_rejects_inconsistent_inputs(change, message) -> None:
    logits, labels, input_lengths, label_lengths = _batch(np.random.default_rng(7))
    args = change(
        {
            "logits": logits,
            "labels": labels,
            "input_lengths": input_lengths,
            "label_lengths": label_lengths,
        }
    )
    with pytest.raises(ValueError, match=message):
        _ours(args["logits"], args["labels"], args["input_lengths"], args["label_lengths"])


@pytest.mark.gpu
def test_it_runs_on_the_gpu_as_on_the_cpu() -> None:
    logits, labels, input_lengths, label_lengths = _batch(np.random.default_rng(8))
    results = []
    for place in ("cpu", "gpu:0"):
        x = framework.to_tensor(logits.astype(np.float32), place=place, stop_gradient=False)
        others = [
            framework.to_tensor(a, place=place) for a in (labels, input_lengths, label_lengths)
        ]
        loss = F.ctc_loss(x, *others)
        loss.backward()
        results.append((loss.numpy(), x.grad.numpy()))
    for cpu, gpu in zip(*results, strict=True):
        np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-5)
