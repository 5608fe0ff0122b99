"""Capturing a model as a verified graph: trace twice, compare, generalise, check.

1. Trace with the example inputs (batch and other dynamic dims at their example sizes).
2. Trace again with different values, and every dimension declared dynamic (None in the
   InputSpec) at a different size (the batch plus one, other dims doubled).
3. Compare the two graphs (`dynamic_shapes.merge_traces`): the same ops in the same order,
   the same constants; attributes that follow a dynamic dimension are generalised (`reshape`
   gets 0/-1) or reported; value shapes get None where they differ.
4. Run the merged graph on the second inputs and compare with the eager outputs.

Anything the tracer cannot see (Python control flow on values or shapes, tensors made outside
the recorded ops) therefore shows up as a clear error instead of a silently wrong graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from framework.core.autograd import no_grad
from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Parameter, Tensor
from framework.jit.dynamic_shapes import merge_traces
from framework.jit.errors import GraphDivergenceError, TracingError
from framework.jit.graph import Graph
from framework.jit.input_spec import InputSpec
from framework.jit.tracer import Tracer, tracing


def capture(
    function: Callable,
    examples: Sequence[Tensor],
    specs: Sequence[InputSpec],
    layer: Any = None,
    name: str = "graph",
    verify: bool = True,
) -> Graph:
    """Trace `function(*examples)` into a Graph whose inputs follow `specs` (see module doc)."""
    names = [spec.name for spec in specs]
    graph_a, outputs_a = trace_once(function, examples, names, layer, name)
    if not verify:
        return graph_a
    second = [_second_input(t, spec) for t, spec in zip(examples, specs, strict=True)]
    graph_b, outputs_b = trace_once(function, second, names, layer, name)
    merged = merge_traces(graph_a, graph_b, [list(s.shape) for s in specs])
    _check_runs(merged, second, outputs_b)
    return merged


def trace_once(
    function: Callable,
    inputs: Sequence[Tensor],
    input_names: Sequence[str],
    layer: Any,
    name: str,
) -> tuple[Graph, list[np.ndarray]]:
    """One trace: the graph (concrete shapes) and the eager outputs as NumPy arrays."""
    tracer = Tracer(name)
    for input_name, tensor in zip(input_names, inputs, strict=True):
        tracer.bind_input(input_name, tensor._data)
    if layer is not None:
        _bind_layer_state(tracer, layer)
    with tracing(tracer, layer), no_grad():
        result = function(*inputs)
    if tracer.error is not None:  # raised inside the model but swallowed by its code
        raise tracer.error
    leaves: list[Tensor] = []
    structure = _flatten(result, leaves)
    graph = tracer.graph
    outputs = []
    for index, tensor in enumerate(leaves):
        value = tracer._names.get(id(tensor._data))
        if value is None or (
            value in graph.initializers and graph.initializers[value].kind == "constant"
        ):
            raise TracingError(
                f"output {index} of {name} (shape {tensor.shape}) is not computed from the "
                "inputs by recorded ops: it was made by an op the tracer cannot see "
                "(comparisons, argmax/argmin, topk indices, creation from `.numpy()` values) or "
                "is a constant. Return tensors computed with differentiable ops."
            )
        outputs.append(value)
    graph.outputs = outputs
    graph.metadata["output_structure"] = structure
    graph.metadata["input_names"] = list(input_names)
    _name_outputs(graph)
    return graph, [to_numpy(t._data) for t in leaves]


def _bind_layer_state(tracer: Tracer, layer: Any) -> None:
    seen = set()
    for key, tensor in layer.state_dict().items():
        kind = "parameter" if isinstance(tensor, Parameter) else "buffer"
        tracer.bind_initializer(key, tensor._data, kind, not tensor.stop_gradient)
        seen.add(id(tensor))
    for key, tensor in layer.named_buffers():
        if id(tensor) not in seen:  # non-persistable buffers: constants, named by their path
            tracer.bind_initializer(key, tensor._data, "constant", False)


def _flatten(result: Any, leaves: list) -> Any:
    """The output structure as JSON: {"tensor": i}, {"tuple": [...]}, {"list": [...]},
    {"dict": {key: ...}}; tensors are appended to `leaves`."""
    if isinstance(result, Tensor):
        leaves.append(result)
        return {"tensor": len(leaves) - 1}
    if isinstance(result, tuple | list):
        kind = "tuple" if isinstance(result, tuple) else "list"
        return {kind: [_flatten(item, leaves) for item in result]}
    if isinstance(result, dict) and all(isinstance(k, str) for k in result):
        return {"dict": {k: _flatten(v, leaves) for k, v in result.items()}}
    raise TracingError(
        f"forward returned a {type(result).__name__}; a static graph can return Tensors and "
        "tuples, lists or str-keyed dicts of them"
    )


def unflatten(structure: Any, leaves: Sequence[Any]) -> Any:
    """Rebuild what `_flatten` described from the output leaves."""
    if "tensor" in structure:
        return leaves[structure["tensor"]]
    if "tuple" in structure:
        return tuple(unflatten(s, leaves) for s in structure["tuple"])
    if "list" in structure:
        return [unflatten(s, leaves) for s in structure["list"]]
    return {k: unflatten(s, leaves) for k, s in structure["dict"].items()}


def _name_outputs(graph: Graph) -> None:
    """Give node-produced outputs readable names: output_0, output_1, ..."""
    producers = graph.producers()
    renames = {}
    for index, name in enumerate(graph.outputs):
        if name in producers and name not in renames and name not in graph.inputs:
            renames[name] = f"output_{index}"
    if not renames:
        return
    for old, new in renames.items():
        graph.values[new] = graph.values.pop(old)
        graph.values[new].name = new
    for node in graph.nodes:
        node.inputs = [renames.get(n, n) for n in node.inputs]
        node.outputs = [renames.get(n, n) for n in node.outputs]
    graph.outputs = [renames.get(n, n) for n in graph.outputs]


def _second_input(example: Tensor, spec: InputSpec) -> Tensor:
    """Different values, and every dynamic dim of `spec` at a different size: the batch one
    more, any other twice as large (networks that halve their input five times, such as
    detectors with feature pyramids, need sizes that stay multiples of 32)."""
    array = to_numpy(example._data)
    shape = [
        d if s is not None else d + 1 if axis == 0 else 2 * d
        for axis, (d, s) in enumerate(zip(array.shape, spec.shape, strict=True))
    ]
    rng = np.random.default_rng(12345)
    if array.dtype.kind == "f":
        std = float(array.std()) if array.size else 1.0
        values = rng.standard_normal(shape) * (std or 1.0) + (
            float(array.mean()) if array.size else 0.0
        )
        values = values.astype(array.dtype)
    elif array.size:
        values = rng.choice(array.reshape(-1), size=shape).astype(array.dtype)
    else:
        values = np.zeros(shape, dtype=array.dtype)
    xp = get_array_module(example._data)
    return Tensor._wrap(xp.asarray(values))


def _check_runs(graph: Graph, inputs: Sequence[Tensor], expected: list[np.ndarray]) -> None:
    from framework.inference.executor import Executor

    xp = get_array_module(inputs[0]._data) if inputs else np
    tensors = {k: xp.asarray(v) for k, v in graph.tensors.items()}
    runnable = graph.copy()
    runnable.tensors = tensors
    results = Executor(runnable, xp, memory_optim=False).run([t._data for t in inputs])
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        got = to_numpy(got)
        scale = float(np.max(np.abs(want))) if want.size and want.dtype.kind == "f" else 1.0
        if got.shape != want.shape or not np.allclose(
            got, want, rtol=1e-3, atol=1e-4 * max(scale, 1.0), equal_nan=True
        ):
            raise GraphDivergenceError(
                f"the graph traced from the example inputs computes output {index} differently "
                f"for inputs of shapes {[t.shape for t in inputs]} (got shape {list(got.shape)}, "
                f"eager gives {list(want.shape)}): the model depends on the input's values or "
                "on a dynamic dimension in a way the trace cannot capture (for example a tensor "
                "built from `x.shape` values, or Python code on `.shape`). Make that dimension "
                "static in the InputSpec, or rewrite that part with tensor ops."
            )
