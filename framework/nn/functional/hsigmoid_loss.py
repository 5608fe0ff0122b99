"""`hsigmoid_loss` (hierarchical sigmoid), as in `paddle.nn.functional`.

Each class is a leaf of a binary tree; its loss is a sum of binary cross-entropies, one per
inner node on its path: `softplus(z_j) - bit_j * z_j` with `z_j = x . weight[node_j] +
bias[node_j]`, clipped to [-40, 40]. The default tree is Paddle's complete one (class c has
code `c + num_classes`: node `(code >> (j + 1)) - 1`, bit `(code >> j) & 1`); `path_table` /
`path_code` give a custom one (a row's path ends at its first negative node).

As Paddle's kernel, every row has `code_length` terms, and a position past the end of a
shorter path has `z = 0`, so it adds `log 2`: kept so values match Paddle (it moves no
gradient). Composed from gathers, a product, clip and softplus, so gradients of any order exist.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.softplus import softplus
from framework.ops.manipulation import clip, index_select


def _default_paths(labels: np.ndarray, num_classes: int):
    code_length = int(num_classes - 1).bit_length()
    codes = labels[:, None] + num_classes
    steps = np.arange(code_length)[None, :]
    nodes = (codes >> (steps + 1)) - 1
    bits = (codes >> steps) & 1
    on_path = nodes >= 0  # the root is node 0; past a path's end the shift reaches -1
    return nodes, bits, on_path


def _custom_paths(path_table: Tensor, path_code: Tensor, batch: int):
    nodes = np.asarray(path_table.numpy(), dtype=np.int64).reshape(batch, -1)
    bits = np.asarray(path_code.numpy(), dtype=np.int64).reshape(batch, -1)
    on_path = np.cumprod(nodes >= 0, axis=1).astype(bool)
    return nodes, bits, on_path


def hsigmoid_loss(
    input: Tensor,
    label: Tensor,
    num_classes: int,
    weight: Tensor,
    bias: Tensor | None = None,
    path_table: Tensor | None = None,
    path_code: Tensor | None = None,
    is_sparse: bool = False,
    name: str | None = None,
) -> Tensor:
    """Hierarchical sigmoid cost `[N, 1]` of input `[N, D]` and int label `[N]` / `[N, 1]`.

    weight is `[num_classes - 1, D]` (`[num_nodes, D]` with a custom tree), bias `[same, 1]`;
    `path_table` / `path_code` (`[N, L]` int) describe a custom tree. `is_sparse` is accepted
    for Paddle's API and changes nothing here.

        F.hsigmoid_loss(framework.rand([4, 3]), framework.to_tensor([0, 1, 4, 5]), 6,
                        framework.rand([5, 3]))   # shape [4, 1]
    """
    if num_classes < 2:
        raise ValueError(f"hsigmoid_loss: expected num_classes >= 2, got {num_classes}")
    if (path_table is None) != (path_code is None):
        raise ValueError("hsigmoid_loss: give both path_table and path_code, or neither")
    if input.ndim != 2:
        raise ValueError(f"hsigmoid_loss: expected a 2-D input [N, D], got {input.shape}")
    batch = input.shape[0]
    labels = np.asarray(label.numpy(), dtype=np.int64).reshape(-1)
    if labels.size != batch:
        raise ValueError(
            f"hsigmoid_loss: expected {batch} labels for input {input.shape}, got {label.shape}"
        )
    if path_table is None:
        if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
            raise ValueError(f"hsigmoid_loss: labels must lie in [0, {num_classes})")
        nodes, bits, on_path = _default_paths(labels, num_classes)
    else:
        nodes, bits, on_path = _custom_paths(path_table, path_code, batch)
    xp = get_array_module(input._data)
    dtype = input._data.dtype
    flat = Tensor._wrap(xp.asarray(np.where(on_path, nodes, 0).reshape(-1)))
    rows = index_select(weight, flat, axis=0).reshape([batch, -1, input.shape[1]])
    z = (rows * input.unsqueeze(1)).sum(axis=-1)
    if bias is not None:
        z = z + index_select(bias.reshape([-1]), flat, axis=0).reshape([batch, -1])
    mask = Tensor._wrap(xp.asarray(on_path, dtype=dtype))
    z = clip(z * mask, -40.0, 40.0)
    targets = Tensor._wrap(xp.asarray(bits * on_path, dtype=dtype))
    return (softplus(z, 1.0, 40.0) - targets * z).sum(axis=1, keepdim=True)
