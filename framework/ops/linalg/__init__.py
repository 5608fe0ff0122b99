"""Linear algebra: matmul and friends, einsum, norms. `TENSOR_METHODS` binds method forms."""

from framework.ops.linalg.einsum import einsum
from framework.ops.linalg.matmul import bmm, dot, matmul, mm, outer
from framework.ops.linalg.norm import norm, vector_norm
from framework.ops.tensor_binding import reflected

__all__ = ["bmm", "dot", "einsum", "matmul", "mm", "norm", "outer", "vector_norm"]

TENSOR_METHODS = {
    "__matmul__": matmul,
    "__rmatmul__": reflected(matmul),
    "bmm": bmm,
    "dot": dot,
    "matmul": matmul,
    "mm": mm,
    "norm": norm,
    "outer": outer,
}
