"""Distances between vectors: pairwise_distance and cosine_similarity, as in
`paddle.nn.functional`. Composed from differentiable ops."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.linalg import vector_norm


def pairwise_distance(
    x: Tensor,
    y: Tensor,
    p: float = 2.0,
    epsilon: float = 1e-6,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The p-norm distance of row pairs, as `paddle.nn.functional.pairwise_distance`.

    `||x - y + epsilon||_p` over the last axis; x and y broadcast.

    Args:
        x (Tensor): `[N, D]` or `[D]`; float32 or float64.
        y (Tensor): broadcast with `x`, its dtype.
        p (float, optional): the norm's order. Default: 2.0.
        epsilon (float, optional): added to `x - y`. Default: 1e-06.
        keepdim (bool, optional): keep the last axis with size 1. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N]` (`[N, 1]` with `keepdim`), the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[0.0, 0.0], [1.0, 1.0]])
        >>> print(F.pairwise_distance(x, paddle.to_tensor([[3.0, 4.0], [1.0, 1.0]])))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [4.99999857, 0.00000141])
    """
    return vector_norm(x - y + epsilon, p=p, axis=-1, keepdim=keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, axis: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine similarity along an axis, as `paddle.nn.functional.cosine_similarity`.

    `x1 . x2 / max(||x1|| ||x2||, eps)` along `axis`; x1 and x2 broadcast.

    Args:
        x1 (Tensor): any shape; float32 or float64.
        x2 (Tensor): broadcast with `x1`, its dtype.
        axis (int, optional): the axis compared. Default: 1.
        eps (float, optional): the smallest norm product. Default: 1e-08.

    Returns:
        Tensor: the broadcast shape without `axis`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> a = paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> b = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0]])
        >>> print(F.cosine_similarity(a, b))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.70710677, 1.        ])
    """
    dot = (x1 * x2).sum(axis=axis)
    norms = ((x1 * x1).sum(axis=axis) * (x2 * x2).sum(axis=axis)).clip(min=eps * eps).sqrt()
    return dot / norms
