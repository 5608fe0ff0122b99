"""`framework.tensor.compat_softmax`, as `paddle.tensor.compat_softmax`: the PyTorch-style
`softmax(input, dim, dtype)` that Paddle exports as `paddle.softmax` and binds as
`Tensor.softmax`. `framework.nn.functional.softmax(x, axis=-1)` is the Paddle-style one."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.softmax import softmax as _softmax_over_axis


def softmax(input: Tensor, dim: int | None = None, dtype: object = None, **kwargs) -> Tensor:  # noqa: A002 - Paddle's argument name
    """`exp(input) / sum(exp(input))` along `dim`, as `paddle.softmax` and `Tensor.softmax`.

    Args:
        input: a float16/float32/float64 Tensor of any shape.
        dim: the dim to normalise over, in [-D, D). Without it, PyTorch's legacy rule picks
            dim 0 for a 0-, 1- or 3-D input and dim 1 otherwise, as Paddle's does.
        dtype: when given, `input` is cast to it first and the result has it.

    Returns:
        A Tensor of `input`'s shape and dtype (or `dtype`), summing to 1 along `dim`.

    Paddle's keyword names for `nn.functional.softmax` (`x`, `axis`, `name`) are refused with
    the same TypeError Paddle raises, since silently ignoring `axis` would normalise the wrong
    dim. An int third positional argument (PyTorch's `_stacklevel`) is ignored, as in Paddle.

        x = framework.to_tensor([[1.0, 2.0], [3.0, 5.0]])
        x.softmax(-1)   # [[0.2689, 0.7311], [0.1192, 0.8808]]
    """
    for key in ("x", "axis", "name"):
        if key in kwargs:
            raise TypeError(
                f"paddle.compat.nn.functional.softmax() received unexpected keyword argument "
                f"'{key}'. \nDid you mean to use paddle.nn.functional.softmax() instead?"
            )
    kwargs.pop("_stacklevel", None)
    if kwargs:
        raise TypeError(f"softmax() got an unexpected keyword argument {next(iter(kwargs))!r}")
    if isinstance(dtype, int) and not isinstance(dtype, bool):  # PyTorch's `_stacklevel`
        dtype = None
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return _softmax_over_axis(input, int(dim), dtype)
