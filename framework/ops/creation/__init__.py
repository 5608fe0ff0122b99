"""Creating tensors: constants, ranges, random draws. `TENSOR_METHODS` binds the in-place
random fills (`x.uniform_()`, `x.normal_()`, `x.bernoulli_()`, `x.exponential_()`,
`x.random_()`, `x.cauchy_()`, `x.geometric_()`, `x.log_normal_()`) and `x.multinomial()`."""

from framework.ops.creation.assign import assign
from framework.ops.creation.constant import (
    check_shape,
    empty,
    empty_like,
    fill_constant,
    full,
    full_like,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from framework.ops.creation.conversion import (
    as_tensor,
    asarray,
    from_dlpack,
    from_numpy,
    to_dlpack,
    tolist,
)
from framework.ops.creation.create_tensor import create_tensor
from framework.ops.creation.distributions import (
    binomial,
    log_normal,
    poisson,
    standard_gamma,
)
from framework.ops.creation.log_and_like import (
    logspace,
    rand_like,
    randn_like,
)
from framework.ops.creation.new_tensors import TENSOR_METHODS as NEW_TENSOR_METHODS
from framework.ops.creation.random import (
    bernoulli,
    bernoulli_,
    exponential_,
    multinomial,
    normal,
    normal_,
    rand,
    randint,
    randint_like,
    randn,
    randperm,
    standard_normal,
    uniform,
    uniform_,
)
from framework.ops.creation.random_fills import cauchy_, geometric_, log_normal_, random_
from framework.ops.creation.ranges import (
    arange,
    eye,
    linspace,
    range,  # noqa: A004
)

__all__ = [
    "create_tensor",
    "arange",
    "as_tensor",
    "asarray",
    "assign",
    "bernoulli",
    "bernoulli_",
    "cauchy_",
    "binomial",
    "check_shape",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "from_numpy",
    "fill_constant",
    "full",
    "full_like",
    "geometric_",
    "linspace",
    "log_normal",
    "log_normal_",
    "logspace",
    "multinomial",
    "normal",
    "normal_",
    "ones",
    "ones_like",
    "poisson",
    "rand",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "randperm",
    "range",
    "standard_gamma",
    "standard_normal",
    "to_dlpack",
    "tolist",
    "uniform",
    "zeros",
    "zeros_like",
]

TENSOR_METHODS = {
    **NEW_TENSOR_METHODS,
    # Paddle binds it too, though the method passes the tensor as `dtype`.
    "create_tensor": create_tensor,
    "bernoulli_": bernoulli_,
    "cauchy_": cauchy_,
    "exponential_": exponential_,
    "geometric_": geometric_,
    "log_normal_": log_normal_,
    "multinomial": multinomial,
    "normal_": normal_,
    "random_": random_,
    "uniform_": uniform_,
}
