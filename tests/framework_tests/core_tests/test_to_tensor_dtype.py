"""`to_tensor`'s result dtype follows Paddle's rules for NumPy scalars, Python values and lists."""

from __future__ import annotations

import numpy as np
import pytest

import framework

paddle = pytest.importorskip("paddle")

CASES = {
    "np.float64": np.float64(0.5),
    "np.float32": np.float32(0.5),
    "np.float16": np.float16(1.0),
    "np.complex128": np.complex128(1j),
    "np.int32": np.int32(3),
    "np.int64": np.int64(3),
    "np.uint8": np.uint8(3),
    "np.bool_": np.bool_(True),
    "float": 0.5,
    "int": 3,
    "bool": True,
    "complex": 1j,
    "list of np.float64": [np.float64(1.0), np.float64(2.0)],
    "list of np.int32": [np.int32(1), np.int32(2)],
    "mixed list": [1, 2.5],
    "nested ints": [[1, 2], [3, 4]],
    "int32 array": np.array([1, 2], dtype=np.int32),
    "0-d float64 array": np.array(1.0),
}


def _name(dtype: object) -> str:
    return str(dtype).split(".")[-1]


@pytest.mark.parametrize("label", list(CASES))
def test_it_gives_paddles_dtype(label: str) -> None:
    data = CASES[label]
    want = paddle.to_tensor(data)
    got = framework.to_tensor(data)
    assert _name(got.dtype) == _name(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_it_keeps_a_numpy_scalars_dtype_under_a_float64_default() -> None:
    framework.set_default_dtype("float64")
    try:
        assert _name(framework.to_tensor(np.float32(0.5)).dtype) == "float32"
        assert _name(framework.to_tensor(0.5).dtype) == "float64"
    finally:
        framework.set_default_dtype("float32")
