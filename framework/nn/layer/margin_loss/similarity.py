"""Distance and similarity layers: PairwiseDistance and CosineSimilarity, as in `paddle.nn`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import distance
from framework.nn.layer.layers import Layer


class PairwiseDistance(Layer):
    """The p-norm distance of row pairs, as `paddle.nn.PairwiseDistance`.

    `||x - y + epsilon||_p` over the last axis.

    Args:
        p (float, optional): the norm's order. Default: 2.0.
        epsilon (float, optional): added to `x - y`. Default: 1e-06.
        keepdim (bool, optional): keep the last axis with size 1. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, D]` or `[D]`; float32 or float64.
        - y: broadcast with `x`.
        - output: `[N]` (`[N, 1]` with `keepdim`).

    Examples:
        >>> import framework as paddle
        >>> dist = paddle.nn.PairwiseDistance()
        >>> print(dist(paddle.to_tensor([[0.0, 0.0]]), paddle.to_tensor([[3.0, 4.0]])))
        Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [4.99999857])
    """

    def __init__(
        self, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self.p = p
        self.epsilon = epsilon
        self.keepdim = keepdim

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        return distance.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        return f"p={self.p}, epsilon={self.epsilon}, keepdim={self.keepdim}"


class CosineSimilarity(Layer):
    """Cosine similarity along an axis, as `paddle.nn.CosineSimilarity`.

    Cosine similarity of two inputs along `axis` (default 1).

    Args:
        axis (int, optional): the axis compared. Default: 1.
        eps (float, optional): the smallest norm product. Default: 1e-08.

    Shape:
        - x1: any shape; float32 or float64.
        - x2: broadcast with `x1`.
        - output: the broadcast shape without `axis`.

    Examples:
        >>> import framework as paddle
        >>> a = paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> b = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0]])
        >>> print(paddle.nn.CosineSimilarity(axis=1)(a, b))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.70710677, 1.        ])
    """

    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis = axis
        self._eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return distance.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"
