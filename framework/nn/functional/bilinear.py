"""`bilinear`: `y[b, o] = x1[b] @ weight[o] @ x2[b] + bias[o]` (Paddle's API)."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.linalg import matmul
from framework.ops.manipulation import transpose


def bilinear(
    x1: Tensor, x2: Tensor, weight: Tensor, bias: Tensor | None = None, name: str | None = None
) -> Tensor:
    """Bilinear form per output feature. x1: `[B, in1]`, x2: `[B, in2]`, weight:
    `[out, in1, in2]`, bias: `[1, out]` (or `[out]`) -> `[B, out]`, float dtypes.

    One matrix product `x1 @ weight` (as `[in1, out * in2]`) then a row-wise dot with x2.

        F.bilinear(framework.randn([4, 5]), framework.randn([4, 6]), framework.randn([3, 5, 6]))
        # shape [4, 3]
    """
    if x1.ndim != 2 or x2.ndim != 2 or weight.ndim != 3:
        raise ValueError(
            f"bilinear: expected x1 [B, in1], x2 [B, in2] and weight [out, in1, in2], got "
            f"{x1.shape}, {x2.shape} and {weight.shape}"
        )
    out, in1, in2 = weight.shape
    if x1.shape[1] != in1 or x2.shape[1] != in2 or x1.shape[0] != x2.shape[0]:
        raise ValueError(
            f"bilinear: x1 {x1.shape} and x2 {x2.shape} do not fit weight {weight.shape} "
            "(x1 [B, in1], x2 [B, in2])"
        )
    flat = transpose(weight, [1, 0, 2]).reshape([in1, out * in2])
    y = (matmul(x1, flat).reshape([-1, out, in2]) * x2.unsqueeze(1)).sum(axis=-1)
    if bias is not None:
        if bias.size != out:
            raise ValueError(f"bilinear: bias must have {out} elements, got shape {bias.shape}")
        y = y + bias.reshape([1, out])
    return y
