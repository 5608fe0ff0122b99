"""Tracing: run a model once and record every op it applies as a graph `Node`.

Every differentiable op goes through `Function.apply`, which calls the hook installed here with
the Function, its input arrays and its outputs; a translator (`framework.jit.translators`) turns
each Function into IR nodes. Ops without a gradient (comparisons, logical ops, argmax/argmin)
report themselves through `framework.core.recording` and become nodes directly. Arrays are
identified by object identity: graph inputs and the layer's parameters and buffers are named
up front (state_dict names), each recorded output gets a fresh name, and any other array an op
reads becomes a "constant" initializer.

While tracing, turning a tensor that depends on the inputs into a Python value (`bool(x)`,
`x.item()`, `int(x)`, `x.numpy()`, ...) raises `ControlFlowError`: the Python code that
follows would be specialised to this one input and silently baked into the graph. The
`if`/`while`/`for range` statements of the function `to_static` / `jit.save` trace are
transcribed first (`framework.jit.dy2static`), so those become `cond` / `while_loop` nodes
(`framework.jit.control_flow`, which traces each branch into a separate node list with
`Tracer.sub_trace`); the guard still catches the rest (sublayers' own control flow,
conditional expressions, `.item()`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from framework.core import autograd, recording
from framework.core.backend import to_numpy
from framework.core.tensor import Tensor
from framework.jit.errors import ControlFlowError, TracingError, UnsupportedOpError, location
from framework.jit.graph import Graph
from framework.jit.translators import translator_for

_trace_lock = threading.Lock()  # one trace at a time per process: the hook is global


class Tracer:
    """Collects nodes while a model runs; see the module docstring."""

    def __init__(self, name: str) -> None:
        self.graph = Graph(name)
        self._names: dict[int, str] = {}  # id(array) -> value name
        self._arrays: dict[str, Any] = {}  # value name -> array
        self._keep: list[Any] = []  # every named array stays alive, so ids stay unique
        self._dynamic: set[str] = set()  # values that depend on a graph input
        self._tainted: dict[int, tuple] = {}  # arrays from inputs via unrecordable ops
        self._scopes: list[str] = []
        self._counts: dict[str, int] = {}
        self._values = 0
        self._constants = 0
        self._thread = threading.get_ident()
        self.error: BaseException | None = None

    # --- naming ---------------------------------------------------------------------------------
    def bind_input(self, name: str, array: Any) -> None:
        self.graph.add_value(name, array.shape, array.dtype)
        self.graph.inputs.append(name)
        self._bind(name, array)
        self._dynamic.add(name)

    def bind_initializer(self, name: str, array: Any, kind: str, trainable: bool) -> None:
        if id(array) in self._names:
            return  # the same array under a second name (tied weights): keep the first
        self.graph.add_initializer(name, array, kind, trainable)
        self._bind(name, array)

    def _bind(self, name: str, array: Any) -> None:
        self._names[id(array)] = name
        self._arrays[name] = array
        self._keep.append(array)

    def bind_placeholder(self, array: Any, dynamic: bool) -> str:
        """A fresh value name for `array`, an input of a sub-graph being traced."""
        name = f"v{self._values}"
        self._values += 1
        self.graph.add_value(name, array.shape, array.dtype)
        self._bind(name, array)
        if dynamic:
            self._dynamic.add(name)
        return name

    def array_of(self, name: str) -> Any:
        return self._arrays[name]

    @contextmanager
    def sub_trace(self) -> Iterator[list]:
        """Record the nodes run inside into the list it yields instead of the graph (a branch
        or a loop body; `framework.jit.control_flow` turns them into a sub-graph)."""
        outer = self.graph.nodes
        nodes: list = []
        self.graph.nodes = nodes
        try:
            yield nodes
        finally:
            self.graph.nodes = outer

    def seal(self, names: Iterable[str]) -> None:
        """Values made inside a sub-graph: a later op reading them outside is reported."""
        for name in names:
            array = self._arrays.pop(name, None)
            if array is not None and self._names.get(id(array)) == name:
                del self._names[id(array)]
                self._tainted[id(array)] = (array, "")

    def name_of(self, array: Any) -> str:
        """The value name of `array`; an array never seen before becomes a constant."""
        if not hasattr(array, "shape"):  # a Python scalar an op kept as an attribute
            array = np.asarray(array)
        name = self._names.get(id(array))
        if name is None:
            name = f"const_{self._constants}"
            self._constants += 1
            self.graph.add_initializer(name, _snapshot(array), "constant")
            self._bind(name, array)
        return name

    def is_dynamic(self, array: Any) -> bool:
        name = self._names.get(id(array))
        if name is not None:
            return name in self._dynamic
        return id(array) in self._tainted

    def taint(self, result: Any, op: str) -> None:
        """Mark the arrays of `result` as computed from the inputs by `op`, which the graph
        cannot record (a comparison, argmax, ...)."""
        for tensor in result if isinstance(result, tuple | list) else (result,):
            if isinstance(tensor, Tensor):
                self._tainted[id(tensor._data)] = (tensor._data, op)

    @property
    def scope(self) -> str:
        return self._scopes[-1] if self._scopes else ""

    # --- recording ------------------------------------------------------------------------------
    def emit(
        self,
        op_type: str,
        inputs: Sequence[Any],
        attrs: dict[str, Any] | None = None,
        outputs: Sequence[Any] = (),
    ) -> list[str]:
        """Append a node. `inputs` are arrays, value names (str) or None (absent optional);
        `outputs` are the arrays the node produces (their shapes and dtypes are recorded)."""
        names = []
        for item in inputs:
            if item is None:
                names.append("")
            elif isinstance(item, str):
                names.append(item)
            else:
                tainted = self._tainted.get(id(item))
                if tainted is not None and id(item) not in self._names and not tainted[1]:
                    raise TracingError(
                        f"op {op_type} {location(self.scope)} reads a tensor made inside a "
                        "cond/while_loop branch that the branch does not return (it was kept "
                        "in an attribute, a list or a nonlocal variable). Return it from the "
                        "branch (or assign it in both branches of the `if`) instead."
                    )
                if tainted is not None and id(item) not in self._names:
                    raise UnsupportedOpError(
                        f"`{tainted[1]}` on a tensor computed from the inputs has no "
                        f"static-graph form, and its result feeds op {op_type} "
                        f"{location(self.scope)}. Compute it with recorded ops (e.g. "
                        "`framework.nn.functional.relu` instead of `where(x > 0, x, 0)`), or "
                        "run this model eagerly (to_static(..., full_graph=False))."
                    )
                names.append(self.name_of(item))
        out_names = []
        for array in outputs:
            name = f"v{self._values}"
            self._values += 1
            self.graph.add_value(name, array.shape, array.dtype)
            self._bind(name, array)
            out_names.append(name)
        count = self._counts.get(op_type, 0)
        self._counts[op_type] = count + 1
        from framework.jit.graph import Node

        self.graph.nodes.append(
            Node(op_type, names, out_names, dict(attrs or {}), f"{op_type}_{count}", self.scope)
        )
        if any(n in self._dynamic for n in names if n):
            self._dynamic.update(out_names)
        return out_names

    def record_op(self, op_type: str, inputs: list, attrs: dict, output: Any) -> None:
        """The `framework.core.recording` hook: ops without a Function (comparisons, ...).
        One that reads no graph input gives a constant, and is not recorded."""
        if threading.get_ident() != self._thread or self.error is not None:
            return
        if any(self.is_dynamic(array) for array in inputs):
            try:
                self.emit(op_type, inputs, attrs, [output])
            except TracingError as error:
                self.error = error
                raise

    def record(self, fn: autograd.Function, arrays: list, outputs: Any) -> None:
        """The `Function.apply` hook."""
        if threading.get_ident() != self._thread or self.error is not None:
            return
        outs = list(outputs) if type(outputs) is tuple else [outputs]
        translate = translator_for(type(fn))
        try:
            if translate is None:
                raise UnsupportedOpError(
                    f"op {type(fn).__name__} ({type(fn).__module__}) has no static-graph form "
                    f"yet, {location(self.scope)}. Rewrite that part with supported ops, or run "
                    "the model eagerly (to_static(..., full_graph=False) falls back to eager)."
                )
            translate(fn, arrays, outs, self)
        except TracingError as error:
            self.error = error
            raise

    # --- scopes ---------------------------------------------------------------------------------
    def push_scope(self, name: str) -> None:
        self._scopes.append(name)

    def pop_scope(self) -> None:
        if self._scopes:
            self._scopes.pop()


# --- the active tracer and the hooks it needs --------------------------------------------------
class _Active(threading.local):
    tracer: Tracer | None = None


_active = _Active()


def active_tracer() -> Tracer | None:
    """This thread's tracer while a trace runs, else None."""
    return _active.tracer


def is_tracing() -> bool:
    """Whether this thread is inside a trace (nested static functions then run their code)."""
    return _active.tracer is not None


_GUARDED = ("__bool__", "item", "__int__", "__float__", "__index__", "numpy", "tolist", "__array__")
_REWRITES = {
    "__bool__": "a Python `if`/`while`/`and`/`or` on a tensor",
    "item": "`.item()`",
    "__int__": "`int(tensor)`",
    "__float__": "`float(tensor)`",
    "__index__": "using a tensor as a Python index or size",
    "numpy": "`.numpy()`",
    "tolist": "`.tolist()`",
    "__array__": "NumPy on a tensor (`np.asarray(t)`, `np.mean(t)`, ...)",
}


# Tensor methods with no graph form whose results still depend on their operands: their
# outputs are marked, so a Python branch on them or an op reading them is reported.
# (Comparisons, logical ops and argmax/argmin are recorded through `framework.core.recording`;
# `&`, `|`, `^`, `~` stay here for their integer, bitwise forms.)
_UNRECORDED = (
    "__and__ __or__ __xor__ __invert__ argsort isnan isinf isfinite nonzero allclose isclose "
    "equal_all any all"
).split()


def _taint(method_name: str, original: Callable) -> Callable:
    def tainting(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        tracer = _active.tracer
        if tracer is not None and any(
            isinstance(t, Tensor) and tracer.is_dynamic(t._data) for t in (self, *args)
        ):
            tracer.taint(result, method_name.strip("_"))
        return result

    tainting.__name__ = method_name
    tainting.__doc__ = original.__doc__
    return tainting


def _guard(method_name: str, original: Callable) -> Callable:
    def guarded(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        tracer = _active.tracer
        if tracer is not None and tracer.is_dynamic(self._data):
            error = ControlFlowError(
                f"{_REWRITES[method_name]} turned a traced tensor (shape {self.shape}, computed "
                f"from the inputs) into a Python value {location(tracer.scope)}. The graph would "
                "be specialised to this one input. Rewrite it with tensor ops: "
                "`framework.where(cond, a, b)` or `framework.static.nn.cond(pred, true_fn, "
                "false_fn)` instead of `if`, keep values as tensors instead "
                "of `.item()`/`.numpy()`, read sizes from `x.shape` instead of tensors; or run "
                "that layer eagerly (to_static(..., full_graph=False))."
            )
            tracer.error = error
            raise error
        return original(self, *args, **kwargs)

    guarded.__name__ = method_name
    guarded.__doc__ = original.__doc__
    return guarded


@contextmanager
def tracing(tracer: Tracer, layer: Any = None) -> Iterator[Tracer]:
    """Install `tracer` (the op hook, the tensor-conversion guards and layer scopes)."""
    if not _trace_lock.acquire(timeout=600):
        raise TracingError("another trace has been running for 10 minutes; giving up")
    own = vars(Tensor)  # patch only what Tensor defines itself, so restoring is exact
    originals = {name: own[name] for name in (*_GUARDED, *_UNRECORDED) if name in own}
    handles: list = []
    transcribed: list = []
    try:
        for name, original in originals.items():
            wrap = _guard if name in _GUARDED else _taint
            setattr(Tensor, name, wrap(name, original))
        if layer is not None:
            handles = _scope_hooks(tracer, layer)
            transcribed = _transcribe_sublayers(layer)
        _active.tracer = tracer
        previous = autograd.set_trace_hook(tracer.record)
        previous_op_hook = recording.set_op_hook(tracer.record_op)
        try:
            yield tracer
        finally:
            recording.set_op_hook(previous_op_hook)
            autograd.set_trace_hook(previous)
            _active.tracer = None
    finally:
        for handle in handles:
            handle.remove()
        for sublayer in transcribed:
            sublayer.__dict__.pop("forward", None)
        for name, original in originals.items():
            setattr(Tensor, name, original)
        _trace_lock.release()


def _transcribe_sublayers(layer: Any) -> list:
    """Give each sublayer whose forward is model code (not the framework's own layers) its
    transcribed forward for this trace (`framework.jit.dy2static`), so an `if` on a tensor
    there becomes a cond too. Returns the sublayers changed; the trace removes it after."""
    from framework.jit.dy2static import convert_to_static

    changed = []
    for _, sublayer in layer.named_sublayers(include_self=False):
        forward = getattr(type(sublayer), "forward", None)
        if "forward" in vars(sublayer) or not callable(forward):
            continue  # a to_static forward, or one set on the instance: leave it
        if getattr(forward, "__module__", "").startswith("framework."):
            continue
        twin = convert_to_static(sublayer.forward)
        if getattr(twin, "__func__", forward) is not forward:
            object.__setattr__(sublayer, "forward", twin)
            changed.append(sublayer)
    return changed


def _scope_hooks(tracer: Tracer, layer: Any) -> list:
    handles = []
    for path, sublayer in layer.named_sublayers(include_self=False):

        def enter(module: Any, inputs: Any, path: str = path) -> None:
            tracer.push_scope(path)

        def leave(module: Any, inputs: Any, outputs: Any) -> None:
            tracer.pop_scope()

        handles.append(sublayer.register_forward_pre_hook(enter))
        handles.append(sublayer.register_forward_post_hook(leave, always_call=True))
    return handles


def _snapshot(array: Any) -> np.ndarray:
    """A constant's value, copied (the model may change the array later), on the CPU."""
    return np.array(to_numpy(array), copy=True)
