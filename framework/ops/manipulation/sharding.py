"""shard_index: labels re-indexed into one shard of a sharded class range."""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def shard_index(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    index_num: int,
    nshards: int,
    shard_id: int,
    ignore_value: int = -1,
) -> Tensor:
    """Map integer labels in [0, index_num) onto shard `shard_id` of `nshards` equal shards
    (each `ceil(index_num / nshards)` wide): a label in that shard becomes its offset within
    it, any other label `ignore_value`. Same shape and dtype as `input`.

        framework.shard_index(framework.to_tensor([[16], [1]]), 20, 2, 0)   # [[-1], [1]]
    """
    if input._data.dtype.kind not in "iu":
        raise TypeError(f"shard_index: input must be an integer tensor, got {input.dtype}")
    if not 0 <= shard_id < nshards:
        raise ValueError(f"shard_index: shard_id ({shard_id}) must be in [0, {nshards})")
    xp = get_array_module(input._data)
    labels = input._data
    size = (index_num + nshards - 1) // nshards
    inside = (labels // size) == shard_id
    result = xp.where(inside, labels - shard_id * size, ignore_value).astype(labels.dtype)
    return Tensor._wrap(result)
