"""Array kernels for graph ops: `build(node, ctx)` returns a callable on raw arrays.

A kernel builder runs once per node when an executor is compiled; the callable it returns runs
on every request, so builders precompute what they can (activation functions, padded weights,
reshaped scales). The contract:

- a kernel returns a fresh array (or a tuple of them) that aliases none of its inputs, unless
  its op is in `VIEW_OPS` (then it may return views of its first input) or the memory plan
  let it write into an input (`ctx.inplace`);
- it allocates outputs through `ctx.empty` / `ctx.output_like`, which take buffers from the
  executor's arena, so a steady stream of requests allocates nothing;
- it is backend-neutral: `ctx.xp` is numpy or cupy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from framework.backends.cpu import threads
from framework.backends.cpu.threads import parallel_for, split_ranges
from framework.inference.arena import BufferArena
from framework.jit.graph import Node
from framework.ops.nn.layout import memory_order

KernelBuilder = Callable[[Node, "KernelContext"], Callable[..., Any]]

# Ops whose outputs may be views of their first input (the memory plan treats them so).
VIEW_OPS = frozenset(
    {"reshape", "transpose", "slice", "split", "unstack", "identity", "expand", "squeeze"}
)
# Elementwise ops whose output has an input's shape, so they may write into a dying input.
INPLACE_OPS = frozenset(
    "add subtract multiply divide maximum minimum pow neg abs exp expm1 log log1p log2 log10 "
    "sqrt rsqrt square reciprocal sin cos tan asin acos atan sinh cosh tanh erf floor ceil trunc "
    "sign relu sigmoid silu hardswish clip leaky_relu hard_sigmoid scale elu celu softsign "
    "batch_norm".split()
)

_BUILDERS: dict[str, KernelBuilder] = {}
_INTERNAL: dict[str, KernelBuilder] = {}


def kernel(*op_types: str) -> Callable[[KernelBuilder], KernelBuilder]:
    def register(builder: KernelBuilder) -> KernelBuilder:
        for op_type in op_types:
            _BUILDERS[op_type] = builder
        return builder

    return register


def internal_kernel(op_type: str) -> Callable[[KernelBuilder], KernelBuilder]:
    """Registers the kernel of an op that only executor-internal rewrites create (fusions
    with no schema): `builder_for` finds it, `supported_ops` does not list it."""

    def register(builder: KernelBuilder) -> KernelBuilder:
        _INTERNAL[op_type] = builder
        return builder

    return register


def builder_for(op_type: str) -> KernelBuilder:
    found = _BUILDERS.get(op_type) or _INTERNAL.get(op_type)
    if found is None:
        raise NotImplementedError(f"no inference kernel for op {op_type!r}")
    return found


def supported_ops() -> list[str]:
    return sorted(_BUILDERS)


def share_out(work: Callable[[int, int], object], count: int, workers: int) -> None:
    """`work(start, stop)` over `[0, count)`, cut into at most `workers` ranges that run on the
    framework's CPU thread pool (the calling thread takes the first)."""
    parts = min(workers, count)
    if parts <= 1:
        work(0, count)
        return
    ranges = split_ranges(count, parts)
    parallel_for(lambda a, b: [work(*ranges[i]) for i in range(a, b)], parts)


class PreparedWeights:
    """Weights that kernels derive from initializers (GEMM layouts, Winograd transforms),
    made once and shared read-only by an executor, the twins that run slices of its batches
    and the predictor's clones (keys name graph nodes: all of them run the same graph)."""

    def __init__(self) -> None:
        self._made: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple, make: Callable[[], Any]) -> Any:
        with self._lock:  # users running in parallel wait for the first one's result
            found = self._made.get(key)
            if found is None:
                found = self._made[key] = make()
            return found


class KernelContext:
    """What a kernel builder may use: the array module, the arena, the memory plan's in-place
    decision, and the arrays of inputs that are initializers (for precomputation)."""

    def __init__(
        self,
        xp: Any = np,
        arena: BufferArena | None = None,
        inplace: int | None = None,
        static_inputs: list[Any] | None = None,
        escapes: bool = False,
        workers: int = 1,
        prepared: PreparedWeights | None = None,
    ) -> None:
        self.xp = xp
        self._workers = workers
        self._prepared = PreparedWeights() if prepared is None else prepared
        self.arena = arena
        self.inplace = inplace
        self.static_inputs = static_inputs or []
        self.escapes = escapes  # the output leaves the executor: never from the arena

    @property
    def workers(self) -> int:
        """CPU cores a kernel may share its chunks out over in this run: the executor's count,
        or fewer under `threads.at_most` (a single-sample run keeps every op on its thread)."""
        return min(self._workers, threads.workers())

    def prepared(self, key: tuple, make: Callable[[], Any]) -> Any:
        """`make()`'s weight under `key`, made once (see `PreparedWeights`)."""
        return self._prepared.get(key, make)

    def static(self, index: int) -> Any:
        """The initializer array feeding input `index`, or None when it is computed."""
        return self.static_inputs[index] if index < len(self.static_inputs) else None

    def empty(self, shape: tuple[int, ...], dtype: Any, order: tuple[int, ...] | None = None):
        if self.arena is None or self.escapes:
            if order is None:
                return self.xp.empty(shape, dtype=dtype)
            from framework.inference.arena import inverse

            physical = tuple(shape[axis] for axis in order)
            return self.xp.empty(physical, dtype=dtype).transpose(inverse(order))
        return self.arena.empty(shape, dtype, order)

    def empty_like(self, array: Any, shape: tuple[int, ...] | None = None, dtype: Any = None):
        shape = array.shape if shape is None else tuple(shape)
        dtype = array.dtype if dtype is None else dtype
        order = None
        if len(shape) == array.ndim and array.ndim > 1:
            try:
                order = memory_order(array)
            except ValueError:
                order = None
        return self.empty(shape, dtype, order)

    def output_like(self, inputs: tuple, shape: tuple[int, ...], dtype: Any):
        """The output buffer of an elementwise op: the planned in-place input when it fits,
        else a new array laid out like the first input of that shape."""
        k = self.inplace
        if k is not None and k < len(inputs):
            candidate = inputs[k]  # the plan checked that it is a fresh buffer dying here
            if candidate.shape == shape and candidate.dtype == dtype:
                return candidate
        for array in inputs:
            if getattr(array, "shape", None) == shape:
                return self.empty_like(array, shape, dtype)
        return self.empty(shape, dtype)
