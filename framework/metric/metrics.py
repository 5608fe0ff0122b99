"""Streaming metrics, as `paddle.metric`: `Metric`, `Accuracy`, `Precision`, `Recall`, `Auc`,
and the `accuracy` function.

A metric is fed batch by batch (`update`) and read at the end (`accumulate`). Inputs may be
Tensors or NumPy arrays; the bookkeeping is NumPy and vectorised.

    m = Accuracy(topk=(1, 5))
    for logits, labels in loader:
        m.update(m.compute(logits, labels))
    top1, top5 = m.accumulate()
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.core import backend
from framework.core.tensor import Tensor


def to_numpy(value: Any) -> np.ndarray:
    """A Tensor's values (copied to the host) or `np.asarray(value)`."""
    if isinstance(value, Tensor):
        return value.numpy()
    return np.asarray(value)


def _check_array(value: Any, what: str) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, np.ndarray | np.generic):
        return np.asarray(value)
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")


class Metric(metaclass=abc.ABCMeta):
    """Base class. Subclasses implement `reset`, `update`, `accumulate` and `name`; `compute`
    (optional) turns a batch's outputs into what `update` takes, and may run on the device."""

    @abc.abstractmethod
    def reset(self) -> None:
        """Clear the accumulated state."""

    @abc.abstractmethod
    def update(self, *args: Any) -> Any:
        """Add one batch."""

    @abc.abstractmethod
    def accumulate(self) -> Any:
        """The metric over everything added since `reset`."""

    @abc.abstractmethod
    def name(self) -> Any:
        """The metric's name (a list of names for several values)."""

    def compute(self, *args: Any) -> Any:
        return args


class Accuracy(Metric):
    """Top-k accuracy for each k in `topk`.

    `compute(pred, label)` gives, per sample, whether the label is among the top-1..maxk
    predictions (float32 [N, maxk]); `label` is [N] or [N, 1] class ids, or [N, C] one-hot or
    soft labels (their argmax is used). `update(correct)` returns this batch's accuracies.
    """

    def __init__(
        self, topk: Sequence[int] = (1,), name: str | None = None, *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.topk = topk
        self.maxk = max(topk)
        self._init_name(name)
        self.reset()

    def compute(self, pred: Any, label: Any, *args: Any) -> Tensor:
        xp = backend.get_array_module(pred._data) if isinstance(pred, Tensor) else np
        pred = pred._data if isinstance(pred, Tensor) else xp.asarray(pred)
        label = label._data if isinstance(label, Tensor) else xp.asarray(label)
        top = xp.argsort(-pred, axis=-1, kind="stable")[..., : self.maxk]
        if label.ndim == 1 or (label.ndim == 2 and label.shape[-1] == 1):
            label = label.reshape(-1, 1)
        elif label.shape[-1] != 1:
            label = label.argmax(axis=-1)[..., None]
        return Tensor((top == label.astype(top.dtype)).astype(np.float32))

    def update(self, correct: Any, *args: Any) -> float | list[float]:
        correct = to_numpy(correct)
        num_samples = int(np.prod(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            num_corrects = float(correct[..., :k].sum())
            accs.append(num_corrects / num_samples if num_samples else 0.0)
            self.total[i] += num_corrects
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self) -> float | list[float]:
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count, strict=True)]
        return res[0] if len(self.topk) == 1 else res

    def _init_name(self, name: str | None) -> None:
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in self.topk] if self.maxk != 1 else [name]

    def name(self) -> list[str]:
        return self._name


def _binary_pair(preds: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    preds = _check_array(preds, "preds")
    labels = _check_array(labels, "labels")
    n = labels.shape[0] if labels.ndim else 1
    preds, labels = preds.reshape(-1), labels.reshape(-1)
    if preds.size != n or labels.size != n:
        raise ValueError(
            f"preds and labels should hold one value per sample ([N] or [N, 1]); got "
            f"{preds.size} predictions and {labels.size} labels for {n} samples"
        )
    return preds, labels


class Precision(Metric):
    """Binary precision tp / (tp + fp); predictions are probabilities rounded at 0.5."""

    def __init__(self, name: str = "precision", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        preds, labels = _binary_pair(preds, labels)
        predicted = np.floor(preds + 0.5).astype(np.int32) == 1
        hit = predicted & (labels == 1)
        self.tp += int(hit.sum())
        self.fp += int(predicted.sum()) - int(hit.sum())

    def reset(self) -> None:
        self.tp = 0
        self.fp = 0

    def accumulate(self) -> float:
        predicted = self.tp + self.fp
        return float(self.tp) / predicted if predicted != 0 else 0.0

    def name(self) -> str:
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn); predictions are probabilities rounded half to even, as
    Paddle's `np.rint`."""

    def __init__(self, name: str = "recall", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        preds, labels = _binary_pair(preds, labels)
        positive = labels == 1
        hit = positive & (np.rint(preds).astype(np.int32) == 1)
        self.tp += int(hit.sum())
        self.fn += int(positive.sum()) - int(hit.sum())

    def accumulate(self) -> float:
        actual = self.tp + self.fn
        return float(self.tp) / actual if actual != 0 else 0.0

    def reset(self) -> None:
        self.tp = 0
        self.fn = 0

    def name(self) -> str:
        return self._name


class Auc(Metric):
    """Area under the ROC curve, from `num_thresholds + 1` score buckets as Paddle computes it.

    `update(preds, labels)`: `preds` is [N, 2] class probabilities (column 1 is the positive
    class; a [N] vector of positive-class probabilities is accepted too), `labels` is [N] or
    [N, 1] with nonzero meaning positive. `curve` is accepted for compatibility; as in Paddle
    the ROC area is computed.
    """

    def __init__(
        self,
        curve: str = "ROC",
        num_thresholds: int = 4095,
        name: str = "auc",
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        labels = _check_array(labels, "labels")
        preds = _check_array(preds, "preds")
        positive_scores = preds[:, 1] if preds.ndim == 2 else preds.reshape(-1)
        labels = labels.reshape(labels.shape[0], -1)[:, 0] != 0
        if positive_scores.shape[0] != labels.shape[0]:
            raise ValueError(f"{positive_scores.shape[0]} predictions for {labels.shape[0]} labels")
        if not np.all((positive_scores >= 0) & (positive_scores <= 1)):
            raise ValueError("Auc expects probabilities in [0, 1]")
        # the product in the scores' own precision, truncated, like Paddle's int(value * n)
        buckets = (positive_scores * self._num_thresholds).astype(np.int64)
        size = self._num_thresholds + 1
        self._stat_pos += np.bincount(buckets[labels], minlength=size)
        self._stat_neg += np.bincount(buckets[~labels], minlength=size)

    @staticmethod
    def trapezoid_area(x1: float, x2: float, y1: float, y2: float) -> float:
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self) -> float:
        # walk the buckets from the highest score down, adding trapezoids of the ROC curve
        tot_pos = np.cumsum(self._stat_pos[::-1])
        tot_neg = np.cumsum(self._stat_neg[::-1])
        prev_pos = np.concatenate(([0.0], tot_pos[:-1]))
        prev_neg = np.concatenate(([0.0], tot_neg[:-1]))
        auc = np.sum(np.abs(tot_neg - prev_neg) * (tot_pos + prev_pos) / 2.0)
        if tot_pos[-1] > 0.0 and tot_neg[-1] > 0.0:
            return float(auc / tot_pos[-1] / tot_neg[-1])
        return 0.0

    def reset(self) -> None:
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self) -> str:
        return self._name


def accuracy(
    input: Any,  # noqa: A002 - Paddle's argument name
    label: Any,
    k: int = 1,
    correct: Any = None,
    total: Any = None,
    name: str | None = None,
) -> Tensor:
    """Fraction of samples whose label is among the top-k scores of `input` [N, C]; `label`
    is [N, 1] (or [N]) class ids. Returns a 0-d float32 Tensor. If given, `correct` and `total`
    (int Tensors) receive the counts.

        framework.metric.accuracy(logits, labels.unsqueeze(1), k=5)
    """
    scores = to_numpy(input)
    label = to_numpy(label).reshape(-1, 1)
    top = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    hits = int((top == label).any(axis=1).sum())
    count = top.shape[0]
    if correct is not None:
        correct.set_value(np.full(correct.shape, hits, dtype=correct.dtype))
    if total is not None:
        total.set_value(np.full(total.shape, count, dtype=total.dtype))
    return Tensor(np.array(hits / count if count else 0.0, dtype=np.float32))
