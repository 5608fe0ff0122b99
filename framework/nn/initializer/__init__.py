"""Parameter initializers (`framework.nn.initializer`), as in `paddle.nn.initializer`."""

from framework.nn.initializer.constant import Assign, Constant
from framework.nn.initializer.initializer import (
    Initializer,
    calculate_gain,
    compute_fans,
    set_global_initializer,
)
from framework.nn.initializer.kaiming import KaimingNormal, KaimingUniform, MSRAInitializer
from framework.nn.initializer.normal import Normal, TruncatedNormal
from framework.nn.initializer.structured import Bilinear, Dirac, Orthogonal
from framework.nn.initializer.uniform import Uniform
from framework.nn.initializer.xavier import XavierInitializer, XavierNormal, XavierUniform

__all__ = [
    "Assign",
    "Bilinear",
    "Constant",
    "Dirac",
    "Initializer",
    "KaimingNormal",
    "KaimingUniform",
    "MSRAInitializer",
    "Normal",
    "Orthogonal",
    "TruncatedNormal",
    "Uniform",
    "XavierInitializer",
    "XavierNormal",
    "XavierUniform",
    "calculate_gain",
    "compute_fans",
    "set_global_initializer",
]
