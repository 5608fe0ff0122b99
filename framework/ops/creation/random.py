"""Random tensors: rand, randn, standard_normal, uniform, normal, randint, randint_like,
randperm, bernoulli, multinomial, and the in-place `uniform_` / `normal_`.

Every draw comes from `framework.core.random.get_rng()` on the CPU and is then moved to the
device, so `framework.seed(n)` makes runs bit-for-bit repeatable on any device. New tensors go
to the current device; ops that take a tensor (`bernoulli`, `randint_like`, ...) use its device.
"""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.ops.creation.constant import ShapeLike, as_shape, float_dtype
from framework.ops.manipulation.inplace import check_inplace, rebind

_NATIVE = (dtypes.float32, dtypes.float64)  # what NumPy's Generator draws directly


def _on(array: np.ndarray, place: backend.Place | None = None):
    place = backend.current_place() if place is None else place
    return array if place.is_cpu_place() else backend.to_place(array, place)


def _random_float_dtype(dtype: object) -> np.dtype:
    result = float_dtype(dtype)
    if result.kind != "f":
        raise TypeError(f"random floats need a float dtype, got {result}")
    return result


def _uniform01(rng: np.random.Generator, shape: tuple, dtype: np.dtype) -> np.ndarray:
    native = dtype if dtype in _NATIVE else dtypes.float32
    return rng.random(shape, dtype=native).astype(dtype, copy=False)


def _standard_normal(rng: np.random.Generator, shape: tuple, dtype: np.dtype) -> np.ndarray:
    native = dtype if dtype in _NATIVE else dtypes.float32
    return rng.standard_normal(shape, dtype=native).astype(dtype, copy=False)


def _complex_draw(draw, rng: np.random.Generator, shape: tuple, dtype: np.dtype, scale: float):
    """A complex sample whose real and imaginary parts are independent draws, each times
    `scale`, in the part dtype (complex64 -> float32)."""
    part = dtypes.real_dtype_of(dtype)
    out = np.empty(shape, dtype)
    out.real = draw(rng, shape, part) * scale
    out.imag = draw(rng, shape, part) * scale
    return out


def rand(shape: ShapeLike, dtype: object = None, name: str | None = None) -> Tensor:
    """Uniform samples in [0, 1) of `shape` (default float dtype). A complex dtype draws the
    real and imaginary parts each uniform in [0, 1), as Paddle does.

    framework.seed(0); framework.rand([2, 3])
    """
    dtype = float_dtype(dtype)
    if dtype.kind == "c":
        return Tensor._wrap(_on(_complex_draw(_uniform01, get_rng(), as_shape(shape), dtype, 1.0)))
    dtype = _random_float_dtype(dtype)
    return Tensor._wrap(_on(_uniform01(get_rng(), as_shape(shape), dtype)))


def randn(shape: ShapeLike, dtype: object = None, name: str | None = None) -> Tensor:
    """Standard normal samples (mean 0, std 1) of `shape` (default float dtype). A complex dtype
    gives the standard complex normal: parts independent with variance 1/2 each, so that
    `E|z|^2 = 1` (Paddle's and PyTorch's rule).

        framework.randn([2, 3], dtype="complex64").dtype   # complex64
    """
    dtype = float_dtype(dtype)
    if dtype.kind == "c":
        draw = _complex_draw(_standard_normal, get_rng(), as_shape(shape), dtype, 0.5**0.5)
        return Tensor._wrap(_on(draw))
    dtype = _random_float_dtype(dtype)
    return Tensor._wrap(_on(_standard_normal(get_rng(), as_shape(shape), dtype)))


def standard_normal(shape: ShapeLike, dtype: object = None, name: str | None = None) -> Tensor:
    """Standard normal samples of `shape`; the same as `randn`."""
    return randn(shape, dtype)


def _seeded_rng(seed: int) -> np.random.Generator:
    """Paddle's `seed` argument: 0 uses the global generator, anything else a fixed stream."""
    return get_rng() if not seed else np.random.Generator(np.random.PCG64(int(seed)))


def uniform(
    shape: ShapeLike,
    dtype: object = None,
    min: float = 0,  # noqa: A002 - Paddle's names
    max: float = 1.0,  # noqa: A002
    seed: int = 0,
    name: str | None = None,
) -> Tensor:
    """Uniform samples in [`min`, `max`) of `shape` (Paddle 3.3's defaults: [0, 1)).

    A nonzero `seed` draws from its own generator, so the same seed gives the same values.

        framework.uniform([2, 2], min=-1.0, max=1.0)
    """
    dtype = _random_float_dtype(dtype)
    values = _uniform01(_seeded_rng(seed), as_shape(shape), dtype)
    values *= max - min
    values += min
    return Tensor._wrap(_on(values))


def normal(
    mean: float | Tensor = 0.0,
    std: float | Tensor = 1.0,
    shape: ShapeLike | None = None,
    name: str | None = None,
) -> Tensor:
    """Normal samples with the given `mean` and `std`.

    When `mean` or `std` is a Tensor the output has their broadcast shape and `shape` is
    ignored; otherwise `shape` is required and the dtype is the default float.

        framework.normal(0.0, 2.0, shape=[3])
        framework.normal(framework.to_tensor([0.0, 10.0]), 1.0)   # one sample per mean
    """
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if tensors:
        place = tensors[0].place
        dtype = _random_float_dtype(tensors[0].dtype if tensors[0].dtype.kind == "f" else None)
        mean_a = mean.numpy() if isinstance(mean, Tensor) else np.asarray(mean)
        std_a = std.numpy() if isinstance(std, Tensor) else np.asarray(std)
        out_shape = np.broadcast_shapes(mean_a.shape, std_a.shape)
    else:
        if shape is None:
            raise ValueError("normal: give `shape` when `mean` and `std` are numbers")
        place, dtype = None, dtypes.default_float_dtype()
        mean_a, std_a, out_shape = mean, std, as_shape(shape)
    values = _standard_normal(get_rng(), out_shape, dtype) * std_a + mean_a
    return Tensor._wrap(_on(values.astype(dtype, copy=False), place))


def randint(
    low: int = 0,
    high: int | None = None,
    shape: ShapeLike = (1,),
    dtype: object = None,
    name: str | None = None,
) -> Tensor:
    """Integers drawn uniformly from [`low`, `high`) (from [0, `low`) when `high` is None),
    int64 unless `dtype` is given.

        framework.randint(0, 10, [2, 3])
    """
    low, high = (0, low) if high is None else (low, high)
    if low >= high:
        raise ValueError(f"randint: low ({low}) must be less than high ({high})")
    dtype = dtypes.int64 if dtype is None else dtypes.convert_dtype(dtype)
    values = get_rng().integers(int(low), int(high), size=as_shape(shape), dtype=np.int64)
    return Tensor._wrap(_on(values.astype(dtype, copy=False)))


def randint_like(
    x: Tensor, low: int = 0, high: int | None = None, dtype: object = None, name: str | None = None
) -> Tensor:
    """`randint` with `x`'s shape and device, in `x`'s dtype unless `dtype` is given."""
    low, high = (0, low) if high is None else (low, high)
    if low >= high:
        raise ValueError(f"randint_like: low ({low}) must be less than high ({high})")
    dtype = x.dtype if dtype is None else dtypes.convert_dtype(dtype)
    values = get_rng().integers(int(low), int(high), size=x._data.shape, dtype=np.int64)
    return Tensor._wrap(_on(values.astype(dtype, copy=False), x.place))


def randperm(n: int, dtype: object = "int64", name: str | None = None) -> Tensor:
    """A random permutation of 0 .. n-1.

    framework.randperm(5)   # e.g. [3, 0, 4, 1, 2]
    """
    values = get_rng().permutation(int(n)).astype(dtypes.convert_dtype(dtype), copy=False)
    return Tensor._wrap(_on(values))


def bernoulli(x: Tensor, p: float | None = None, name: str | None = None) -> Tensor:
    """0/1 samples, 1 with probability `x` elementwise (or `p` for every element when given);
    same shape, dtype and device as `x`."""
    probabilities = x.numpy() if p is None else p
    draws = get_rng().random(x._data.shape)
    return Tensor._wrap(_on((draws < probabilities).astype(x.dtype), x.place))


def multinomial(
    x: Tensor, num_samples: int = 1, replacement: bool = False, name: str | None = None
) -> Tensor:
    """Draw `num_samples` category indices per row from the (unnormalised) probabilities in
    `x` (1-D, or 2-D with one distribution per row); int64.

    Without replacement each category is drawn at most once, so `num_samples` may not exceed
    the number of categories with nonzero probability.
    """
    weights = x.numpy().astype(np.float64)
    if weights.ndim not in (1, 2):
        raise ValueError(f"multinomial: x must be 1-D or 2-D, got shape {x.shape}")
    if (weights < 0).any() or not np.isfinite(weights).all():
        raise ValueError("multinomial: probabilities must be finite and non-negative")
    rows = weights.reshape(-1, weights.shape[-1])
    totals = rows.sum(axis=1, keepdims=True)
    if (totals <= 0).any():
        raise ValueError("multinomial: every row needs a positive total probability")
    rng = get_rng()
    if replacement:
        indices = _sample_with_replacement(rng, rows, int(num_samples))
    else:
        if num_samples > int((rows > 0).sum(axis=1).min()):
            raise ValueError(
                f"multinomial: cannot draw {num_samples} samples without replacement from a "
                "row with fewer nonzero-probability categories"
            )
        # Exponential race: the categories with the smallest Exp(1) / p arrive first, which
        # is sampling without replacement proportionally to p.
        with np.errstate(divide="ignore"):
            arrival = rng.standard_exponential(rows.shape) / rows
        indices = np.argsort(arrival, axis=1, kind="stable")[:, : int(num_samples)]
    indices = indices.reshape(weights.shape[:-1] + (int(num_samples),)).astype(np.int64)
    return Tensor._wrap(_on(indices, x.place))


def _sample_with_replacement(rng, weights: np.ndarray, num_samples: int) -> np.ndarray:
    n_rows, n_categories = weights.shape
    cdf = np.cumsum(weights, axis=1)
    cdf /= cdf[:, -1:].copy()  # the last positive category ends at exactly 1.0
    # Offset each row by its index so that one searchsorted serves every row.
    offsets = np.arange(n_rows, dtype=np.float64)[:, None]
    draws = rng.random((n_rows, num_samples)) + offsets
    flat = np.searchsorted((cdf + offsets).ravel(), draws.ravel(), side="right")
    indices = flat.reshape(n_rows, num_samples) - (np.arange(n_rows) * n_categories)[:, None]
    return np.minimum(indices, n_categories - 1)


def uniform_(
    x: Tensor,
    min: float = 0,  # noqa: A002 - Paddle's names
    max: float = 1.0,  # noqa: A002
    seed: int = 0,
    name: str | None = None,
) -> Tensor:
    """Refill `x` in place with uniform samples in [`min`, `max`); returns `x`."""
    check_inplace(x, "uniform_")
    dtype = _random_float_dtype(x.dtype)
    values = _uniform01(_seeded_rng(seed), x._data.shape, dtype)
    values *= max - min
    values += min
    return rebind(x, Tensor._wrap(_on(values, x.place)))


def normal_(x: Tensor, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> Tensor:
    """Refill `x` in place with normal samples; returns `x`."""
    check_inplace(x, "normal_")
    dtype = _random_float_dtype(x.dtype)
    values = _standard_normal(get_rng(), x._data.shape, dtype) * std + mean
    return rebind(x, Tensor._wrap(_on(values.astype(dtype, copy=False), x.place)))


def bernoulli_(x: Tensor, p: float | Tensor = 0.5, name: str | None = None) -> Tensor:
    """Refill `x` in place with 0/1 samples that are 1 with probability `p` (a number, or a
    tensor broadcast to `x`); returns `x`."""
    check_inplace(x, "bernoulli_")
    probabilities = p.numpy() if isinstance(p, Tensor) else p
    draws = get_rng().random(x._data.shape) < probabilities
    return rebind(x, Tensor._wrap(_on(draws.astype(x.dtype), x.place)))


def exponential_(x: Tensor, lam: float = 1.0, name: str | None = None) -> Tensor:
    """Refill `x` in place with exponential samples of rate `lam` (mean 1/lam); returns `x`."""
    check_inplace(x, "exponential_")
    dtype = _random_float_dtype(x.dtype)
    values = get_rng().standard_exponential(x._data.shape) / lam
    return rebind(x, Tensor._wrap(_on(values.astype(dtype), x.place)))
