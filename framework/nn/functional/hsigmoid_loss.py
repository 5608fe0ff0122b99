"""hsigmoid_loss: hierarchical sigmoid, a softmax replacement costing O(log C) per sample.

Each class is a leaf of a binary tree whose inner nodes are binary classifiers (a row of
`weight` and of `bias`). A sample's loss is the binary cross-entropy of the classifiers on its
class's path. Paddle's default tree numbers class `c` as `c + num_classes` in heap order: the
inner nodes on its path are the prefixes of that code, the branch taken at each is the next
bit. Paddle adds `log(2)` for each unused position of a path shorter than the longest one (its
kernel's known quirk: a constant, so gradients are unchanged); we keep that so values match.

Composed from differentiable ops (a gather of weight rows, softplus), so gradients of any
order reach `input`, `weight` and `bias`.
"""

from __future__ import annotations

import math

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.softplus import softplus
from framework.ops.manipulation import clip, gather

__all__ = ["hsigmoid_loss"]

_PRE_ACTIVATION_LIMIT = 40.0  # Paddle clips the classifier outputs to [-40, 40]


def _default_tree_paths(labels: np.ndarray, num_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """`(path_table, path_code)` `[N, L]` of Paddle's default tree; unused entries are -1."""
    length = int(num_classes - 1).bit_length()
    codes = labels.astype(np.int64) + num_classes
    bits = np.arange(length)
    path_length = np.floor(np.log2(codes)).astype(np.int64)  # highest set bit
    used = bits[None, :] < path_length[:, None]
    table = np.where(used, (codes[:, None] >> (bits[None, :] + 1)) - 1, -1)
    code = np.where(used, (codes[:, None] >> bits[None, :]) & 1, -1)
    return table, code


def hsigmoid_loss(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    label: Tensor,
    num_classes: int,
    weight: Tensor,
    bias: Tensor | None = None,
    path_table: Tensor | None = None,
    path_code: Tensor | None = None,
    is_sparse: bool = False,
    name: str | None = None,
) -> Tensor:
    """The hierarchical sigmoid loss, as `paddle.nn.functional.hsigmoid_loss`.

    Hierarchical sigmoid loss of features `input` `[N, D]` (float32 or float64) for the
    integer classes `label` `[N, 1]` (or `[N]`).

    `weight` is `[num_classes - 1, D]` and `bias` `[num_classes - 1, 1]`, one row per inner
    node. With `path_table` and `path_code` (`[N, L]` int64, each row the sample's inner-node
    indices and branch bits, ended by -1) a custom tree is used and `num_classes` counts its
    inner nodes. Returns the per-sample loss `[N, 1]` in the input's dtype. `is_sparse` only
    matters to Paddle's sparse gradients; here gradients are dense.

    Args:
        input (Tensor): features `[N, D]`; float32 or float64.
        label (Tensor): int64 classes `[N, 1]` or `[N]`.
        num_classes (int): the classes (the default tree's leaves), at least 2.
        weight (Tensor): `[num_classes - 1, D]`, one row per inner node.
        bias (Tensor, optional): `[num_classes - 1, 1]`. Default: None.
        path_table (Tensor, optional): `[N, L]` int64 inner-node ids of a custom tree, ended by -1.
            Default: None.
        path_code (Tensor, optional): `[N, L]` int64 branch bits of a custom tree. Default: None.
        is_sparse (bool, optional): accepted; gradients are dense. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the per-sample loss `[N, 1]`, the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([2, 3])
        >>> w = paddle.zeros([3, 3])  # 4 classes -> 3 inner nodes
        >>> print(F.hsigmoid_loss(x, paddle.to_tensor([[0], [3]]), 4, w))
        Tensor(shape=[2, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1.38629436],
                [1.38629436]])
    """
    if num_classes < 2:
        raise ValueError(f"Expected num_classes >= 2 (got {num_classes})")
    if input.ndim != 2:
        raise ValueError(f"hsigmoid_loss: expected a 2-D input [N, D], got shape {input.shape}")
    if (path_table is None) != (path_code is None):
        raise ValueError("hsigmoid_loss: pass both path_table and path_code, or neither")
    rows = input.shape[0]
    if path_table is None:
        labels = label.numpy().reshape(-1)
        if labels.shape[0] != rows or labels.dtype.kind not in "iu":
            raise ValueError(f"hsigmoid_loss: label must be {rows} integers, got {label.shape}")
        if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
            raise ValueError(f"hsigmoid_loss: labels must lie in [0, {num_classes})")
        table, code = _default_tree_paths(labels, num_classes)
    else:
        table, code = path_table.numpy().astype(np.int64), path_code.numpy().astype(np.int64)
        if table.shape != code.shape or table.shape[0] != rows:
            raise ValueError(
                f"hsigmoid_loss: path_table and path_code must both be [{rows}, L], got "
                f"{table.shape} and {code.shape}"
            )
    used = np.cumprod(table >= 0, axis=1).astype(bool)
    index = np.where(used, table, 0)
    xp = get_array_module(input._data)
    dtype = input._data.dtype

    def constant(array) -> Tensor:
        return Tensor._wrap(xp.asarray(array, dtype=dtype))

    length = table.shape[1]
    flat_index = Tensor._wrap(xp.asarray(index.reshape(-1)))
    rows_of_weight = gather(weight, flat_index).reshape([rows, length, -1])
    pre = (rows_of_weight * input.unsqueeze(1)).sum(axis=-1)
    if bias is not None:
        pre = pre + gather(bias.reshape([-1]), flat_index).reshape([rows, length])
    # Clip the value as Paddle does, but let the gradient through as its kernel does.
    pre = pre + (clip(pre, -_PRE_ACTIVATION_LIMIT, _PRE_ACTIVATION_LIMIT) - pre).detach()
    mask = constant(used)
    branch = constant(np.where(used, code, 0))
    per_node = (softplus(pre) - branch * pre) * mask
    unused = constant((length - used.sum(axis=1, keepdims=True)) * math.log(2.0))
    return per_node.sum(axis=1, keepdim=True) + unused
