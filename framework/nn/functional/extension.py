"""Paddle's `nn.functional.extension` ops: temporal_shift (video models) and gather_tree (beam
search back-tracing)."""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation import concat

__all__ = ["gather_tree", "temporal_shift"]


def _zeros_like_slice(part: Tensor) -> Tensor:
    xp = get_array_module(part._data)
    return Tensor._wrap(xp.zeros(part._data.shape, dtype=part._data.dtype))


def temporal_shift(
    x: Tensor,
    seg_num: int,
    shift_ratio: float = 0.25,
    name: str | None = None,
    data_format: str = "NCHW",
) -> Tensor:
    """The temporal shift module, as `paddle.nn.functional.temporal_shift`.

    Temporal Shift Module: shift some channels one step along time, with zeros at the ends.

    `x` is `[N * seg_num, C, H, W]` (or NHWC), `seg_num` frames per clip. Of the channels,
    the first `int(C * shift_ratio)` take the previous frame's values, the next ones up to
    `int(C * 2 * shift_ratio)` the following frame's, and the rest stay. Same shape and dtype;
    differentiable (the gradient shifts back).

    Args:
        x (Tensor): `[N * seg_num, C, H, W]` (or NHWC); float32 or float64.
        seg_num (int): frames per clip.
        shift_ratio (float, optional): the share of channels shifted each way. Default: 0.25.
        name (str, optional): unused, kept for Paddle's signature.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(8, dtype='float32').reshape([2, 4, 1, 1])  # 1 clip of 2 frames
        >>> print(F.temporal_shift(x, seg_num=2).reshape([2, 4]))
        Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0., 5., 2., 3.],
                [0., 0., 6., 7.]])
        >>> F.temporal_shift(paddle.ones([16, 16, 7, 7]), seg_num=8).shape
        paddle.Size([16, 16, 7, 7])
    """
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"temporal_shift: data_format must be NCHW or NHWC, got {data_format!r}")
    if x.ndim != 4:
        raise ValueError(f"temporal_shift: expected a 4-D input, got shape {x.shape}")
    if seg_num <= 0 or x.shape[0] % seg_num:
        raise ValueError(
            f"temporal_shift: the batch {x.shape[0]} must be a multiple of seg_num {seg_num}"
        )
    if not 0 <= shift_ratio <= 0.5:
        raise ValueError(f"temporal_shift: shift_ratio must be in [0, 0.5], got {shift_ratio}")
    channel_last = data_format == "NHWC"
    if channel_last:
        x = x.transpose([0, 3, 1, 2])
    n, c, h, w = x.shape
    clips = x.reshape([n // seg_num, seg_num, c, h, w])
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    parts = []
    if c1:
        from_previous = clips[:, : seg_num - 1, :c1]
        parts.append(concat([_zeros_like_slice(clips[:, :1, :c1]), from_previous], axis=1))
    if c2 > c1:
        from_next = clips[:, 1:, c1:c2]
        parts.append(concat([from_next, _zeros_like_slice(clips[:, :1, c1:c2])], axis=1))
    parts.append(clips[:, :, c2:])
    out = concat(parts, axis=2).reshape([n, c, h, w])
    return out.transpose([0, 2, 3, 1]) if channel_last else out


def gather_tree(ids: Tensor, parents: Tensor) -> Tensor:
    """Back-trace beam search, as `paddle.nn.functional.gather_tree`.

    Back-trace beam search: the full token sequence of every final beam.

    `ids` and `parents` are `[max_time, batch, beam]` integer tensors (int32 or int64): the
    token chosen at each step and the beam it extended. Walking back from the last step, the
    result `[max_time, batch, beam]` (dtype of `ids`) holds, for each final beam, the token it
    had at each step. Not differentiable (integers).

    Args:
        ids (Tensor): `[max_time, batch, beam]` int32 or int64 tokens chosen at each step.
        parents (Tensor): the beams they extended, the shape and dtype of `ids`.

    Returns:
        Tensor: `[max_time, batch, beam]`, each final beam's full sequence; the dtype of `ids`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
        >>> parents = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
        >>> print(F.gather_tree(ids, parents))
        Tensor(shape=[3, 2, 2], dtype=int64, place=Place(cpu), stop_gradient=True,
               [[[2, 2],
                 [1, 6]],
        <BLANKLINE>
                [[3, 3],
                 [6, 1]],
        <BLANKLINE>
                [[0, 1],
                 [9, 0]]])
    """
    if ids.ndim != 3 or parents.shape != ids.shape:
        raise ValueError(
            "gather_tree: ids and parents must be [max_time, batch, beam] of one shape, got "
            f"{ids.shape} and {parents.shape}"
        )
    for tensor, what in ((ids, "ids"), (parents, "parents")):
        if tensor._data.dtype.kind not in "iu":
            raise TypeError(f"gather_tree: {what} must be an integer tensor, got {tensor.dtype}")
    xp = get_array_module(ids._data)
    steps = ids._data.shape[0]
    out = xp.empty_like(ids._data)
    if steps == 0:
        return Tensor._wrap(out)
    beam = xp.broadcast_to(xp.arange(ids._data.shape[2]), ids._data.shape[1:])
    for t in range(steps - 1, -1, -1):
        out[t] = xp.take_along_axis(ids._data[t], beam, axis=1)
        beam = xp.take_along_axis(parents._data[t], beam, axis=1).astype(xp.int64)
    return Tensor._wrap(out)
