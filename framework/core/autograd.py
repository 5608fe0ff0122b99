"""Dynamic-graph autograd: the `Function` base class and the backward engine.

An op subclasses `Function`: `forward` works on raw arrays, `backward` on Tensors and returns
Tensors, so the gradient computation is itself recorded when `create_graph=True` and
higher-order gradients come for free. A function keeps only what its backward asks for
(`retain_inputs`, `retain_outputs`, or plain attributes such as a mask), and the engine frees
it after use unless `retain_graph=True`.

    class Exp(Function):
        def forward(self, x):
            self.retain_outputs(0)
            return xp_of(x).exp(x)

        def backward(self, gy):
            (y,) = self.saved_outputs()
            return gy * y
"""

from __future__ import annotations

import heapq
import itertools
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from framework.core.dtype import reject_complex_arrays

if TYPE_CHECKING:
    from framework.core.tensor import Tensor


class _GradMode(threading.local):
    enabled = True


_grad_mode = _GradMode()
# Set only while framework.jit traces a model: called as hook(fn, input_arrays, outputs) after
# every forward. One global None check is all the untraced hot path pays.
_trace_hook: Callable | None = None
_sequence = itertools.count()
_tensor_class = None  # set by framework.core.tensor (a module-level import would be circular)


def bind_tensor_class(cls: type) -> None:
    global _tensor_class
    _tensor_class = cls


def set_trace_hook(hook: Callable | None) -> Callable | None:
    """Install the op-recording hook used by `framework.jit` tracing; returns the previous one."""
    global _trace_hook
    previous = _trace_hook
    _trace_hook = hook
    return previous


def is_grad_enabled() -> bool:
    return _grad_mode.enabled


class set_grad_enabled:  # noqa: N801 - Paddle's name; works as a call and as a context manager
    """`set_grad_enabled(False)` turns graph recording off; usable as a context manager."""

    def __init__(self, mode: bool) -> None:
        self.previous = _grad_mode.enabled
        _grad_mode.enabled = bool(mode)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        _grad_mode.enabled = self.previous


class no_grad:  # noqa: N801 - Paddle's name
    """Context manager and decorator that disables graph recording."""

    def __enter__(self) -> None:
        self.previous = _grad_mode.enabled
        _grad_mode.enabled = False

    def __exit__(self, *exc: object) -> None:
        _grad_mode.enabled = self.previous

    def __call__(self, func: Callable) -> Callable:
        def wrapper(*args, **kwargs):
            with no_grad():
                return func(*args, **kwargs)

        wrapper.__name__ = getattr(func, "__name__", "wrapper")
        wrapper.__doc__ = getattr(func, "__doc__", None)
        return wrapper


@contextmanager
def enable_grad():
    previous = _grad_mode.enabled
    _grad_mode.enabled = True
    try:
        yield
    finally:
        _grad_mode.enabled = previous


class Function:
    """Base class of every differentiable op. See the module docstring."""

    # Set by apply() only when the result needs a gradient.
    next_functions: tuple | None = None
    needs_input_grad: tuple[bool, ...] = ()
    _retained_inputs: tuple[int, ...] = ()
    _retained_outputs: tuple[int, ...] = ()
    _saved_inputs: tuple | None = None
    _saved_outputs: tuple | None = None
    _output_meta: tuple = ()  # (shape, dtype) per output; only kept for multi-output ops
    _n_outputs = 1
    _output_hooks: dict | None = None
    _retain_grad_outputs: dict | None = None
    _seq = 0
    # True on ops that Paddle computes only on real numbers (ordering, clipping, most
    # activations): apply() refuses complex inputs instead of computing something wrong.
    real_only = False

    # --- what subclasses implement -------------------------------------------------------------
    def forward(self, *inputs):
        raise NotImplementedError

    def backward(self, *grad_outputs):
        raise NotImplementedError(f"{type(self).__name__} is not differentiable")

    # --- what forward calls ---------------------------------------------------------------------
    def retain_inputs(self, *indexes: int) -> None:
        """Keep these inputs (as graph Tensors) for backward."""
        self._retained_inputs = indexes

    def retain_outputs(self, *indexes: int) -> None:
        """Keep these outputs (their arrays; rebuilt as graph Tensors) for backward."""
        self._retained_outputs = indexes

    # --- what backward calls --------------------------------------------------------------------
    def saved_inputs(self) -> tuple:
        """The retained inputs as graph Tensors, rebuilt from the arrays saved at forward time.

        Arrays, not the Tensor objects, are kept: an in-place op (`x[0] = v`) later rebinds the
        Tensor object to its new version, and backward must see the version forward saw.
        """
        if self._saved_inputs is None or self.next_functions is None:
            raise _freed_error()
        cls = _tensor_class
        rebuilt = []
        for index, array in zip(self._retained_inputs, self._saved_inputs, strict=True):
            edge = self.next_functions[index]
            if edge is None:
                rebuilt.append(cls._wrap(array))
            elif type(edge) is tuple:
                rebuilt.append(cls._from_op(array, edge[0], edge[1]))
            else:
                rebuilt.append(edge)  # a leaf: in-place writes into leaves that need grad raise
        return tuple(rebuilt)

    def saved_outputs(self) -> tuple:
        if self._saved_outputs is None:
            raise _freed_error()
        return tuple(
            _tensor_class._from_op(array, self, index)
            for index, array in zip(self._retained_outputs, self._saved_outputs, strict=True)
        )

    # --- the dispatcher -------------------------------------------------------------------------
    def apply(self, *inputs: Tensor):
        """Run forward on the inputs' arrays and record the op when a gradient is needed."""
        # Hot path: every op goes through here, so it avoids generators and repeated lookups.
        arrays = [t._data for t in inputs]
        if self.real_only:
            reject_complex_arrays(arrays, type(self).__name__)
        outputs = self.forward(*arrays)
        if _trace_hook is not None:
            _trace_hook(self, arrays, outputs)
        single = type(outputs) is not tuple
        wrap = _tensor_class._wrap
        if _grad_mode.enabled:
            needs = tuple([not t.stop_gradient for t in inputs])
            record = True in needs
        else:
            record = False
        if not record:
            return wrap(outputs) if single else tuple([wrap(a) for a in outputs])

        self.needs_input_grad = needs
        self.next_functions = tuple(
            [
                None if t.stop_gradient else (t if t._node is None else (t._node, t._out_index))
                for t in inputs
            ]
        )
        self._seq = next(_sequence)
        retained = self._retained_inputs
        self._saved_inputs = tuple([arrays[i] for i in retained]) if retained else ()
        from_op = _tensor_class._from_op
        if single:
            self._n_outputs = 1
            self._saved_outputs = (outputs,) if self._retained_outputs else ()
            return from_op(outputs, self, 0)
        self._n_outputs = len(outputs)
        self._output_meta = tuple([(a.shape, a.dtype) for a in outputs])
        retained = self._retained_outputs
        self._saved_outputs = tuple([outputs[i] for i in retained]) if retained else ()
        return tuple([from_op(array, self, i) for i, array in enumerate(outputs)])

    def release(self) -> None:
        """Drop everything backward needed; a second backward through here raises."""
        self.next_functions = None
        self._saved_inputs = None
        self._saved_outputs = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__}Backward>"


def _freed_error() -> RuntimeError:
    return RuntimeError(
        "Trying to backward through the graph a second time, but its saved values were "
        "already freed. Pass retain_graph=True to the first backward() if you need to."
    )


def _edge_of(tensor: Tensor):
    """Where a gradient for `tensor` goes: its creator (fn, index), the leaf itself, or None."""
    if tensor.stop_gradient:
        return None
    if tensor._node is None:
        return tensor
    return (tensor._node, tensor._out_index)


class RemovableHandle:
    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def _run_hooks(hooks: Iterable[Callable] | None, grad: Tensor) -> Tensor:
    for hook in hooks or ():
        result = hook(grad)
        if result is not None:
            grad = result
    return grad


def _zeros_for(meta: tuple):
    from framework.core.backend import current_xp
    from framework.core.tensor import Tensor

    shape, dtype = meta
    if dtype.kind not in "fc":
        return None
    return Tensor._wrap(current_xp().zeros(shape, dtype=dtype))


def _add_grads(a: Tensor | None, b: Tensor) -> Tensor:
    return b if a is None else a + b


def _collect_graph(root_functions: Sequence[Function]) -> dict[Function, int]:
    """Count, for every function reachable from the roots, how many edges lead into it."""
    dependencies: dict[Function, int] = {}
    stack = list(root_functions)
    seen = set(stack)
    while stack:
        fn = stack.pop()
        if fn.next_functions is None:
            raise _freed_error()
        for edge in fn.next_functions:
            if isinstance(edge, tuple):
                parent = edge[0]
                dependencies[parent] = dependencies.get(parent, 0) + 1
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
    return dependencies


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor],
    retain_graph: bool = False,
    create_graph: bool = False,
    capture: dict | None = None,
) -> dict:
    """Propagate `root_grads` from `roots` through the graph.

    Without `capture`, gradients accumulate into the leaves' `.grad`. With `capture` (a dict
    whose keys are leaf tensors' ids or `(fn, index)` pairs) the gradients reaching those keys
    are returned instead and no `.grad` is touched: this is `framework.grad`.
    """
    captured: dict = {}
    delivered: set[int] = set()
    buffers: dict[Function, list] = {}
    root_functions: list[Function] = []
    for tensor, grad in zip(roots, root_grads, strict=True):
        edge = _edge_of(tensor)
        if edge is None:
            raise RuntimeError(
                "backward() was called on a tensor that does not require a gradient "
                "(stop_gradient=True and not produced from one that does)"
            )
        if isinstance(edge, tuple):
            fn, index = edge
            if fn not in buffers:
                buffers[fn] = [None] * fn._n_outputs
                root_functions.append(fn)
            buffers[fn][index] = _add_grads(buffers[fn][index], grad)
        else:
            _deliver_to_leaf(edge, grad, create_graph, capture, captured, delivered)

    dependencies = _collect_graph(root_functions)
    ready = [(-fn._seq, fn) for fn in root_functions if dependencies.get(fn, 0) == 0]
    heapq.heapify(ready)
    with set_grad_enabled(create_graph):
        while ready:
            _, fn = heapq.heappop(ready)
            grads = buffers.pop(fn)
            for index, grad in enumerate(grads):
                if grad is None:
                    continue
                if fn._output_hooks and index in fn._output_hooks:
                    grads[index] = grad = _run_hooks(fn._output_hooks[index], grad)
                if fn._retain_grad_outputs and index in fn._retain_grad_outputs:
                    owner = fn._retain_grad_outputs[index]()
                    if owner is not None:
                        owner._grad = _add_grads(owner._grad, grad.detach())
                if capture is not None and (fn, index) in capture:
                    captured[(fn, index)] = grad
            if fn._n_outputs > 1:
                grads = [
                    g if g is not None else _zeros_for(m)
                    for g, m in zip(grads, fn._output_meta, strict=True)
                ]
            if fn.next_functions is None:
                raise _freed_error()
            input_grads = fn.backward(*grads)
            if not isinstance(input_grads, tuple):
                input_grads = (input_grads,)
            if len(input_grads) != len(fn.next_functions):
                raise RuntimeError(
                    f"{type(fn).__name__}.backward returned {len(input_grads)} gradients "
                    f"for {len(fn.next_functions)} inputs"
                )
            for edge, grad in zip(fn.next_functions, input_grads, strict=True):
                if edge is None or grad is None:
                    continue
                if isinstance(edge, tuple):
                    parent, index = edge
                    slots = buffers.get(parent)
                    if slots is None:
                        slots = buffers[parent] = [None] * parent._n_outputs
                    slots[index] = _add_grads(slots[index], grad)
                    dependencies[parent] -= 1
                    if dependencies[parent] == 0:
                        heapq.heappush(ready, (-parent._seq, parent))
                else:
                    _deliver_to_leaf(edge, grad, create_graph, capture, captured, delivered)
            if not retain_graph:
                fn.release()
    return captured


def _deliver_to_leaf(
    leaf: Tensor, grad: Tensor, create_graph: bool, capture, captured, delivered: set
) -> None:
    grad = _run_hooks(leaf._hooks, grad)
    if capture is not None:
        key = id(leaf)
        if key in capture:
            captured[key] = _add_grads(captured.get(key), grad)
        return
    if create_graph:
        leaf._grad = grad if leaf._grad is None else leaf._grad + grad
        return
    data = grad._data
    if leaf._grad is not None:
        owned = _owned_array(leaf._grad)
        if owned is not None and owned.shape == data.shape and owned.dtype == data.dtype:
            owned += data  # a buffer from zeroed_grad: accumulate in place, as Paddle does
            return
        leaf._grad = _tensor_class._wrap(leaf._grad._data + data)
        return
    # A leaf owns its .grad (optimizers and users may write into it): copy a read-only
    # broadcast view, a view into another array, or an array already given to another leaf.
    if (
        not getattr(data.flags, "writeable", True)
        or getattr(data, "base", None) is not None
        or id(data) in delivered
    ):
        data = data.copy()
    delivered.add(id(data))
    leaf._grad = _tensor_class._wrap(data)


# Gradient Tensors made by `zeroed_grad`, by id: (weak reference, the array it was made with).
# Only these are zeroed and accumulated into in place; any other .grad (set by the user, made
# under create_graph, or whose array was since replaced) is left alone and replaced instead.
_owned_grads: dict[int, tuple[weakref.ref, object]] = {}


def _owned_array(grad: Tensor):
    entry = _owned_grads.get(id(grad))
    if entry is None or entry[0]() is not grad or entry[1] is not grad._data:
        return None
    return entry[1]


def zeroed_grad(grad: Tensor) -> Tensor:
    """`clear_grad(set_to_zero=True)`: `grad` zeroed in place when it is a buffer this function
    made before (the next backward then adds into it in place), else a new zero buffer.

    So a training loop that clears with zeros allocates its gradients once, not every step.
    """
    owned = _owned_array(grad)
    if owned is not None:
        owned.fill(0)
        return grad
    from framework.core.backend import get_array_module

    zeros = get_array_module(grad._data).zeros_like(grad._data)
    result = _tensor_class._wrap(zeros)
    key = id(result)
    _owned_grads[key] = (weakref.ref(result, lambda _, key=key: _owned_grads.pop(key, None)), zeros)
    return result


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Tensor | Sequence[Tensor | None] | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool = False,
    no_grad_vars: object = None,
) -> list[Tensor | None]:
    """Gradients of `outputs` with respect to `inputs`, without touching any `.grad`.

    Mirrors `paddle.grad`. With `create_graph=True` the returned gradients are part of the graph,
    so they can be differentiated again.

        x = framework.to_tensor([2.0], stop_gradient=False)
        (dx,) = framework.grad(x * x * x, x, create_graph=True)   # 3x^2 = 12
        (ddx,) = framework.grad(dx, x)                              # 6x = 12
    """
    from framework.core.tensor import Tensor

    outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if grad_outputs is None or isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs] * len(outputs) if grad_outputs is None else [grad_outputs]
    root_grads = [
        g if g is not None else _ones_like(o) for o, g in zip(outputs, grad_outputs, strict=True)
    ]
    if retain_graph is None:
        retain_graph = create_graph
    keys = []
    for tensor in inputs:
        if tensor.stop_gradient:
            raise RuntimeError("an input passed to grad() has stop_gradient=True")
        keys.append(id(tensor) if tensor._node is None else (tensor._node, tensor._out_index))
    captured = run_backward(
        outputs, root_grads, retain_graph, create_graph, capture=dict.fromkeys(keys)
    )
    results = []
    for tensor, key in zip(inputs, keys, strict=True):
        value = captured.get(key)
        if value is None and not allow_unused:
            raise RuntimeError(
                f"one of the inputs (shape {tensor.shape}) was not used to compute the outputs; "
                "pass allow_unused=True to get None for it"
            )
        results.append(value)
    return results


def _ones_like(tensor: Tensor) -> Tensor:
    from framework.core.backend import get_array_module
    from framework.core.tensor import Tensor

    xp = get_array_module(tensor._data)
    return Tensor._wrap(xp.ones(tensor._data.shape, dtype=tensor._data.dtype))
