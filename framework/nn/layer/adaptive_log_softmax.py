"""AdaptiveLogSoftmaxWithLoss, as in `paddle.nn` (see `F.adaptive_log_softmax_with_loss`)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn.functional.adaptive_log_softmax import (
    adaptive_log_softmax_with_loss,
    cluster_log_prob,
)
from framework.nn.functional.common import linear
from framework.nn.functional.softmax import log_softmax
from framework.nn.layer.container import LayerList, ParameterList
from framework.nn.layer.layers import Layer
from framework.ops.manipulation import concat


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax with its loss, as `paddle.nn.AdaptiveLogSoftmaxWithLoss`.

    Adaptive softmax over `n_classes` split by `cutoffs` into a head (the frequent classes
    plus one entry per cluster) and clusters with smaller projections (`in_features //
    div_value ** (i + 1)` wide). `forward(input [B, in_features], label [B])` returns
    `(log p(label) [B], mean NLL)`; `log_prob` gives `[B, n_classes]`, `predict` the argmax.

    Parameters as Paddle's: `head_weight` `[in_features, cutoffs[0] + n_clusters]`, `head_bias`
    (with `head_bias=True`), `tail_weights[i]` = `[in_features, h_i]`, `[h_i, cluster size]`.
    Paddle keeps the tails in a plain list, so they are neither in its `parameters()` nor in its
    state dict; here they are registered (as `tail_weights.i.0/1`), so they train and save.

    Args:
        in_features (int): the input's features.
        n_classes (int): the classes.
        cutoffs (list|tuple): ascending cut points between the head and the clusters.
        weight_attr (ParamAttr, optional): the weights' attribute. Default: None.
        bias_attr (ParamAttr, optional): the biases' attribute. Default: None.
        div_value (float, optional): each cluster's projection shrinks by it. Default: 4.0.
        head_bias (bool, optional): give the head a bias. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[B, in_features]`; float32 or float64.
        - label: `[B]` int64 in `[0, n_classes)`.
        - output: `(log p(label) [B], mean NLL, a scalar)`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[4, 8])
        >>> out, loss = layer(paddle.ones([3, 8]), paddle.to_tensor([0, 5, 9]))
        >>> out.shape, loss.shape
        (paddle.Size([3]), paddle.Size([]))
        >>> layer.log_prob(paddle.ones([3, 8])).exp().sum(axis=1).round(4).tolist()
        [1.0, 1.0, 1.0]
    """

    def __init__(
        self,
        in_features: int,
        n_classes: int,
        cutoffs: Sequence[int],
        weight_attr: object = None,
        bias_attr: object = None,
        div_value: float = 4.0,
        head_bias: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if (
            not cutoffs
            or cutoffs != sorted(cutoffs)
            or min(cutoffs) <= 0
            or max(cutoffs) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs)
            or any(int(c) != c for c in cutoffs)
        ):
            raise ValueError(
                "cutoffs should be a sequence of unique, positive integers sorted in an "
                "increasing order, where each value is between 1 and n_classes-1"
            )
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = [*cutoffs, n_classes]
        self.div_value = div_value
        self.is_head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr)
        self.head_bias = (
            self.create_parameter([self.head_size], attr=bias_attr, is_bias=True)
            if head_bias
            else None
        )
        tails = []
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            tails.append(
                ParameterList(
                    [
                        self.create_parameter([in_features, hidden], attr=weight_attr),
                        self.create_parameter([hidden, size], attr=weight_attr),
                    ]
                )
            )
        self.tail_weights = LayerList(tails)

    def forward(self, input: Tensor, label: Tensor) -> tuple[Tensor, Tensor]:
        return adaptive_log_softmax_with_loss(
            input, label, self.head_weight, self.tail_weights, self.cutoffs, self.head_bias
        )

    def log_prob(self, input: Tensor) -> Tensor:
        """`[B, n_classes]` log probabilities of every class."""
        head = log_softmax(linear(input, self.head_weight, self.head_bias), axis=1)
        parts = [head[:, : self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster = cluster_log_prob(input, self.tail_weights[i])
            parts.append(cluster + head[:, self.shortlist_size + i].unsqueeze(1))
        return concat(parts, axis=1)

    def predict(self, input: Tensor) -> Tensor:
        """The most likely class of each row. As Paddle: float32 when some row's best head
        entry is a frequent class, int64 when every row's is a cluster."""
        head = linear(input, self.head_weight, self.head_bias)
        head_best = head.argmax(axis=1)
        in_cluster = head_best.numpy() >= self.shortlist_size
        if not in_cluster.any():
            return head_best.astype("float32")
        best = self.log_prob(input).argmax(axis=1)
        return best if in_cluster.all() else best.astype("float32")
