"""Lookups: `embedding` (Paddle's `nn.functional.input`; `one_hot` lives with the search ops)."""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.nn.embedding import EmbeddingLookup


def embedding(
    x: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    sparse: bool = False,
    scale_grad_by_freq: bool = False,
    name: str | None = None,
) -> Tensor:
    """Look up rows of an embedding table, as `paddle.nn.functional.embedding`.

    Rows of `weight` ([num_embeddings, dim]) picked by the integer ids in `x`.

    Positions holding `padding_idx` (negative counts from the end) read zeros and send no
    gradient. `max_norm` renormalizes the looked-up rows of `weight` in place to at most that
    `norm_type` norm first; `scale_grad_by_freq` divides each row's gradient by how often its
    id occurs in the batch. Gradients are dense (`sparse` is accepted for compatibility).

    Args:
        x (Tensor): integer ids, any shape; int32 or int64, each in `[0, num_embeddings)`.
        weight (Tensor): the table, `[num_embeddings, embedding_dim]`; float32 or float64.
        padding_idx (int, optional): an id that reads zeros and gets no gradient. Default: None.
        max_norm (float, optional): renormalise looked-up rows to at most this norm. Default: None.
        norm_type (float, optional): the norm's p for `max_norm`. Default: 2.0.
        sparse (bool, optional): accepted; gradients are dense. Default: False.
        scale_grad_by_freq (bool, optional): divide row gradients by id frequency. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `x.shape + [embedding_dim]`, the dtype of `weight`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> w = paddle.arange(6, dtype='float32').reshape([3, 2])
        >>> print(F.embedding(paddle.to_tensor([[0, 2]]), w))
        Tensor(shape=[1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 1.],
                 [4., 5.]]])
        >>> print(F.embedding(paddle.to_tensor([0, 1]), w, padding_idx=1))
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0., 1.],
                [0., 0.]])
    """
    if x._data.dtype.kind not in "iu":
        raise TypeError(f"embedding: ids must be integers, got {x.dtype}")
    if weight.ndim != 2:
        raise ValueError(f"embedding: weight must be 2-D, got shape {weight.shape}")
    rows = weight.shape[0]
    ids = x._data
    xp = get_array_module(ids)
    if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= rows):
        raise IndexError(
            f"embedding: ids must be in [0, {rows}), got values in "
            f"[{int(ids.min())}, {int(ids.max())}]"
        )
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:
            raise ValueError(f"embedding: padding_idx {padding_idx} is outside [-{rows}, {rows})")
        padding_idx = padding_idx % rows
    if max_norm is not None:
        _renormalize_rows(weight, ids, float(max_norm), float(norm_type))
    row_scale = None
    if scale_grad_by_freq:
        counts = xp.bincount(ids.reshape(-1), minlength=rows)
        row_scale = (1.0 / counts[ids.reshape(-1)]).astype(weight._data.dtype)
    return EmbeddingLookup(ids, padding_idx, row_scale).apply(weight)


def _renormalize_rows(weight: Tensor, ids, max_norm: float, norm_type: float) -> None:
    """Scale the referenced rows of `weight` whose norm exceeds `max_norm` (in place)."""
    xp = get_array_module(weight._data)
    rows = xp.unique(ids.reshape(-1))
    data = weight._data
    norms = (xp.abs(data[rows]) ** norm_type).sum(axis=1) ** (1.0 / norm_type)
    factor = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    data[rows] *= factor[:, None].astype(data.dtype)
