"""`framework.Size`: the type of `Tensor.shape`, as Paddle 3 returns it."""

from __future__ import annotations

import math
from collections.abc import Iterable


class Size(list):
    """A tensor's shape: a list of ints that prints as `paddle.Size([2, 3])`, as Paddle's does.

    It stays a list, so code written for list shapes keeps working: `x.shape == [2, 3]`,
    `x.shape[0]`, `list(x.shape)`, `json.dumps(x.shape)`, `x.shape.append(1)` (on a copy; the
    tensor is not reshaped). As in Paddle, it also equals a tuple of the same ints, and `+` and
    `*` give a Size again. Unlike Paddle's, a slice is a plain list: indexing is on every op's
    path, and a Python `__getitem__` would put a function call into every `x.shape[0]`.

        x = framework.ones([2, 3])
        x.shape            # paddle.Size([2, 3])
        x.shape == [2, 3]  # True
        x.shape.numel()    # 6
    """

    __slots__ = ()

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds (1 for `[]`)."""
        return math.prod(self)

    def __repr__(self) -> str:
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return list.__eq__(self, list(other) if type(other) is tuple else other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # a list, so unhashable, as Paddle's Size is

    def __add__(self, other: Iterable[int]) -> Size:
        return Size(list.__add__(self, list(other)))

    def __radd__(self, other: Iterable[int]) -> Size:
        return Size(list(other) + list(self))

    def __iadd__(self, other: Iterable[int]) -> Size:
        self.extend(other)
        return self

    def __mul__(self, times: int) -> Size:
        return Size(list.__mul__(self, times))

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (list(self),))
