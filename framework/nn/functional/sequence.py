"""Padded-sequence helpers: `sequence_mask`, as in `paddle.nn.functional`."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def sequence_mask(
    x: Tensor, maxlen: int | Tensor | None = None, dtype: object = "int64", name: str | None = None
) -> Tensor:
    """Which steps of padded sequences are real, as `paddle.nn.functional.sequence_mask`.

    `mask[..., j] = j < x[...]`: which steps of each padded sequence are real.

    `x` holds integer lengths of any shape; the result has shape `x.shape + [maxlen]` (maxlen
    defaults to `max(x)`) and dtype `dtype`. It carries no gradient.

    Args:
        x (Tensor): integer lengths, any shape; int32 or int64.
        maxlen (int|Tensor, optional): the mask's width; None is `max(x)`. Default: None.
        dtype (str, optional): the result's dtype. Default: 'int64'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `x.shape + [maxlen]`, of `dtype`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.sequence_mask(paddle.to_tensor([1, 3]), maxlen=4))
        Tensor(shape=[2, 4], dtype=int64, place=Place(cpu), stop_gradient=True,
               [[1, 0, 0, 0],
                [1, 1, 1, 0]])
    """
    lengths = x._data
    if lengths.dtype.kind not in "iu":
        raise TypeError(f"sequence_mask: lengths must be integers, got {x.dtype}")
    xp = get_array_module(lengths)
    if maxlen is None:
        maxlen = int(lengths.max()) if lengths.size else 0
    maxlen = int(maxlen.item() if isinstance(maxlen, Tensor) else maxlen)
    if maxlen < 0:
        raise ValueError(f"sequence_mask: maxlen must be >= 0, got {maxlen}")
    steps = xp.arange(maxlen, dtype=lengths.dtype)
    mask = steps < lengths[..., None]
    return Tensor(mask.astype(dtypes.convert_dtype(dtype)))
