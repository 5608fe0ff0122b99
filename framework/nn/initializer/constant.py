"""`Constant` and `Assign`: initializers that need no randomness."""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core.tensor import Tensor
from framework.nn.initializer.initializer import Initializer


class Constant(Initializer):
    """Fill with `value` (default 0.0), as `paddle.nn.initializer.Constant`.

    bias_attr = framework.ParamAttr(initializer=Constant(0.1))
    """

    def __init__(self, value: float = 0.0) -> None:
        if value is None:
            raise ValueError("value must not be none.")
        self._value = value

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        return np.full(shape, self._value, dtype=dtype)


class Assign(Initializer):
    """Fill with a given array, list or Tensor of exactly the parameter's shape."""

    def __init__(self, value: object, name: str | None = None) -> None:
        if isinstance(value, Tensor):
            value = value.numpy()
        elif backend.is_gpu_array(value):
            value = backend.to_numpy(value)
        self._value = np.asarray(value)

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        if self._value.size != int(np.prod(shape)):
            raise ValueError(
                f"Assign initializer got a value of shape {list(self._value.shape)} for a "
                f"parameter of shape {list(shape)}"
            )
        return self._value.reshape(shape).astype(dtype)
