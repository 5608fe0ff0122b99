"""Process-wide switches Paddle exposes at top level: `get_flags` / `set_flags` (also as
`paddle.base.set_flags`), `LazyGuard` and `disable_signal_handler`.

The framework has no C++ runtime whose behaviour the flags select, so they are a registry:
`set_flags` records a value, `get_flags` reads it back, and scripts that tune Paddle's flags run
unchanged. The registry holds the flags of Paddle's FLAGS guide (docs/guides/flags) that Paddle
3.3 still defines, at Paddle 3.3's defaults, plus the few newer ones Paddle code commonly sets.
As in Paddle, any other name is refused with "Flag ... cannot set/get its value through this
function.", and a value is converted to the flag's type (a bool flag takes 0 or 1) or refused.
"""

from __future__ import annotations

from collections.abc import Sequence

FlagValue = bool | int | float | str

_DEFAULTS: dict[str, FlagValue] = {
    # memory management
    "FLAGS_allocator_strategy": "auto_growth",
    "FLAGS_eager_delete_scope": True,
    "FLAGS_eager_delete_tensor_gb": 0.0,
    "FLAGS_fast_eager_deletion_mode": True,
    "FLAGS_fraction_of_cpu_memory_to_use": 1.0,
    "FLAGS_fraction_of_cuda_pinned_memory_to_use": 0.5,
    "FLAGS_fraction_of_gpu_memory_to_use": 0.92,
    "FLAGS_fuse_parameter_groups_size": 1,
    "FLAGS_fuse_parameter_memory_size": -1.0,
    "FLAGS_init_allocated_mem": False,
    "FLAGS_initial_cpu_memory_in_mb": 500,
    "FLAGS_initial_gpu_memory_in_mb": 0,
    "FLAGS_memory_fraction_of_eager_deletion": 1.0,
    "FLAGS_reallocate_gpu_memory_in_mb": 0,
    "FLAGS_use_cuda_managed_memory": False,
    "FLAGS_use_pinned_memory": True,
    # debugging and profiling
    "FLAGS_call_stack_level": 1,
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_multiple_of_cupti_buffer_size": 1,
    "FLAGS_reader_queue_speed_test_mode": False,
    "FLAGS_benchmark": False,
    "FLAGS_tracer_profile_fname": "xxgperf",
    "FLAGS_print_sub_graph_dir": "",
    # devices, threads and kernels
    "FLAGS_paddle_num_threads": 1,
    "FLAGS_inner_op_parallelism": 0,
    "FLAGS_use_mkldnn": False,
    "FLAGS_enable_pir_api": True,
    # cuDNN (flags of Paddle's GPU build, at the guide's defaults)
    "FLAGS_conv_workspace_size_limit": 512,
    "FLAGS_cudnn_batchnorm_spatial_persistent": False,
    "FLAGS_cudnn_deterministic": False,
    "FLAGS_cudnn_exhaustive_search": False,
    "FLAGS_embedding_deterministic": 0,
    # distributed
    "FLAGS_allreduce_record_one_event": False,
    "FLAGS_apply_pass_to_program": False,
    "FLAGS_communicator_max_merge_var_num": 20,
    "FLAGS_communicator_send_queue_size": 20,
    "FLAGS_dist_threadpool_size": 0,
}
_FLAGS: dict[str, FlagValue] = dict(_DEFAULTS)


def _converted(name: str, value: object) -> FlagValue:
    """`value` as the flag's type, as Paddle's C++ flags convert it: a bool flag takes any
    number (or None) as its truth value, an int flag ints and bools, a float flag any number,
    a string flag only strings."""
    kind = type(_DEFAULTS[name])
    if kind is bool and (value is None or isinstance(value, int | float)):
        return bool(value)
    if kind is int and isinstance(value, int):
        return int(value)
    if kind is float and isinstance(value, int | float):
        return float(value)
    if kind is str and isinstance(value, str):
        return value
    raise TypeError(
        f"set_flags: {name} takes a {kind.__name__}, got {type(value).__name__} {value!r}"
    )


def set_flags(flags: dict[str, FlagValue]) -> None:
    """Set flags from a `{name: value}` dict; an unknown name is refused, as in Paddle, and
    nothing is changed when any name or value in `flags` is refused.

        framework.set_flags({"FLAGS_eager_delete_tensor_gb": 1.0})
    """
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    updates = {}
    for name, value in flags.items():
        if name not in _DEFAULTS:
            raise ValueError(f"Flag {name} cannot set its value through this function.")
        updates[name] = _converted(name, value)
    _FLAGS.update(updates)


def get_flags(flags: str | Sequence[str]) -> dict[str, FlagValue]:
    """The values of one flag or several (a str, list or tuple), as a `{name: value}` dict.

    framework.get_flags(["FLAGS_eager_delete_tensor_gb", "FLAGS_check_nan_inf"])
    # {'FLAGS_eager_delete_tensor_gb': 0.0, 'FLAGS_check_nan_inf': False}
    """
    if isinstance(flags, str):
        names = [flags]
    elif isinstance(flags, list | tuple):
        names = list(flags)
    else:
        raise TypeError("Flags in get_flags should be a list, tuple or string.")
    result = {}
    for name in names:
        if name not in _FLAGS:
            raise ValueError(f"Flag {name} cannot get its value through this function.")
        result[name] = _FLAGS[name]
    return result


class LazyGuard:
    """`with LazyGuard(): model = Net()`: Paddle defers parameter initialisation inside it.

    Here parameters are initialised when created (NumPy arrays are cheap to make), so the guard
    changes nothing; it exists so code that builds large models under it runs unchanged.
    """

    def __enter__(self) -> LazyGuard:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def disable_signal_handler() -> None:
    """Paddle removes its C++ signal handlers so that another library can install its own.
    This framework installs none, so there is nothing to remove."""
