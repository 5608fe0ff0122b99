"""Shape manipulation, indexing and casting. `TENSOR_METHODS` binds method forms onto Tensor."""

from framework.ops.manipulation.broadcast import broadcast_to, expand, sum_to

__all__ = ["broadcast_to", "expand", "sum_to"]

TENSOR_METHODS = {
    "broadcast_to": broadcast_to,
    "expand": expand,
}
