"""RNN-Transducer loss, as `paddle.nn.functional.rnnt_loss` (Graves, 2012; FastEmit, Yu et al.).

The loss of one sequence is `-log p(label | input)` summed over every path through the
`[T, U + 1]` lattice, where a step right emits the next label and a step down emits blank; the
last step is a blank from `(T - 1, U)`. The forward (alpha) and backward (beta) recursions run
in log space on the host, one time step at a time: along the label axis each is a log-linear
recurrence, solved at once with a cumulative `logaddexp`.

As Paddle's CPU kernel (and its docs), the input is taken as log-probabilities as it is: pass
`log_softmax(logits)`, and autograd carries the gradient on to the logits, which is what
Paddle's GPU kernel (log-softmaxing inside) returns. The gradient with respect to the input is
minus the posterior of each lattice step; `fastemit_lambda` scales its label-emission part by
`1 + lambda` and leaves the loss value alone, as in warp-transducer. It is first order (the
posteriors are constants of the backward pass).
"""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor
from framework.nn.functional.loss_terms import check_reduction


def _lattice(blank_lp: np.ndarray, emit_lp: np.ndarray):
    """alpha, beta `[T, U + 1]` and the log-likelihood of one sequence (float64)."""
    steps, positions = blank_lp.shape
    alpha = np.full((steps, positions), -np.inf)
    beta = np.full((steps, positions), -np.inf)
    with np.errstate(invalid="ignore", over="ignore"):
        for t in range(steps):
            # alpha[t, u] = logaddexp(alpha[t-1, u] + blank[t-1, u], alpha[t, u-1] + emit[t, u-1])
            down = np.full(positions, -np.inf)
            if t == 0:
                down[0] = 0.0
            else:
                down = alpha[t - 1] + blank_lp[t - 1]
            run = np.concatenate([[0.0], np.cumsum(emit_lp[t])])
            alpha[t] = run + np.logaddexp.accumulate(down - run)
        for t in range(steps - 1, -1, -1):
            # beta[t, u] = logaddexp(beta[t+1, u] + blank[t, u], beta[t, u+1] + emit[t, u])
            if t == steps - 1:
                down = np.full(positions, -np.inf)
                down[-1] = blank_lp[t, -1]
            else:
                down = beta[t + 1] + blank_lp[t]
            run = np.concatenate([[0.0], np.cumsum(emit_lp[t])])
            beta[t] = np.logaddexp.accumulate((down + run)[::-1])[::-1] - run
    return alpha, beta, beta[0, 0]


class RNNTNegativeLogLikelihood(Function):
    """Per-sequence `-log p(label | input)` from `[B, T, U + 1, V]` log-probabilities: `[B]`."""

    def __init__(self, labels, input_lengths, label_lengths, blank: int, fastemit: float) -> None:
        self.labels = labels
        self.input_lengths = input_lengths
        self.label_lengths = label_lengths
        self.blank = blank
        self.fastemit = fastemit

    def forward(self, log_probs):
        xp = get_array_module(log_probs)
        lp = to_numpy(log_probs).astype(np.float64)
        costs = np.zeros(lp.shape[0])
        grad = np.zeros_like(lp)
        for b in range(lp.shape[0]):
            steps, length = int(self.input_lengths[b]), int(self.label_lengths[b])
            label = self.labels[b, :length]
            seq = lp[b, :steps, : length + 1]
            blank_lp = seq[:, :, self.blank]
            emit_lp = np.take_along_axis(seq[:, :length], label[None, :, None], axis=2)[..., 0]
            alpha, beta, loglik = _lattice(blank_lp, emit_lp)
            costs[b] = -loglik
            with np.errstate(over="ignore"):
                blank_flow = np.exp(alpha + blank_lp - loglik)  # posterior of each blank step
                blank_flow[:-1] *= np.exp(beta[1:])
                blank_flow[-1, :-1] = 0.0  # from the last frame only (T-1, U) may end
                emit_flow = np.exp(alpha[:, :-1] + emit_lp + beta[:, 1:] - loglik)
            g = grad[b, :steps, : length + 1]
            g[:, :, self.blank] -= blank_flow
            rows, cols = np.meshgrid(np.arange(steps), np.arange(length), indexing="ij")
            np.add.at(
                g,
                (rows, cols, np.broadcast_to(label, cols.shape)),
                -(1 + self.fastemit) * emit_flow,
            )
        self.grad = xp.asarray(grad.astype(log_probs.dtype))
        return xp.asarray(costs.astype(log_probs.dtype))

    def backward(self, gy: Tensor) -> Tensor:
        return gy.reshape([-1, 1, 1, 1]) * Tensor._wrap(self.grad)


def rnnt_loss(
    input: Tensor,
    label: Tensor,
    input_lengths: Tensor,
    label_lengths: Tensor,
    blank: int = 0,
    fastemit_lambda: float = 0.001,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The RNN-T loss, as `paddle.nn.functional.rnnt_loss`.

    RNN-T loss of `[B, Tmax, Umax + 1, V]` log-probabilities against `[B, Umax]` int labels,
    with each sequence's frame count `input_lengths` and label count `label_lengths` (`[B]`).

    'none' gives `[B]`, 'sum' their sum, 'mean' the sum divided by B (Paddle's rule); the input's
    dtype. `blank` is the blank class in `[0, V)`.

    Args:
        input (Tensor): log-probabilities `[B, Tmax, Umax + 1, V]`; float32 or float64.
        label (Tensor): int32 or int64 labels `[B, Umax]`, padded.
        input_lengths (Tensor): `[B]` int, the frames of each sequence.
        label_lengths (Tensor): `[B]` int, the labels of each sequence.
        blank (int, optional): the blank class, in `[0, V)`. Default: 0.
        fastemit_lambda (float, optional): the FastEmit regulariser's weight. Default: 0.001.
        reduction (str, optional): 'mean' (sum / B), 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar, or `[B]` with `reduction='none'`; the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> logp = F.log_softmax(paddle.zeros([1, 2, 2, 3]), -1)
        >>> label = paddle.to_tensor([[1]], dtype='int32')
        >>> frames = paddle.to_tensor([2], dtype='int32')
        >>> count = paddle.to_tensor([1], dtype='int32')
        >>> print(F.rnnt_loss(logp, label, frames, count, fastemit_lambda=0.0))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               2.60268974)
    """
    check_reduction(reduction, "rnnt_loss")
    if input.ndim != 4:
        raise ValueError(f"rnnt_loss: expected a 4-D input [B, T, U + 1, V], got {input.shape}")
    batch, steps, positions, classes = input.shape
    labels = to_numpy(label._data).astype(np.int64).reshape(batch, -1)
    frames = to_numpy(input_lengths._data).astype(np.int64).reshape(-1)
    counts = to_numpy(label_lengths._data).astype(np.int64).reshape(-1)
    if not 0 <= blank < classes:
        raise ValueError(f"rnnt_loss: blank must be in [0, {classes}), got {blank}")
    if frames.size != batch or counts.size != batch:
        raise ValueError("rnnt_loss: input_lengths and label_lengths need one value per sequence")
    if (frames < 1).any() or (frames > steps).any() or (counts < 0).any():
        raise ValueError(f"rnnt_loss: input_lengths must lie in [1, {steps}], got {frames}")
    if (counts + 1 > positions).any() or (counts > labels.shape[1]).any():
        raise ValueError(
            f"rnnt_loss: label_lengths {counts} do not fit the input's {positions} label "
            f"positions or the labels' {labels.shape[1]} columns"
        )
    costs = RNNTNegativeLogLikelihood(labels, frames, counts, blank, fastemit_lambda).apply(input)
    if reduction == "mean":
        return costs.sum() / batch
    if reduction == "sum":
        return costs.sum()
    return costs
