"""Connectionist Temporal Classification loss, as `paddle.nn.functional.ctc_loss`.

The loss of one sequence is `-log p(label | input)`, the sum over every alignment of the label
(blanks between and around characters, characters repeated) of the product of per-step
probabilities. The forward (alpha) and backward (beta) recursions run in log space over the
extended label `blank, l1, blank, l2, ..., blank`, vectorised over the batch; the gradient
with respect to the log-probabilities is minus the posterior occupancy of each class.

As Paddle's warp-ctc kernel, the input is taken as unnormalised scores and log-softmaxed over
classes first, which leaves log-probabilities unchanged: the gradient that reaches the input
is `softmax - occupancy`, as in Paddle.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.softmax import log_softmax


def _logsumexp3(xp, a, b, c):
    top = xp.maximum(xp.maximum(a, b), c)
    safe = xp.where(xp.isneginf(top), 0, top)
    with _quiet(xp):
        total = xp.exp(a - safe) + xp.exp(b - safe) + xp.exp(c - safe)
        return xp.where(xp.isneginf(top), -xp.inf, safe + xp.log(total))


class _quiet:
    """`exp(-inf - 0)` and `log(0)` are expected here (impossible paths): silence NumPy."""

    def __init__(self, xp) -> None:
        self.xp = xp

    def __enter__(self) -> None:
        self.state = self.xp.seterr(all="ignore") if hasattr(self.xp, "seterr") else None

    def __exit__(self, *exc: object) -> None:
        if self.state is not None:
            self.xp.seterr(**self.state)


class CTCNegativeLogLikelihood(Function):
    """Per-sequence `-log p(label | input)` from `[T, N, C]` log-probabilities: `[N]`.

    Sequences no alignment can produce (a label longer than its input allows) get an infinite
    loss (0 with `zero_infinity`) and a zero gradient."""

    def __init__(
        self,
        labels,
        input_lengths,
        label_lengths,
        blank: int,
        norm_by_times: bool = False,
        zero_infinity: bool = False,
    ) -> None:
        self.labels = labels
        self.input_lengths = input_lengths
        self.label_lengths = label_lengths
        self.blank = blank
        self.norm_by_times = norm_by_times
        self.zero_infinity = zero_infinity

    def forward(self, log_probs):
        xp = get_array_module(log_probs)
        steps, batch, classes = log_probs.shape
        extended = self._extended_labels(xp)  # [N, S]
        width = extended.shape[1]
        valid = xp.arange(width)[None, :] < (2 * self.label_lengths + 1)[:, None]
        emit = xp.take_along_axis(log_probs, extended[None, :, :].repeat(steps, 0), axis=2)
        emit = xp.where(valid[None], emit, -xp.inf)  # [T, N, S]
        skip = xp.zeros((batch, width), dtype=bool)  # s may come from s - 2
        skip[:, 2:] = (extended[:, 2:] != self.blank) & (extended[:, 2:] != extended[:, :-2])

        neg_inf = xp.full((batch, 1), -xp.inf, dtype=log_probs.dtype)
        neg_inf2 = xp.full((batch, 2), -xp.inf, dtype=log_probs.dtype)
        alpha = xp.full((steps, batch, width), -xp.inf, dtype=log_probs.dtype)
        alpha[0, :, :2] = emit[0, :, :2]
        for t in range(1, steps):
            prev = alpha[t - 1]
            one = xp.concatenate([neg_inf, prev[:, :-1]], axis=1)
            two = xp.where(skip, xp.concatenate([neg_inf2, prev[:, :-2]], axis=1), -xp.inf)
            alpha[t] = _logsumexp3(xp, prev, one, two) + emit[t]

        beta = xp.full((steps, batch, width), -xp.inf, dtype=log_probs.dtype)
        rows = xp.arange(batch)
        last = 2 * self.label_lengths  # index of the final blank
        ends = xp.stack([last, xp.maximum(last - 1, 0)], axis=1)  # [N, 2]
        start = xp.full((batch, width), -xp.inf, dtype=log_probs.dtype)
        skip_next = xp.zeros((batch, width), dtype=bool)  # s may go to s + 2
        skip_next[:, :-2] = skip[:, 2:]
        for t in range(steps - 1, -1, -1):
            if t + 1 < steps:
                nxt = beta[t + 1]
                one = xp.concatenate([nxt[:, 1:], neg_inf], axis=1)
                two = xp.where(skip_next, xp.concatenate([nxt[:, 2:], neg_inf2], axis=1), -xp.inf)
                beta[t] = _logsumexp3(xp, nxt, one, two) + emit[t]
            begins = self.input_lengths == t + 1  # sequences whose last step is t
            if bool(begins.any()):
                init = start.copy()
                init[rows[:, None], ends] = xp.take_along_axis(emit[t], ends, axis=1)
                beta[t] = xp.where(begins[:, None], init, beta[t])

        log_likelihood = _logsumexp3(
            xp, beta[0, :, 0], beta[0, :, 1], xp.full(batch, -xp.inf, dtype=log_probs.dtype)
        )
        empty = xp.where(self.label_lengths == 0, 0.0, -xp.inf)  # no steps: only "" fits
        log_likelihood = xp.where(self.input_lengths > 0, log_likelihood, empty)
        self._gradient = self._occupancy_gradient(
            xp, alpha, beta, emit, extended, log_likelihood, classes
        )
        loss = -log_likelihood
        if self.zero_infinity:
            loss = xp.where(xp.isinf(loss), 0.0, loss)
        return loss.astype(log_probs.dtype)

    def _extended_labels(self, xp):
        batch = self.labels.shape[0]
        width = 2 * self.labels.shape[1] + 1
        extended = xp.full((batch, width), self.blank, dtype=xp.int64)
        extended[:, 1::2] = self.labels
        padding = xp.arange(width)[None, :] >= (2 * self.label_lengths + 1)[:, None]
        extended[padding] = self.blank  # whatever pads the labels, it indexes no class
        return extended

    def _occupancy_gradient(self, xp, alpha, beta, emit, extended, log_likelihood, classes):
        """d loss / d log_probs = -(posterior probability of each class at each step)."""
        steps, batch, width = alpha.shape
        feasible = xp.isfinite(log_likelihood)
        norm = xp.where(feasible, log_likelihood, 0)
        with _quiet(xp):
            posterior = xp.exp(alpha + beta - emit - norm[None, :, None])
        posterior = xp.where(xp.isfinite(posterior) & feasible[None, :, None], posterior, 0)
        flat = (
            xp.arange(steps)[:, None, None] * batch + xp.arange(batch)[None, :, None]
        ) * classes + extended[None]
        occupancy = xp.bincount(
            flat.reshape(-1), weights=posterior.reshape(-1), minlength=steps * batch * classes
        )
        gradient = -occupancy.reshape(steps, batch, classes).astype(alpha.dtype)
        if self.norm_by_times:
            gradient /= xp.maximum(self.input_lengths, 1).astype(alpha.dtype)[None, :, None]
        return gradient

    def backward(self, gy: Tensor) -> Tensor:
        return Tensor._wrap(self._gradient) * gy.unsqueeze(0).unsqueeze(2)


def _as_array(value, name: str, xp):
    data = xp.asarray(value._data if isinstance(value, Tensor) else value)
    if data.dtype.kind not in "iu":
        raise ValueError(f"ctc_loss: {name} must be an integer tensor, got {data.dtype}")
    return data.astype(xp.int64)


def ctc_loss(
    log_probs: Tensor,
    labels: Tensor,
    input_lengths: Tensor,
    label_lengths: Tensor,
    blank: int = 0,
    reduction: str = "mean",
    norm_by_times: bool = False,
    zero_infinity: bool = False,
) -> Tensor:
    """The CTC loss of padded sequences, as `paddle.nn.functional.ctc_loss`.

    Args:
        log_probs (Tensor): `[T, N, C]` scores, time first; float32 or float64. They are
            log-softmaxed over `C` inside, so logits and log-probabilities both work.
        labels (Tensor): `[N, L]` int32 or int64, padded; only the first `label_lengths[n]`
            entries of row `n` count, and they must not be `blank`.
        input_lengths (Tensor): `[N]` int, each in `[0, T]`.
        label_lengths (Tensor): `[N]` int, each in `[0, L]`.
        blank (int, optional): the blank class, in `[0, C)`. Default: 0.
        reduction (str, optional): 'mean' (each loss divided by its label length, at least 1,
            then averaged), 'sum' or 'none'. Default: 'mean'.
        norm_by_times (bool, optional): divide each sequence's gradient (not its loss) by its
            input length. Default: False.
        zero_infinity (bool, optional): give impossible sequences a loss of 0 instead of inf
            (their gradient is 0 either way). Default: False.

    Returns:
        Tensor: a scalar (shape `[]`), or `[N]` with `reduction='none'`; the dtype of
        `log_probs`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> logits = paddle.zeros([4, 2, 3])
        >>> labels = paddle.to_tensor([[1, 2], [1, 1]], dtype="int32")
        >>> lengths, label_lengths = paddle.to_tensor([4, 4]), paddle.to_tensor([2, 2])
        >>> print(F.ctc_loss(logits, labels, lengths, label_lengths, reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [1.68639898, 2.78501129])
    """
    check_reduction(reduction, "ctc_loss")
    xp = get_array_module(log_probs._data)
    if log_probs.ndim != 3 or log_probs._data.dtype.kind != "f":
        raise ValueError(
            f"ctc_loss: log_probs must be a [T, N, C] float tensor, got {log_probs.shape} "
            f"{log_probs.dtype}"
        )
    steps, batch, classes = log_probs.shape
    label_data = _as_array(labels, "labels", xp)
    inputs_n = _as_array(input_lengths, "input_lengths", xp).reshape(-1)
    labels_n = _as_array(label_lengths, "label_lengths", xp).reshape(-1)
    _check(label_data, inputs_n, labels_n, steps, batch, classes, blank, xp)
    scores = log_softmax(log_probs, axis=2)
    loss = CTCNegativeLogLikelihood(
        label_data, inputs_n, labels_n, blank, norm_by_times, zero_infinity
    ).apply(scores)
    if reduction == "mean":
        divisor = xp.maximum(labels_n, 1).astype(loss._data.dtype)
        return (loss / Tensor._wrap(divisor)).mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _check(labels, input_lengths, label_lengths, steps, batch, classes, blank, xp) -> None:
    if labels.ndim != 2 or labels.shape[0] != batch:
        raise ValueError(f"ctc_loss: labels must be [N={batch}, L], got {tuple(labels.shape)}")
    for name, lengths, top in (
        ("input_lengths", input_lengths, steps),
        ("label_lengths", label_lengths, labels.shape[1]),
    ):
        if lengths.shape != (batch,):
            raise ValueError(f"ctc_loss: {name} must have {batch} entries, got {lengths.shape}")
        if bool((lengths < 0).any()) or bool((lengths > top).any()):
            raise ValueError(f"ctc_loss: every {name} entry must be in [0, {top}]")
    if not 0 <= blank < classes:
        raise ValueError(f"ctc_loss: blank {blank} is not a class in [0, {classes})")
    used = xp.arange(labels.shape[1])[None, :] < label_lengths[:, None]
    if bool(((labels < 0) | (labels >= classes))[used].any()):
        raise ValueError(f"ctc_loss: labels must be class indices in [0, {classes})")
    if bool((labels == blank)[used].any()):
        raise ValueError(f"ctc_loss: labels must not contain the blank class {blank}")
