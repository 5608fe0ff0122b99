"""`framework.base`, as `paddle.base` (Paddle 3's name for the former `paddle.fluid`): the parts
of it that map onto this framework.

    import framework as paddle
    with paddle.base.dygraph.guard():            # dynamic mode, the only mode here
        w = paddle.base.ParamAttr(name="w")

Static-graph names (`Program`, `Executor`, `program_guard`, `default_main_program`, ...) raise
NotImplementedError pointing at `framework.jit.to_static`: the framework is dynamic-graph only.
Paddle's C++ `paddle.base.core` has no counterpart here and is left out.
"""

from framework.base import (
    data_feeder,
    dygraph,
    framework,
    initializer,
    param_attr,
    unique_name,
)
from framework.base.dygraph import disable_dygraph, enable_dygraph
from framework.base.framework import (
    Executor,
    Program,
    default_main_program,
    default_startup_program,
    in_dygraph_mode,
    program_guard,
)
from framework.base.initializer import set_global_initializer
from framework.base.param_attr import ParamAttr
from framework.core.autograd import grad as gradients
from framework.core.backend import CPUPlace, CUDAPlace, is_compiled_with_cuda
from framework.core.runtime_switches import get_flags, set_flags
from framework.core.tensor import Tensor

__all__ = [
    "CPUPlace",
    "CUDAPlace",
    "Executor",
    "ParamAttr",
    "Program",
    "Tensor",
    "data_feeder",
    "default_main_program",
    "default_startup_program",
    "disable_dygraph",
    "dygraph",
    "enable_dygraph",
    "framework",
    "get_flags",
    "gradients",
    "in_dygraph_mode",
    "initializer",
    "is_compiled_with_cuda",
    "param_attr",
    "program_guard",
    "set_flags",
    "set_global_initializer",
    "unique_name",
]
