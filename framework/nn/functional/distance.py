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
    """`||x - y + epsilon||_p` over the last axis; x and y broadcast.

    F.pairwise_distance(framework.randn([8, 16]), framework.randn([8, 16])).shape  # [8]
    """
    return vector_norm(x - y + epsilon, p=p, axis=-1, keepdim=keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, axis: int = 1, eps: float = 1e-8) -> Tensor:
    """`x1 . x2 / max(||x1|| ||x2||, eps)` along `axis`; x1 and x2 broadcast.

    F.cosine_similarity(framework.randn([4, 8]), framework.randn([4, 8])).shape  # [4]
    """
    dot = (x1 * x2).sum(axis=axis)
    norms = ((x1 * x1).sum(axis=axis) * (x2 * x2).sum(axis=axis)).clip(min=eps * eps).sqrt()
    return dot / norms
