"""`bilinear`: `y[b, o] = x1[b] @ weight[o] @ x2[b] + bias[o]` (Paddle's API)."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.linalg import matmul
from framework.ops.manipulation import transpose


def bilinear(
    x1: Tensor, x2: Tensor, weight: Tensor, bias: Tensor | None = None, name: str | None = None
) -> Tensor:
    """The bilinear form `x1 W x2 + b`, as `paddle.nn.functional.bilinear`.

    Bilinear form per output feature. x1: `[B, in1]`, x2: `[B, in2]`, weight:
    `[out, in1, in2]`, bias: `[1, out]` (or `[out]`) -> `[B, out]`, float dtypes.

    One matrix product `x1 @ weight` (as `[in1, out * in2]`) then a row-wise dot with x2.

    Args:
        x1 (Tensor): `[B, in1]`; float32 or float64.
        x2 (Tensor): `[B, in2]`, the dtype of `x1`.
        weight (Tensor): `[out, in1, in2]`.
        bias (Tensor, optional): `[1, out]` or `[out]`. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[B, out]`, `out[b, o] = x1[b] @ weight[o] @ x2[b] + bias[o]`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x1, x2 = paddle.to_tensor([[1.0, 2.0]]), paddle.to_tensor([[3.0]])
        >>> print(F.bilinear(x1, x2, paddle.ones([2, 2, 1])))
        Tensor(shape=[1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[9., 9.]])
        >>> F.bilinear(paddle.ones([4, 5]), paddle.ones([4, 6]), paddle.ones([3, 5, 6])).shape
        paddle.Size([4, 3])
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
