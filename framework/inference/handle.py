"""`PredictorTensor`: a predictor's named input or output (Paddle's `paddle.inference.Tensor`).

An input handle holds the array for the next `run()` (`reshape` + `copy_from_cpu`); an output
handle holds the last result (`copy_to_cpu`, `shape`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.core import backend
from framework.jit.graph import Value


class PredictorTensor:
    def __init__(self, name: str, value: Value, place: backend.Place, is_input: bool) -> None:
        self._name = name
        self._value = value
        self._place = place
        self._is_input = is_input
        self._shape: list[int] | None = None
        self._data: Any = None

    def name(self) -> str:
        return self._name

    def type(self) -> np.dtype:
        """The dtype (a NumPy dtype)."""
        return np.dtype(self._value.dtype)

    def reshape(self, shape: list[int] | tuple[int, ...]) -> None:
        """Declare the shape of the next input (checked against the model)."""
        if not self._is_input:
            raise RuntimeError(f"'{self._name}' is an output; only inputs can be reshaped")
        self._check_shape(tuple(int(d) for d in shape))
        self._shape = [int(d) for d in shape]

    def copy_from_cpu(self, data: Any) -> None:
        """Copy a NumPy array in as this input's data (onto the device, if any)."""
        if not self._is_input:
            raise RuntimeError(f"'{self._name}' is an output; use copy_to_cpu")
        array = np.asarray(data)
        if self._shape is not None and list(array.shape) != self._shape:
            raise ValueError(
                f"input '{self._name}': data of shape {list(array.shape)} does not match the "
                f"shape {self._shape} given to reshape()"
            )
        self._data = self._prepare(np.array(array, copy=True))

    def copy_to_cpu(self) -> np.ndarray:
        """The data as a NumPy array (a copy)."""
        if self._data is None:
            which = "output" if not self._is_input else "input"
            raise RuntimeError(f"{which} '{self._name}' has no data yet; call predictor.run()")
        return np.array(backend.to_numpy(self._data), copy=True)

    def shape(self) -> list[int]:
        if self._data is not None:
            return list(self._data.shape)
        if self._shape is not None:
            return list(self._shape)
        return [-1 if d is None else d for d in self._value.shape]

    # --- used by the predictor --------------------------------------------------------------
    def _prepare(self, array: Any) -> Any:
        """`array` checked against the model's input and placed on the device."""
        dtype = np.dtype(self._value.dtype)
        array = np.asarray(array) if not backend.is_gpu_array(array) else array
        if array.dtype != dtype:
            if array.dtype.kind != dtype.kind and not (
                array.dtype.kind in "iu" and dtype.kind in "iu"
            ):
                raise TypeError(
                    f"input '{self._name}' must be {dtype.name}, got {array.dtype.name}"
                )
            array = array.astype(dtype)
        self._check_shape(array.shape)
        return backend.to_place(array, self._place)

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        expected = self._value.shape
        if len(shape) != len(expected) or any(
            d is not None and d != s for d, s in zip(expected, shape, strict=True)
        ):
            shown = ["?" if d is None else d for d in expected]
            raise ValueError(
                f"input '{self._name}' must have shape {shown} (? = any size), got {list(shape)}"
            )

    def _take(self) -> Any:
        if self._data is None:
            raise RuntimeError(f"input '{self._name}' has no data; call copy_from_cpu first")
        return self._data

    def __repr__(self) -> str:
        kind = "input" if self._is_input else "output"
        return f"<PredictorTensor {kind} '{self._name}' {self._value.dtype} {self.shape()}>"
