"""`InputSpec`: the shape, dtype and name of one model input, as `paddle.static.InputSpec`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


class InputSpec:
    """Describes one input of a static graph. `None` or `-1` in `shape` marks a dynamic dim.

    spec = InputSpec([None, 3, 224, 224], "float32", name="image")
    spec.shape          # [None, 3, 224, 224]
    InputSpec.from_tensor(framework.ones([2, 3]), name="x").shape   # [2, 3]
    """

    def __init__(
        self,
        shape: Sequence[int | None] | int,
        dtype: object = "float32",
        name: str | None = None,
        stop_gradient: bool = False,
    ) -> None:
        if isinstance(shape, int):
            shape = [shape]
        dims = []
        for d in shape:
            if d is None or (isinstance(d, int | np.integer) and int(d) == -1):
                dims.append(None)
            elif isinstance(d, int | np.integer) and int(d) >= 0:
                dims.append(int(d))
            else:
                raise ValueError(f"InputSpec: bad dim {d!r} in shape {list(shape)}")
        self.shape = dims
        self.dtype = np.dtype(dtypes.convert_dtype(dtype))
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor: Tensor, name: str | None = None) -> InputSpec:
        """The spec of `tensor` (all dims static)."""
        return cls(list(tensor.shape), tensor.dtype, name or tensor.name)

    @classmethod
    def from_numpy(cls, array: np.ndarray, name: str | None = None) -> InputSpec:
        return cls(list(array.shape), array.dtype, name)

    def batch(self, batch_size: int | None) -> InputSpec:
        """A copy with `batch_size` inserted as a new leading dim."""
        return InputSpec([batch_size, *self.shape], self.dtype, self.name)

    def unbatch(self) -> InputSpec:
        """A copy without the leading dim."""
        if not self.shape:
            raise ValueError("unbatch: the spec has no dims")
        return InputSpec(self.shape[1:], self.dtype, self.name)

    @property
    def dynamic_axes(self) -> list[int]:
        return [i for i, d in enumerate(self.shape) if d is None]

    def matches(self, shape: Sequence[int], dtype: object) -> bool:
        """Whether an array of `shape`/`dtype` fits this spec."""
        if len(shape) != len(self.shape) or np.dtype(dtype) != self.dtype:
            return False
        return all(s is None or s == d for s, d in zip(self.shape, shape, strict=True))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, InputSpec)
            and other.shape == self.shape
            and other.dtype == self.dtype
            and other.name == self.name
        )

    def __hash__(self) -> int:
        return hash((tuple(self.shape), self.dtype.str, self.name))

    def __repr__(self) -> str:
        return f"InputSpec(shape={self.shape}, dtype={self.dtype.name}, name={self.name})"
