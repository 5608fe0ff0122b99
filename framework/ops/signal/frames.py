"""Slicing a signal into overlapping frames and adding frames back: `paddle.signal.frame` and
`paddle.signal.overlap_add`.

Each is the other's adjoint: framing is a gather at `t * hop + n`, overlap-add the scatter-add
at the same positions (the `GetItem` / `ScatterInto` pair), so both are differentiable to any
order.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.indexing import GetItem, ScatterInto
from framework.ops.manipulation.transpose import transpose


def _positions(xp, n_frames: int, frame_length: int, hop_length: int):
    """`[n_frames, frame_length]` sample indices: frame `t` starts at `t * hop_length`."""
    starts = xp.arange(n_frames, dtype="int64")[:, None] * hop_length
    return starts + xp.arange(frame_length, dtype="int64")[None, :]


def _check(axis: int, hop_length: int) -> None:
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"Unexpected hop_length: {hop_length}. It should be an positive integer.")


def _to_last(x: Tensor, axis: int, ndim: int) -> Tensor:
    """Move dim 0 to the end for axis=0, so both axes share the last-axis path."""
    return x if axis == -1 or ndim == 1 else transpose(x, [*range(1, ndim), 0])


def _from_last(x: Tensor, axis: int, ndim: int) -> Tensor:
    return x if axis == -1 or ndim == 1 else transpose(x, [ndim - 1, *range(ndim - 1)])


def frames_last(x: Tensor, frame_length: int, hop_length: int) -> Tensor:
    """`x [..., L]` as `[..., n_frames, frame_length]` (frames on the second-to-last dim)."""
    xp = get_array_module(x._data)
    n_frames = 1 + (x._data.shape[-1] - frame_length) // hop_length
    index = _positions(xp, n_frames, frame_length, hop_length)
    key = (slice(None),) * (x._data.ndim - 1) + (index,)
    return GetItem(key, True).apply(x)


def overlap_add_last(frames: Tensor, hop_length: int) -> Tensor:
    """`[..., n_frames, frame_length]` summed back into `[..., L]`, the inverse layout of
    `frames_last`."""
    xp = get_array_module(frames._data)
    *lead, n_frames, frame_length = frames._data.shape
    length = frame_length + hop_length * (n_frames - 1)
    index = _positions(xp, n_frames, frame_length, hop_length)
    key = (slice(None),) * len(lead) + (index,)
    return ScatterInto((*lead, length), key, True).apply(frames)


def frame(
    x: Tensor, frame_length: int, hop_length: int, axis: int = -1, name: str | None = None
) -> Tensor:
    """Overlapping frames of `x` along its last (`axis=-1`) or first (`axis=0`) dim.

    `x`: `[..., L]` (or `[L, ...]` for axis=0), any dtype. Returns
    `[..., frame_length, n_frames]` (or `[n_frames, frame_length, ...]`) with
    `n_frames = 1 + (L - frame_length) // hop_length`, in the dtype of `x`.

        framework.signal.frame(framework.arange(8), frame_length=4, hop_length=2)
        # [[0, 2, 4], [1, 3, 5], [2, 4, 6], [3, 5, 7]]
    """
    _check(axis, hop_length)
    if not isinstance(frame_length, int) or frame_length <= 0:
        raise ValueError(
            f"Unexpected frame_length: {frame_length}. It should be an positive integer."
        )
    ndim = x._data.ndim
    if frame_length > x._data.shape[axis]:
        raise ValueError(
            "Attribute frame_length should be less equal than sequence length, "
            f"but got ({frame_length}) > ({x._data.shape[axis]})."
        )
    out = frames_last(_to_last(x, axis, ndim), frame_length, hop_length)  # [..., T, F]
    if axis == -1:
        return transpose(out, [*range(out.ndim - 2), out.ndim - 1, out.ndim - 2])
    # [rest..., T, F] to [T, F, rest...]
    rest = out.ndim - 2
    return transpose(out, [rest, rest + 1, *range(rest)])


def overlap_add(x: Tensor, hop_length: int, axis: int = -1, name: str | None = None) -> Tensor:
    """Add overlapping frames back into a signal: the adjoint of `frame`.

    `x`: `[..., frame_length, n_frames]` (or `[n_frames, frame_length, ...]` for axis=0).
    Returns `[..., L]` (or `[L, ...]`) with `L = frame_length + hop_length * (n_frames - 1)`.

        x = framework.ones([4, 3])
        framework.signal.overlap_add(x, hop_length=2)   # [1., 1., 2., 2., 2., 2., 1., 1.]
    """
    _check(axis, hop_length)
    ndim = x._data.ndim
    if ndim < 2:
        raise ValueError(f"overlap_add: expects at least 2 dims, got shape {x.shape}")
    if axis == -1:
        frames = transpose(x, [*range(ndim - 2), ndim - 1, ndim - 2])  # [..., T, F]
        return overlap_add_last(frames, hop_length)
    frames = transpose(x, [*range(2, ndim), 0, 1])  # [rest..., T, F]
    return _from_last(overlap_add_last(frames, hop_length), axis, ndim - 1)
