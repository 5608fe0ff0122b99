"""`framework.framework`, as `paddle.framework`: the execution mode, default dtype, seed, places
and parameter attributes, re-exported from where the framework defines them.

The framework runs only in dynamic-graph (eager) mode: `in_dynamic_mode()` is always True,
`disable_static()` keeps it so (and selects `place` if given), and `enable_static()` raises,
pointing at `framework.jit.to_static`, which captures static graphs from eager code.
"""

from __future__ import annotations

from framework.core.autograd import grad, no_grad
from framework.core.backend import CPUPlace, CUDAPlace, Place, set_device
from framework.core.dtype import get_default_dtype, set_default_dtype
from framework.core.random import seed
from framework.core.serialization import load, save
from framework.core.tensor import Parameter
from framework.nn.param_attr import ParamAttr


def in_dynamic_mode() -> bool:
    """True: every op runs eagerly (Paddle's dynamic-graph mode is the only mode here)."""
    return True


def disable_static(place: str | Place | None = None) -> None:
    """Leave static-graph mode, as `paddle.disable_static`.

    Dynamic-graph mode is the only mode this framework has, so there is nothing to leave; the
    call exists so Paddle scripts that begin with it run unchanged. A `place` ('cpu', 'gpu:0',
    `CPUPlace()`, `CUDAPlace(0)`) is selected with `set_device`, as Paddle does.
    """
    if place is not None:
        set_device(place)


def enable_static() -> None:
    """Paddle's static-graph mode (Programs and an Executor) is not supported: raises.

    Write the model as dynamic-graph code and capture a static graph from it with
    `framework.jit.to_static` (save it with `framework.jit.save`).
    """
    raise NotImplementedError(
        "static graph mode (paddle.enable_static) is not supported: this framework runs in "
        "dynamic-graph mode only. Keep the code eager and use framework.jit.to_static to "
        "capture a static graph (and framework.jit.save to export it)."
    )


__all__ = [
    "CPUPlace",
    "CUDAPlace",
    "ParamAttr",
    "Parameter",
    "disable_static",
    "enable_static",
    "get_default_dtype",
    "grad",
    "in_dynamic_mode",
    "load",
    "no_grad",
    "save",
    "seed",
    "set_default_dtype",
]
