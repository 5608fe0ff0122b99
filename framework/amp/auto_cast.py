"""`auto_cast`: run chosen ops in float16/bfloat16, as `paddle.amp.auto_cast` does.

Ops consult `amp_cast(op_name, *tensors)` on entry. Outside `auto_cast` that is one attribute
check; inside, O1 runs white-list ops (matmul, conv) in low precision, black-list ops (softmax,
losses, reductions, norms, exp/log) in float32, and promotes everything else to float32 when
inputs are mixed. O2 runs every op but the black list in low precision.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from contextlib import contextmanager

import numpy as np

WHITE_LIST = frozenset(
    {"conv1d", "conv2d", "conv1d_transpose", "conv2d_transpose", "matmul", "linear", "einsum"}
)
BLACK_LIST = frozenset(
    {
        "exp",
        "expm1",
        "log",
        "log2",
        "log10",
        "pow",
        "square",
        "reciprocal",
        "rsqrt",
        "sum",
        "mean",
        "prod",
        "cumsum",
        "cumprod",
        "norm",
        "softmax",
        "log_softmax",
        "softplus",
        "layer_norm",
        "group_norm",
        "batch_norm",
        "instance_norm",
        "cross_entropy",
        "softmax_with_cross_entropy",
        "nll_loss",
        "mse_loss",
        "l1_loss",
        "smooth_l1_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "kl_div",
        "sigmoid_focal_loss",
    }
)


class _AmpState(threading.local):
    enabled = False
    level = "O0"
    dtype = np.dtype("float16")
    white: frozenset = WHITE_LIST
    black: frozenset = BLACK_LIST


_state = _AmpState()


def low_precision_dtype(name: str) -> np.dtype:
    if name == "float16":
        return np.dtype("float16")
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:
            raise RuntimeError(
                "bfloat16 needs the ml_dtypes package on CPU; use dtype='float16' instead"
            ) from None
        return np.dtype(ml_dtypes.bfloat16)
    raise ValueError(f"amp dtype must be 'float16' or 'bfloat16', got {name!r}")


@contextmanager
def auto_cast(
    enable: bool = True,
    custom_white_list: Iterable[str] | None = None,
    custom_black_list: Iterable[str] | None = None,
    level: str = "O1",
    dtype: str = "float16",
    use_promote: bool = True,
):
    """Mixed precision for the ops run inside the block.

    with framework.amp.auto_cast():
        loss = loss_fn(model(x), y)   # conv/matmul in float16, loss in float32
    """
    if level not in ("O0", "O1", "O2", "OD"):
        raise ValueError(f"level must be 'O0', 'O1', 'O2' or 'OD', got {level!r}")
    white = set(WHITE_LIST) | set(custom_white_list or ())
    black = set(BLACK_LIST) | set(custom_black_list or ())
    overlap = set(custom_white_list or ()) & set(custom_black_list or ())
    if overlap:
        raise ValueError(f"ops in both custom lists: {sorted(overlap)}")
    white -= set(custom_black_list or ())
    black -= set(custom_white_list or ())
    previous = (_state.enabled, _state.level, _state.dtype, _state.white, _state.black)
    _state.enabled = bool(enable) and level != "O0"
    _state.level = level
    _state.dtype = low_precision_dtype(dtype)
    _state.white = frozenset(white)
    _state.black = frozenset(black)
    try:
        yield
    finally:
        _state.enabled, _state.level, _state.dtype, _state.white, _state.black = previous


def is_auto_cast_enabled() -> bool:
    return _state.enabled


def amp_cast(op_name: str, *tensors):
    """The inputs of `op_name`, cast as the active auto_cast policy says (unchanged outside)."""
    if not _state.enabled:
        return tensors
    if op_name in _state.black:
        target = np.dtype("float32")
    elif op_name in _state.white or _state.level == "O2":
        target = _state.dtype
    elif _state.level == "OD":
        return tensors
    else:
        floats = {t.dtype for t in tensors if t is not None and t.dtype.kind == "f"}
        if len(floats) <= 1:
            return tensors
        target = np.dtype("float32")
    return tuple(_cast_float(t, target) for t in tensors)


def _cast_float(tensor, target: np.dtype):
    if tensor is None or tensor.dtype.kind not in "fV" or tensor.dtype == target:
        return tensor
    from framework.ops.manipulation import cast

    return cast(tensor, target)


def autocast(
    device_type: str | None = None,
    dtype: str = "float16",
    enabled: bool = True,
    cache_enabled: bool = True,
):
    """PyTorch-style spelling of `auto_cast` (level O1): `with autocast("gpu", "bfloat16"):`.
    `device_type` and `cache_enabled` are accepted and unused, as in Paddle.

        with framework.amp.autocast("gpu"):
            y = model(x)
    """
    return auto_cast(enable=enabled, dtype=dtype)


def is_autocast_enabled(device_type: object = None) -> bool:
    """Whether an `auto_cast` block is active here (`device_type` is ignored: one AMP state
    serves every device, as in Paddle).

        with framework.amp.auto_cast():
            framework.amp.is_autocast_enabled()   # True
    """
    return _state.enabled


def get_autocast_dtype(device_type: object = None) -> str:
    """The low-precision dtype of the active `auto_cast` block ('float16' or 'bfloat16'), or
    'float16' outside one, as in Paddle.

        framework.amp.get_autocast_dtype()   # 'float16'
    """
    return _state.dtype.name if _state.enabled else "float16"


get_autocast_cpu_dtype = get_autocast_gpu_dtype = get_autocast_dtype
