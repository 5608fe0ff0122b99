"""`paddle.MmapStorage`: read tensors straight out of a memory-mapped file."""

from __future__ import annotations

import os

import numpy as np

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


class MmapStorage:
    """The first `nbytes` of `filename`, mapped read-only; `get_slice` views them as tensors.

    Differences from Paddle 3.3, whose slices misread `step` and `stop=-1` and read past the
    mapping: here `get_slice` follows Python's slice rules in elements of `dtype` (`stop=-1`
    meaning the end), and a slice past the mapping raises.

        a = framework.arange(20, dtype="float32"); a.numpy().tofile("test.pp")
        t = framework.MmapStorage("test.pp", 80)
        t.get_slice(dtype="float32", start=0, stop=20).reshape([4, 5])
    """

    def __init__(self, filename: str, nbytes: int) -> None:
        if not os.path.isfile(filename):
            raise RuntimeError(f"(Unavailable) unable to open file <{filename}> in read-only mode.")
        size = os.path.getsize(filename)
        if nbytes > size:
            raise RuntimeError(
                f"(Unavailable) file <{filename}> size <{size}> is smaller than the required "
                f"mapping size <{nbytes}>"
            )
        self.filename = filename
        self.nbytes = int(nbytes)
        self._bytes = np.memmap(filename, dtype=np.uint8, mode="r", shape=(self.nbytes,))

    def get_slice(
        self, dtype: object = "uint8", start: int = 0, stop: int = -1, step: int = 1
    ) -> Tensor:
        """Elements `[start:stop:step]` of the mapping read as `dtype` (a read-only view of
        the file, with no copy); `stop=-1` reads to the end."""
        np_dtype = dtypes.convert_dtype("uint8" if dtype is None else dtype)
        count = self.nbytes // np_dtype.itemsize
        stop = count if stop == -1 else stop
        if not 0 <= start <= count or not 0 <= stop <= count or step <= 0:
            raise ValueError(
                f"MmapStorage.get_slice: start {start}, stop {stop} and step {step} must lie "
                f"in the {count} {np_dtype.name} elements mapped, with a positive step"
            )
        elements = self._bytes[: count * np_dtype.itemsize].view(np_dtype)
        return Tensor._wrap(np.asarray(elements[start:stop:step]))
