"""Counting and bucketing: bincount, histogram, histogram_bin_edges, histogramdd, bucketize,
isin. Counts carry no gradient (as in Paddle)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import reject_complex
from framework.ops.search.sort import searchsorted


def bincount(
    x: Tensor, weights: Tensor | None = None, minlength: int = 0, name: str | None = None
) -> Tensor:
    """How often each value `0..max(x)` occurs in the non-negative 1-D int `x` (at least
    `minlength` bins): int64 `[max(max(x) + 1, minlength)]`. With `weights` (`[len(x)]`),
    their sums instead, in the weights' float dtype (float64 for integer weights, as Paddle).

        framework.bincount(framework.to_tensor([1, 1, 3]))   # [0, 2, 0, 1]
    """
    if x._data.dtype.kind not in "iu":
        raise TypeError(f"bincount: x must be an integer tensor, got {x.dtype}")
    if x._data.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {x.shape}")
    if x._data.size and int(x._data.min()) < 0:
        raise ValueError("bincount: x must be non-negative")
    xp = get_array_module(x._data)
    w = None if weights is None else weights._data
    if w is not None and w.shape != x._data.shape:
        raise ValueError(f"bincount: weights must be {x.shape}, got {weights.shape}")
    out = xp.bincount(x._data, weights=w, minlength=int(minlength))
    if w is not None:
        out = out.astype(w.dtype if w.dtype.kind == "f" else "float64", copy=False)
    else:
        out = out.astype("int64", copy=False)
    return Tensor._wrap(out)


def _range(data, low: float, high: float):
    """Paddle's rule: min == max == 0 takes the data's range; an empty range widens by 1."""
    if low == 0 and high == 0 and data.size:
        low, high = float(data.min()), float(data.max())
    if low == high:
        low, high = low - 1, high + 1
    if low > high:
        raise ValueError(f"histogram: min {low} must not exceed max {high}")
    return low, high


def histogram_bin_edges(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    bins: int = 100,
    min: float = 0.0,  # noqa: A002
    max: float = 0.0,  # noqa: A002
    name: str | None = None,
) -> Tensor:
    """The `bins + 1` edges `histogram` uses, float32 `[bins + 1]` whatever the dtype of
    `input` (Paddle's kernel answers float32 even for float64 input).

        framework.histogram_bin_edges(framework.to_tensor([1.0, 3.0]), bins=2)   # [1., 2., 3.]
    """
    if int(bins) < 1:
        raise ValueError(f"histogram_bin_edges: bins must be positive, got {bins}")
    xp = get_array_module(input._data)
    low, high = _range(input._data, float(min), float(max))
    dtype = "float32"
    return Tensor._wrap(xp.linspace(low, high, int(bins) + 1).astype(dtype))


def histogram(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    bins: int = 100,
    min: float = 0.0,  # noqa: A002
    max: float = 0.0,  # noqa: A002
    weight: Tensor | None = None,
    density: bool = False,
    name: str | None = None,
) -> Tensor:
    """Counts of `input` (flattened) in `bins` equal bins over [min, max] (the data's range
    when both are 0); values outside are dropped. int64 counts `[bins]`, or float32 ones
    with `weight` or `density` (float32 even for float64 input, as Paddle's kernel).

        framework.histogram(framework.to_tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3)
        # [0, 2, 1, 0]
    """
    reject_complex(input, "histogram")
    if int(bins) < 1:
        raise ValueError(f"histogram: bins must be positive, got {bins}")
    xp = get_array_module(input._data)
    data = input._data.reshape(-1)
    low, high = _range(data, float(min), float(max))
    w = None if weight is None else weight._data.reshape(-1)
    if w is not None and w.shape != data.shape:
        raise ValueError(f"histogram: weight must have the shape of input {input.shape}")
    counts, _ = xp.histogram(data, bins=int(bins), range=(low, high), weights=w, density=density)
    if w is None and not density:
        return Tensor._wrap(counts.astype("int64"))
    return Tensor._wrap(counts.astype("float32"))


def histogramdd(
    x: Tensor,
    bins: Tensor | list[int] | int = 10,
    ranges: Sequence[float] | None = None,
    density: bool = False,
    weights: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, list[Tensor]]:
    """The D-dimensional histogram of points `x [..., D]`: counts `[b_1, ..., b_D]` (in the
    dtype of `x`) and the D edge tensors. `bins` is one count, a count per dim, or a list of
    edge tensors; `ranges` is `[low_1, high_1, ..., low_D, high_D]`; `weights` has the
    shape `x.shape[:-1]`.

        hist, edges = framework.histogramdd(framework.to_tensor([[0.0, 0.0], [1.0, 1.0]]), bins=2)
        # hist [[1., 0.], [0., 1.]], edges [[0., 0.5, 1.], [0., 0.5, 1.]]
    """
    if x._data.ndim < 2:
        raise ValueError(f"histogramdd: x must be [..., D] points, at least 2-D, got {x.shape}")
    xp = get_array_module(x._data)
    d = x._data.shape[-1]
    points = x._data.reshape(-1, d)
    if isinstance(bins, Tensor):
        bins = bins.tolist()
    if isinstance(bins, list | tuple) and bins and isinstance(bins[0], Tensor):
        bins = [b._data for b in bins]
    if ranges is not None:
        ranges = list(ranges)
        if len(ranges) != 2 * d:
            raise ValueError(f"histogramdd: ranges needs {2 * d} numbers, got {len(ranges)}")
        ranges = [(ranges[2 * i], ranges[2 * i + 1]) for i in range(d)]
    w = None if weights is None else weights._data.reshape(-1)
    if w is not None and w.shape[0] != points.shape[0]:
        raise ValueError(f"histogramdd: weights must be {x.shape[:-1]}, got {weights.shape}")
    counts, edges = xp.histogramdd(points, bins=bins, range=ranges, density=density, weights=w)
    dtype = x._data.dtype
    return Tensor._wrap(counts.astype(dtype)), [Tensor._wrap(e.astype(dtype)) for e in edges]


def bucketize(
    x: Tensor,
    sorted_sequence: Tensor,
    out_int32: bool = False,
    right: bool = False,
    name: str | None = None,
) -> Tensor:
    """The bucket of each value of `x` in the 1-D ascending `sorted_sequence` (its insertion
    index; `right` puts equals after). The shape of `x`; int64, or int32 with `out_int32`.

        framework.bucketize(framework.to_tensor([1.0, 6.0]), framework.to_tensor([1.0, 5.0]))
        # [0, 2]
    """
    if sorted_sequence._data.ndim != 1:
        raise ValueError(f"bucketize: sorted_sequence must be 1-D, got {sorted_sequence.shape}")
    return searchsorted(sorted_sequence, x, out_int32=out_int32, right=right)


def isin(
    x: Tensor,
    test_x: Tensor,
    assume_unique: bool = False,
    invert: bool = False,
    name: str | None = None,
) -> Tensor:
    """Whether each element of `x` occurs in `test_x` (or does not, with `invert`): a bool
    tensor of the shape of `x`. Both must be one kind: an int `x` with a float `test_x` is
    a TypeError, as in Paddle.

        framework.isin(framework.to_tensor([1, 2, 3]), framework.to_tensor([2, 9]))
        # [False, True, False]
    """
    if (x._data.dtype.kind in "iub") != (test_x._data.dtype.kind in "iub"):
        raise TypeError(f"isin: x {x.dtype} and test_x {test_x.dtype} must both be int or float")
    xp = get_array_module(x._data)
    found = xp.isin(x._data, test_x._data, assume_unique=assume_unique, invert=invert)
    return Tensor._wrap(found)
