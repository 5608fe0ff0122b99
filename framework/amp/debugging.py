"""`framework.amp.debugging`, as `paddle.amp.debugging`: finding NaN/Inf and counting the ops
that ran in each precision.

    from framework.amp import debugging
    debugging.check_numerics(y, "pow", "y")               # raises on NaN/Inf, as Paddle
    debugging.enable_tensor_checker(debugging.TensorCheckerConfig(enable=True))
    ...                                                     # every op's output is checked
    debugging.disable_tensor_checker()
    with debugging.collect_operator_stats():               # prints calls per op and dtype
        out = model(x)

Op outputs are seen at the framework's dispatch point (`Function.apply`, and `record_op` for
the ops without a gradient); op names are the framework's (`Add`, `Matmul`, `greater_than`),
not Paddle's kernel names. Creation ops (`ones`, `rand`, ...) do not pass that point, and
a `framework.jit.to_static` function runs its captured graph outside it (tracing it owns the
hook), so those ops are neither counted nor checked.

`check_layer_numerics` checks the ops of a layer's forward (Paddle also checks its backward
ops; here the backward pass is not checked). Left out: `compare_accuracy`, which compares
the dump files Paddle's C++ checker writes.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from framework.core import autograd, recording
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


class DebugMode(enum.Enum):
    """What the tensor checker and `check_numerics` do, as `paddle.amp.debugging.DebugMode`.

    CHECK_NAN_INF_AND_ABORT raises on the first NaN/Inf; CHECK_NAN_INF prints it and goes on;
    CHECK_ALL_FOR_OVERFLOW also reports float32 values that overflow float16; CHECK_ALL prints
    the statistics of every checked tensor.
    """

    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3


_FLOAT16_MAX = float(np.finfo(np.float16).max)


def _dtype_label(dtype: np.dtype) -> str:
    name = np.dtype(dtype).name
    return {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64"}.get(
        name, name
    )


def _is_float(dtype: np.dtype) -> bool:
    return np.dtype(dtype).kind in "fc" or np.dtype(dtype).name == "bfloat16"


def _stats(array) -> tuple[int, int, int, float, float, float]:
    xp = get_array_module(array)
    values = array.astype(np.float32) if np.dtype(array.dtype).itemsize < 4 else array
    nan = int(xp.isnan(values).sum())
    inf = int(xp.isinf(values).sum())
    zero = int((values == 0).sum())
    if values.size:
        with np.errstate(all="ignore"):
            finite_or_inf = values[~xp.isnan(values)]
            high = float(finite_or_inf.max()) if finite_or_inf.size else float("nan")
            low = float(finite_or_inf.min()) if finite_or_inf.size else float("nan")
            mean = float(values.mean())
    else:
        high = low = mean = float("nan")
    return nan, inf, zero, high, low, mean


def _check(array, op_type: str, var_name: str, mode: DebugMode, output_dir: str | None) -> tuple:
    nan, inf, zero, high, low, mean = _stats(array)
    overflow = 0
    if mode is DebugMode.CHECK_ALL_FOR_OVERFLOW and np.dtype(array.dtype) == np.float32:
        xp = get_array_module(array)
        overflow = int((xp.abs(array[xp.isfinite(array)]) > _FLOAT16_MAX).sum())
    where = (
        f"[device={'cpu' if get_array_module(array) is np else 'gpu'}, op={op_type}, "
        f"tensor={var_name}, dtype={_dtype_label(array.dtype)}]"
    )
    bad = nan or inf
    if bad and mode is DebugMode.CHECK_NAN_INF_AND_ABORT:
        raise RuntimeError(
            f"There are NAN or INF (num_nan={nan}, num_inf={inf}, num_zero={zero}) in {where}."
        )
    if bad or overflow or mode is DebugMode.CHECK_ALL:
        level = "ERROR" if bad else ("WARNING" if overflow else "INFO")
        line = (
            f"[PRECISION] [{level}] in {where}, numel={array.size}, num_nan={nan}, "
            f"num_inf={inf}, num_zero={zero}, max={high:g}, min={low:g}, mean={mean:g}"
        )
        if overflow:
            line += f", num_fp16_overflow={overflow}"
        if output_dir is None:
            print(line, file=sys.stderr)
        else:
            os.makedirs(output_dir, exist_ok=True)
            with open(os.path.join(output_dir, f"worker_{os.getpid()}.log"), "a") as log:
                log.write(line + "\n")
    return nan, inf, zero, high, low, mean


def check_numerics(
    tensor: Tensor,
    op_type: str,
    var_name: str,
    debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT,
) -> tuple[Tensor, Tensor]:
    """Count NaN, Inf and zeros in a floating tensor, as `paddle.amp.debugging.check_numerics`.

    Returns `(stats, values)`: int64 `[num_nan, num_inf, num_zero]` and float32
    `[max, min, mean]`. With a NaN/Inf, CHECK_NAN_INF_AND_ABORT (the default) raises
    RuntimeError naming `op_type` and `var_name`; CHECK_NAN_INF prints a `[PRECISION] [ERROR]`
    line to stderr and returns.
    """
    array = tensor._data
    if not _is_float(array.dtype):
        raise TypeError(
            f"check_numerics: expected a floating-point tensor, got {np.dtype(array.dtype).name}"
        )
    nan, inf, zero, high, low, mean = _check(array, op_type, var_name, DebugMode(debug_mode), None)
    xp = get_array_module(array)
    stats = Tensor._wrap(xp.asarray([nan, inf, zero], dtype=np.int64))
    values = Tensor._wrap(xp.asarray([high, low, mean], dtype=np.float32))
    return stats, values


class TensorCheckerConfig:
    """Settings for `enable_tensor_checker`, as `paddle.amp.debugging.TensorCheckerConfig`.

    `enable` turns checking on; `debug_mode` is a `DebugMode`; `output_dir` (None: stderr)
    receives the report lines; `checked_op_list` / `skipped_op_list` name ops (the framework's
    names, e.g. 'Matmul', or their lower-case form) to check only / never; `debug_step`
    `[start, end)` checks only those calls of `enable_tensor_checker` (counted from 0), as
    Paddle counts training steps. `stack_height_limit` is accepted for Paddle's signature; no
    Python stack is printed.
    """

    def __init__(
        self,
        enable: bool,
        debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT,
        output_dir: str | None = None,
        checked_op_list: Sequence[str] | None = None,
        skipped_op_list: Sequence[str] | None = None,
        debug_step: Sequence[int] | None = None,
        stack_height_limit: int = 1,
    ) -> None:
        if not isinstance(debug_mode, DebugMode):
            raise TypeError(f"debug_mode must be a DebugMode, got {debug_mode!r}")
        if debug_step is not None:
            if len(debug_step) != 2 or not 0 <= debug_step[0] < debug_step[1]:
                raise ValueError(
                    f"debug_step must be [start, end) with 0 <= start < end, got {debug_step!r}"
                )
        self.enable = enable
        self.debug_mode = debug_mode
        self.output_dir = output_dir
        self.checked_op_list = {n.lower() for n in checked_op_list or ()}
        self.skipped_op_list = {n.lower() for n in skipped_op_list or ()}
        self.debug_step = tuple(debug_step) if debug_step is not None else None
        self.stack_height_limit = stack_height_limit
        self.current_step = -1

    def update_and_check_step_id(self) -> bool:
        """Count one step; whether this step is checked."""
        self.current_step += 1
        if self.debug_step is None:
            return self.enable
        return self.enable and self.debug_step[0] <= self.current_step < self.debug_step[1]

    def wants(self, op_type: str) -> bool:
        name = op_type.lower()
        if name in self.skipped_op_list:
            return False
        return not self.checked_op_list or name in self.checked_op_list


# --- the dispatch hook shared by the op statistics and the tensor checker -----------------------

_op_stats: dict[str, dict[str, int]] | None = None
_checker: TensorCheckerConfig | None = None
_previous_hooks: tuple | None = None


def _outputs_of(outputs) -> tuple:
    return outputs if type(outputs) is tuple else (outputs,)


def _observe(op_type: str, outputs: tuple) -> None:
    arrays = [a for a in outputs if hasattr(a, "dtype") and hasattr(a, "shape")]
    if _op_stats is not None:
        dtype = next((a.dtype for a in arrays if _is_float(a.dtype)), None)
        label = {"fp16": "fp16", "bf16": "bf16", "fp32": "fp32"}.get(
            _dtype_label(dtype) if dtype is not None else "", "other"
        )
        _op_stats[op_type][label] += 1
    checker = _checker
    if checker is not None and checker.wants(op_type):
        for index, array in enumerate(arrays):
            if _is_float(array.dtype):
                name = f"{op_type}.out{index}" if len(arrays) > 1 else f"{op_type}.out"
                _check(array, op_type, name, checker.debug_mode, checker.output_dir)


def _function_hook(fn, arrays, outputs) -> None:
    _observe(type(fn).__name__, _outputs_of(outputs))
    if _previous_hooks and _previous_hooks[0] is not None:
        _previous_hooks[0](fn, arrays, outputs)


def _op_hook(op_type, inputs, attrs, output) -> None:
    _observe(op_type, _outputs_of(output))
    if _previous_hooks and _previous_hooks[1] is not None:
        _previous_hooks[1](op_type, inputs, attrs, output)


def _sync_hooks() -> None:
    global _previous_hooks
    wanted = _op_stats is not None or _checker is not None
    if wanted and _previous_hooks is None:
        _previous_hooks = (
            autograd.set_trace_hook(_function_hook),
            recording.set_op_hook(_op_hook),
        )
    elif not wanted and _previous_hooks is not None:
        autograd.set_trace_hook(_previous_hooks[0])
        recording.set_op_hook(_previous_hooks[1])
        _previous_hooks = None


# --- tensor checker ------------------------------------------------------------------------------


def enable_tensor_checker(checker_config: TensorCheckerConfig) -> None:
    """Check the output of every op for NaN/Inf until `disable_tensor_checker`, as Paddle.

    Each call counts one step of `checker_config.debug_step`; outside those steps (or with
    `enable=False`) checking is off.
    """
    global _checker
    _checker = checker_config if checker_config.update_and_check_step_id() else None
    _sync_hooks()


def disable_tensor_checker() -> None:
    """Stop the checking that `enable_tensor_checker` started."""
    global _checker
    _checker = None
    _sync_hooks()


def check_layer_numerics(func: Callable) -> Callable:
    """Decorate a layer's `forward` so every op it runs is checked for NaN/Inf, raising at the
    first one (CHECK_NAN_INF_AND_ABORT), as `paddle.amp.debugging.check_layer_numerics`.

    As in Paddle, the first argument must be a tensor. Only the forward ops are checked.
    """

    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        if not args:
            raise RuntimeError("No elements found in args.")
        if not isinstance(args[0], Tensor):
            raise RuntimeError("First input of this layer must be tensor.")
        global _checker
        previous = _checker
        _checker = TensorCheckerConfig(enable=True)
        _sync_hooks()
        try:
            return func(self, *args, **kwargs)
        finally:
            _checker = previous
            _sync_hooks()

    return wrapper


# --- operator statistics -------------------------------------------------------------------------


def enable_operator_stats_collection() -> None:
    """Start counting op calls by output precision (fp16, bf16, fp32, other)."""
    global _op_stats
    _op_stats = defaultdict(lambda: defaultdict(int))
    _sync_hooks()


def _print_stats(stats: dict[str, dict[str, int]]) -> None:
    print(f"<{' op list ':-^120}>")
    header = (
        f"<{' Op Name ':-^40}|{' FP16 Calls ':-^19}|{' BF16 Calls ':-^19}|"
        f"{' FP32 Calls ':-^19}|{' Other Calls ':-^20}>"
    )
    print(header)
    for name in sorted(stats):
        counts = stats[name]
        print(
            f"  {name:<39}|  {counts['fp16']:<17}|  {counts['bf16']:<17}|  "
            f"{counts['fp32']:<17}|  {counts['other']}"
        )
    print(f"<{f' op count: {len(stats)} ':-^120}>")


def disable_operator_stats_collection() -> None:
    """Stop counting and print the table of op calls per precision, as Paddle."""
    global _op_stats
    stats, _op_stats = _op_stats, None
    _sync_hooks()
    if stats is not None:
        _print_stats(stats)


@contextlib.contextmanager
def collect_operator_stats() -> Iterator[None]:
    """Count op calls by precision inside the block and print the table at its end."""
    enable_operator_stats_collection()
    try:
        yield
    finally:
        disable_operator_stats_collection()


__all__ = [
    "DebugMode",
    "TensorCheckerConfig",
    "check_layer_numerics",
    "check_numerics",
    "collect_operator_stats",
    "disable_operator_stats_collection",
    "disable_tensor_checker",
    "enable_operator_stats_collection",
    "enable_tensor_checker",
]
