"""The affine map, `linear`, as in `paddle.nn.functional`."""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.tensor import Tensor
from framework.ops.nn.linear import Linear


def linear(
    x: Tensor, weight: Tensor, bias: Tensor | None = None, name: str | None = None
) -> Tensor:
    """The affine map `x @ weight + bias`, as `paddle.nn.functional.linear`.

    `x @ weight + bias` over the last axis; `weight` is `[in_features, out_features]`.

    Args:
        x (Tensor): `[*, in_features]`; float16, float32 or float64.
        weight (Tensor): `[in_features, out_features]`, the dtype of `x`.
        bias (Tensor, optional): `[out_features]`. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[*, out_features]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[1.0, 2.0]])
        >>> w = paddle.to_tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
        >>> b = paddle.to_tensor([0.5, 0.5, 0.5])
        >>> print(F.linear(x, w, b))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1.50000000, 2.50000000, 3.50000000]])
        >>> F.linear(paddle.ones([8, 784]), paddle.ones([784, 10])).shape
        paddle.Size([8, 10])
    """
    if not x.shape or x.shape[-1] != weight.shape[0]:
        raise ValueError(
            f"linear: the input's last dimension ({x.shape[-1] if x.shape else 'none'}) must "
            f"equal weight.shape[0]; input shape {x.shape}, weight shape {weight.shape}"
        )
    if bias is None:
        return Linear().apply(*amp_cast("linear", x, weight))
    return Linear().apply(*amp_cast("linear", x, weight, bias))
