"""`median`/`nanmedian` result dtypes and return shapes match Paddle's."""

from __future__ import annotations

import numpy as np
import pytest

import framework

paddle = pytest.importorskip("paddle")


def _both(fn_name: str, data, dtype: str, **kwargs):
    ours = getattr(framework, fn_name)(framework.to_tensor(data, dtype=dtype), **kwargs)
    theirs = getattr(paddle, fn_name)(paddle.to_tensor(data, dtype=dtype), **kwargs)
    return ours, theirs


def _same(ours, theirs) -> None:
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_it_keeps_the_dtype_in_min_mode(dtype: str, axis: int | None) -> None:
    data = np.arange(12).reshape(3, 4)
    ours, theirs = _both("median", data, dtype, axis=axis, mode="min")
    if axis is None:
        _same(ours, theirs)
    else:
        for mine, want in zip(ours, theirs, strict=True):
            _same(mine, want)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_it_averages_integers_to_float32(dtype: str) -> None:
    _same(*_both("median", np.arange(12).reshape(3, 4), dtype, axis=1))


def test_it_keeps_large_int64_values_exact_in_min_mode() -> None:
    _same(*_both("median", [2**40 + 1, 2**40 + 3, 5], "int64", mode="min"))


@pytest.mark.parametrize("axis", [(0, 1), [0]])
def test_nanmedian_gives_only_values_for_several_axes(axis) -> None:
    data = [[float("nan"), 2.0, 3.0], [0.0, 1.0, 2.0]]
    _same(*_both("nanmedian", data, "float32", axis=axis, mode="min"))
