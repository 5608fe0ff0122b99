"""`paddle.tensor.create_tensor`: the legacy way to make an output tensor to fill later."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.creation.constant import empty

_COUNTER = [0]


def create_tensor(dtype: object, name: str | None = None, persistable: bool = False) -> Tensor:
    """A tensor of `dtype` holding no data yet, to be filled by an op's `output=`/`out=`
    (`paddle.assign(x, output=t)`). Its name defaults to `create_tensor_<n>`, as Paddle's.

    Paddle's tensor is uninitialised with shape `[]`; here it is an empty `[0]` tensor, whose
    `numpy()` is the same empty array Paddle returns.

        t = framework.tensor.create_tensor(dtype="float32")
        framework.assign(framework.to_tensor([1.0, 2.0]), output=t)   # t: [1., 2.]
    """
    if name is None:
        name = f"create_tensor_{_COUNTER[0]}"
        _COUNTER[0] += 1
    t = empty([0], dtype=dtype)
    t.name = name
    t.persistable = bool(persistable)
    return t
