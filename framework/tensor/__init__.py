"""`framework.tensor`, as `paddle.tensor`: the tensor ops by topic.

    import framework as paddle
    paddle.tensor.math.add(x, y)             # the same function as paddle.add
    from framework.tensor.manipulation import reshape

Every name here is the framework's own object (`framework.tensor.add is framework.add`); a
few live elsewhere: `inverse` is `framework.linalg.inv`, `sigmoid` is
`framework.nn.functional.sigmoid`, `div_`/`mul_`/`sub_` are `divide_`/`multiply_`/`subtract_`,
and in-place ops such as `sqrt_` are the functions bound onto `framework.Tensor`. The
submodules mirror Paddle's layout (`math`, `manipulation`, `creation`, `linalg`, `logic`,
`search`, `stat`, `random`, `attribute`, `einsum`, `ops`). As in Paddle, the name `einsum`
here is the function; its module is still importable as `framework.tensor.einsum`.

Each submodule's `__all__` is its list of names; this package re-exports every one of them.
"""

# The submodules load first: importing `framework.tensor.einsum` binds the name `einsum` to
# the module, and the import of the function below rebinds it, as in Paddle.
from framework.tensor import (
    array,
    attribute,
    creation,
    linalg,
    logic,
    manipulation,
    math,
    nn_methods,  # binds x.sigmoid(), x.softmax(dim), ...
    ops,
    random,
    search,
    stat,
)
from framework.tensor import einsum as _einsum_module  # noqa: F401 - `einsum` names the function

# isort: split

from framework.core.printing import set_printoptions
from framework.core.tensor import Tensor as _Tensor
from framework.ops.signal import istft, stft
from framework.tensor.array import *  # noqa: F403
from framework.tensor.attribute import *  # noqa: F403
from framework.tensor.compat_softmax import softmax
from framework.tensor.creation import *  # noqa: F403
from framework.tensor.einsum import *  # noqa: F403
from framework.tensor.linalg import *  # noqa: F403
from framework.tensor.logic import *  # noqa: F403
from framework.tensor.manipulation import *  # noqa: F403
from framework.tensor.math import *  # noqa: F403
from framework.tensor.method_lists import magic_method_func, tensor_method_func
from framework.tensor.nn_methods import sigmoid_
from framework.tensor.ops import *  # noqa: F403
from framework.tensor.random import *  # noqa: F403
from framework.tensor.search import *  # noqa: F403
from framework.tensor.stat import *  # noqa: F403

# In-place op Paddle binds onto Tensor, as a function (`paddle.tensor.clamp_(x, 0, 1)`).
clamp_ = _Tensor.clamp_

__all__ = sorted(
    {
        name
        for topic in (array, attribute, creation, _einsum_module, linalg, logic)
        + (manipulation, math, ops, random, search, stat)
        for name in topic.__all__
    }
    | {"clamp_", "set_printoptions", "sigmoid_", "softmax", "stft", "istft"}
    | {"magic_method_func", "tensor_method_func"}
)
