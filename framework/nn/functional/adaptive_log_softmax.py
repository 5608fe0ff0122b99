"""`adaptive_log_softmax_with_loss` (Grave et al., efficient softmax for large vocabularies),
as in `paddle.nn.functional`.

The frequent classes `[0, cutoffs[0])` and one entry per rarer cluster form the head; a label in
cluster i scores `log p(cluster i) + log p(label | cluster i)`, the second term from that
cluster's two-matrix tail, computed only for the rows whose label falls in it. Composed from
linear, log_softmax, index_select and scatter_nd, so gradients of any order exist.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.common import linear
from framework.nn.functional.softmax import log_softmax
from framework.ops.manipulation import index_select, scatter_nd, take_along_axis


def cluster_log_prob(input: Tensor, projection: Sequence[Tensor]) -> Tensor:
    """`log_softmax(input @ projection[0] @ projection[1])`: one cluster's conditional log
    probabilities, `[B, cluster size]`."""
    return log_softmax(linear(linear(input, projection[0]), projection[1]), axis=1)


def adaptive_log_softmax_with_loss(
    input: Tensor,
    label: Tensor,
    head_weight: Tensor,
    tail_weights: Sequence[Sequence[Tensor]],
    cutoffs: Sequence[int],
    head_bias: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """Adaptive softmax log-probabilities and loss, as
    `paddle.nn.functional.adaptive_log_softmax_with_loss`.

    Log probability of each label and the mean negative log likelihood.

    input `[B, in_features]` (or `[in_features]` with a 0-D label), label `[B]` int in
    `[0, n_classes)`; head_weight `[in_features, cutoffs[0] + n_clusters]`; tail_weights[i] is
    `[in_features, h_i]` and `[h_i, cluster size]`; `cutoffs` ends with n_classes (as the
    layer's). Returns `(output [B], loss scalar)` in the input's dtype.

    Args:
        input (Tensor): `[B, in_features]` (or `[in_features]`); float32 or float64.
        label (Tensor): int64 `[B]` in `[0, n_classes)`.
        head_weight (Tensor): `[in_features, cutoffs[0] + n_clusters]`.
        tail_weights (list): per cluster, `[in_features, h_i]` and `[h_i, cluster size]` weights.
        cutoffs (list): ascending class cut points, ending with n_classes.
        head_bias (Tensor, optional): `[cutoffs[0] + n_clusters]`. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        tuple: `(output, loss)`, the label log-probabilities `[B]` and their mean negative, a
        scalar.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([2, 4])
        >>> head = paddle.zeros([4, 3])  # 2 head classes + 1 cluster
        >>> tails = [[paddle.zeros([4, 2]), paddle.zeros([2, 2])]]
        >>> label = paddle.to_tensor([0, 3])
        >>> out, loss = F.adaptive_log_softmax_with_loss(x, label, head, tails, [2, 4])
        >>> print(out)
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [-1.09861231, -1.79175949])
        >>> print(loss)
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               1.44518590)
    """
    if label.ndim == 1:
        if input.ndim != 2 or input.shape[0] != label.shape[0]:
            raise ValueError(
                "adaptive_log_softmax_with_loss: a 1-D label needs a 2-D input of the same "
                f"batch size, got input {input.shape} and label {label.shape}"
            )
    elif label.ndim == 0:
        if input.ndim != 1:
            raise ValueError(
                "adaptive_log_softmax_with_loss: a 0-D label needs a 1-D input, got input "
                f"{input.shape}"
            )
    else:
        raise ValueError("adaptive_log_softmax_with_loss: 0-D or 1-D label expected")
    batched = label.ndim == 1
    if not batched:
        input, label = input.unsqueeze(0), label.reshape([1])
    xp = get_array_module(input._data)
    labels = np.asarray(label.numpy(), dtype=np.int64)
    bounds = [0, *[int(c) for c in cutoffs]]
    if labels.size and (labels.min() < 0 or labels.max() >= bounds[-1]):
        raise ValueError(
            f"adaptive_log_softmax_with_loss: label values should be in [0, {bounds[-1] - 1}], "
            f"got [{labels.min()}, {labels.max()}]"
        )
    head_column = labels.copy()  # the head entry each row scores: its class, or its cluster
    output = None
    for i in range(1, len(bounds) - 1):
        rows = np.nonzero((labels >= bounds[i]) & (labels < bounds[i + 1]))[0]
        if rows.size == 0:
            continue
        head_column[rows] = bounds[1] + i - 1
        row_index = Tensor._wrap(xp.asarray(rows))
        scores = cluster_log_prob(index_select(input, row_index, axis=0), tail_weights[i - 1])
        relative = Tensor._wrap(xp.asarray(labels[rows] - bounds[i])[:, None])
        local = take_along_axis(scores, relative, axis=1).reshape([-1])
        part = scatter_nd(row_index.unsqueeze(1), local, [labels.size])
        output = part if output is None else output + part
    head = log_softmax(linear(input, head_weight, head_bias), axis=1)
    columns = Tensor._wrap(xp.asarray(head_column)[:, None])
    head_part = take_along_axis(head, columns, axis=1).reshape([-1])
    output = head_part if output is None else head_part + output
    loss = (-output).mean()
    return (output if batched else output.reshape([])), loss
