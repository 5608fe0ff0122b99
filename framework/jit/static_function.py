"""`to_static`: run a function or a Layer's forward as a captured static graph.

    model = framework.jit.to_static(model, input_spec=[InputSpec([None, 3, 32, 32])])
    model.eval()
    with framework.no_grad():
        logits = model(images)          # traced once per input signature, then the graph runs

    @framework.jit.to_static
    def f(x, y):
        return framework.nn.functional.relu(x) + y

A call runs the graph when no gradient is needed (eval mode under `no_grad`, or nothing that
requires a gradient). Training calls run the Python code eagerly, so autograd works exactly as
before: the graph is a forward-only (inference) program. Programs are cached per input
signature: the InputSpec's shapes (None dims match any size) and dtypes, or the exact shapes
when no spec is given; non-Tensor arguments are part of the signature and baked in.

Before tracing, the function's `if`/`while`/`for range` statements are transcribed
(`framework.jit.dy2static`): a condition that is a tensor computed from the inputs becomes a
`cond` / `while_loop` node, so the graph branches and loops per input.

`full_graph=False` falls back to eager for a signature whose tracing fails, with a warning,
instead of raising. `build_strategy` and `backend` are accepted for Paddle compatibility.
"""

from __future__ import annotations

import functools
import inspect
import threading
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from framework.core import backend
from framework.core.autograd import is_grad_enabled
from framework.core.tensor import Tensor
from framework.jit.capture import capture, unflatten
from framework.jit.dy2static import convert_to_static
from framework.jit.errors import TracingError
from framework.jit.graph import Graph
from framework.jit.input_spec import InputSpec
from framework.jit.switches import to_static_enabled
from framework.jit.tracer import is_tracing


class StaticFunction:
    """The callable `to_static` returns for a function (or puts on a Layer as `forward`)."""

    def __init__(
        self,
        function: Callable,
        input_spec: Sequence[InputSpec | Tensor] | None = None,
        layer: Any = None,
        full_graph: bool = True,
    ) -> None:
        self._function = function
        self._input_spec = list(input_spec) if input_spec is not None else None
        self._layer = layer
        self._full_graph = full_graph
        self._programs: dict[tuple, _Program | None] = {}
        self._last: _Program | None = None
        # The tensor inputs of the latest call (eager ones too): what jit.save describes when
        # it is given no input_spec, as Paddle saves the program a to_static forward ran.
        self._called_with: list[InputSpec] | None = None
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, function)

    # --- binding as a method (`@to_static def forward(self, x)`) -------------------------------
    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = StaticFunction(
                self._function.__get__(instance, owner),
                self._input_spec,
                instance,
                self._full_graph,
            )
            self._bound[instance] = bound
        return bound

    # --- calling ------------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._called_with = [InputSpec.from_tensor(a) for a in args if isinstance(a, Tensor)]
        if self._runs_eagerly(args):
            return self._function(*args, **kwargs)
        key, tensors, baked = self._signature(args, kwargs)
        if key not in self._programs:
            self._programs[key] = self._build(tensors, baked, kwargs)
        program = self._programs[key]
        if program is None:  # tracing failed and full_graph=False
            return self._function(*args, **kwargs)
        self._last = program
        return program.run(tensors)

    def _runs_eagerly(self, args: tuple) -> bool:
        if not to_static_enabled():  # `jit.enable_to_static(False)`
            return True
        if is_tracing():  # inside an outer trace: let it record this function's ops
            return True
        layer = self._layer
        if layer is not None and getattr(layer, "training", False):
            return True
        if not is_grad_enabled():
            return False
        if any(isinstance(a, Tensor) and not a.stop_gradient for a in args):
            return True
        return layer is not None and any(not p.stop_gradient for p in layer.parameters())

    def _signature(self, args: tuple, kwargs: dict) -> tuple[tuple, list[Tensor], list]:
        tensors = [a for a in args if isinstance(a, Tensor)]
        baked = [(i, a) for i, a in enumerate(args) if not isinstance(a, Tensor)]
        specs = self._specs_for(tensors)
        key = tuple(
            (tuple(s.shape), s.dtype.str, backend.get_array_module(t._data).__name__)
            for s, t in zip(specs, tensors, strict=True)
        )
        return key + (repr(baked), repr(sorted(kwargs.items()))), tensors, baked

    def _specs_for(self, tensors: list[Tensor]) -> list[InputSpec]:
        given = self._input_spec
        specs = []
        for index, tensor in enumerate(tensors):
            spec = given[index] if given is not None and index < len(given) else None
            if isinstance(spec, InputSpec) and spec.matches(tensor.shape, tensor.dtype):
                specs.append(spec)
            else:
                specs.append(InputSpec.from_tensor(tensor))
        return specs

    def _build(self, tensors: list[Tensor], baked: list, kwargs: dict) -> _Program | None:
        specs = self._specs_for(tensors)
        names = input_names(self._function, len(tensors), specs)
        specs = [InputSpec(s.shape, s.dtype, n) for s, n in zip(specs, names, strict=True)]
        function = convert_to_static(self._function)  # tensor if/while -> graph control flow
        call = _with_baked(function, len(tensors) + len(baked), baked, kwargs)
        name = type(self._layer).__name__ if self._layer is not None else self.__name__
        try:
            graph = capture(call, tensors, specs, layer=self._layer, name=name)
        except TracingError as error:
            if self._full_graph:
                raise
            warnings.warn(
                f"to_static: running {name} eagerly because it cannot be traced: {error}",
                stacklevel=3,
            )
            return None
        return _Program(graph, self._layer)

    # --- Paddle's inspection API --------------------------------------------------------------
    @property
    def concrete_program(self) -> Graph:
        """The graph of the most recent static call (traced on first use)."""
        if self._last is None:
            raise RuntimeError("this function has not been run with static inputs yet")
        return self._last.graph

    @property
    def input_spec(self) -> list | None:
        return self._input_spec

    @property
    def called_with(self) -> list[InputSpec] | None:
        """The specs of the latest call's tensor inputs (None before the first call)."""
        return self._called_with

    def get_concrete_program(self, *specs: InputSpec | Tensor) -> Graph:
        """Trace (if needed) for example inputs matching `specs` and return the graph."""
        tensors = [s if isinstance(s, Tensor) else example_for(s) for s in specs]
        key, tensors, baked = self._signature(tuple(tensors), {})
        if key not in self._programs:
            self._programs[key] = self._build(tensors, baked, {})
        return self._programs[key].graph

    def rollback(self) -> Callable:
        """The original function (and, for a Layer, its forward restored)."""
        if self._layer is not None and self._layer.__dict__.get("forward") is self:
            del self._layer.__dict__["forward"]
        return self._function


class _Program:
    """A captured graph and the executor that runs it on the layer's live parameters."""

    def __init__(self, graph: Graph, layer: Any) -> None:
        self.graph = graph
        self._state = _live_tensors(graph, layer)
        self._local = threading.local()  # one executor (and arena) per thread

    def run(self, tensors: list[Tensor]) -> Any:
        from framework.inference.executor import Executor

        xp = backend.get_array_module(tensors[0]._data) if tensors else backend.current_xp()
        executors = self._local.__dict__.setdefault("executors", {})
        executor = executors.get(xp.__name__)
        if executor is None:
            executor = executors[xp.__name__] = Executor(self.graph, xp, precompute=False)
        live = [t._data if t is not None else self.graph.tensors[n] for n, t in self._state]
        arrays = executor.run([t._data for t in tensors], live)
        outputs = [Tensor._wrap(a) for a in arrays]
        return unflatten(self.graph.metadata["output_structure"], outputs)


def _live_tensors(graph: Graph, layer: Any) -> list[tuple[str, Tensor | None]]:
    """For each initializer, the layer's tensor it came from (None for constants)."""
    owned = {}
    if layer is not None:
        owned.update(layer.state_dict())
        owned.update(dict(layer.named_buffers()))
    return [(name, owned.get(name)) for name in graph.initializers]


def _with_baked(function: Callable, arity: int, baked: list, kwargs: dict) -> Callable:
    if not baked and not kwargs:
        return function
    slots = dict(baked)

    def call(*tensors: Tensor) -> Any:
        supply = iter(tensors)
        args = [slots[i] if i in slots else next(supply) for i in range(arity)]
        return function(*args, **kwargs)

    return call


def input_names(function: Callable, count: int, specs: Sequence[InputSpec]) -> list[str]:
    """Spec names, else the function's parameter names, else x0, x1, ...; made unique."""
    try:
        params = [
            p.name
            for p in inspect.signature(function).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        params = []
    names: list[str] = []
    for index in range(count):
        spec_name = specs[index].name if index < len(specs) else None
        name = spec_name or (params[index] if index < len(params) else f"x{index}")
        while name in names:
            name += "_"
        names.append(name)
    return names


def example_for(spec: InputSpec, batch: int = 2) -> Tensor:
    """A random tensor fitting `spec`; a dynamic batch (dim 0) takes `batch`."""
    import numpy as np

    shape = []
    for axis, dim in enumerate(spec.shape):
        if dim is None:
            if axis != 0:
                raise ValueError(
                    f"{spec} has a dynamic dim {axis} besides the batch dim; give an example "
                    "tensor for it (a Tensor in input_spec, or example_inputs=[...])"
                )
            dim = batch
        shape.append(dim)
    rng = np.random.default_rng(0)
    if spec.dtype.kind == "f":
        array = rng.standard_normal(shape).astype(spec.dtype)
    elif spec.dtype.kind == "b":
        array = rng.integers(0, 2, shape).astype(bool)
    else:
        array = rng.integers(0, 2, shape).astype(spec.dtype)
    return Tensor(array)


def to_static(
    function: Callable | Any = None,
    input_spec: Sequence[InputSpec | Tensor] | None = None,
    build_strategy: object = None,
    backend: str | None = None,
    full_graph: bool = True,
    **kwargs: Any,
) -> Any:
    """Paddle's `paddle.jit.to_static`, as a decorator (with or without arguments) or a call.

    For a Layer, its `forward` becomes a StaticFunction and the Layer itself is returned.
    """

    def decorate(target: Any) -> Any:
        from framework.nn.layer.layers import Layer

        if isinstance(target, Layer):
            forward = target.forward
            if isinstance(forward, StaticFunction):
                forward = forward._function
            static = StaticFunction(forward, input_spec, layer=target, full_graph=full_graph)
            object.__setattr__(target, "forward", static)
            return target
        if isinstance(target, StaticFunction):
            return target
        return StaticFunction(target, input_spec, full_graph=full_graph)

    if function is None:
        return decorate
    return decorate(function)


def not_to_static(function: Callable) -> Callable:
    """Paddle's marker for code that stays dynamic; tracing simply records what it runs."""
    return function
