"""`jit.save` and `jit.load`, as `paddle.jit.save` / `paddle.jit.load`.

    framework.jit.save(model, "out/resnet", input_spec=[InputSpec([None, 3, 32, 32], name="x")])
    layer = framework.jit.load("out/resnet")            # a TranslatedLayer, no model code needed
    predictor = framework.inference.create_predictor(framework.inference.Config("out/resnet"))

`save` writes `out/resnet.json` (the graph IR, pretty-printed, with a format version) and
`out/resnet.safetensors` (parameters, buffers and constants by name).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from framework.core.tensor import Tensor
from framework.jit.capture import capture
from framework.jit.dy2static import convert_to_static
from framework.jit.graph import Graph
from framework.jit.input_spec import InputSpec
from framework.jit.serialization import load_graph, model_paths, save_graph
from framework.jit.static_function import StaticFunction, example_for, input_names
from framework.jit.translated_layer import TranslatedLayer


def trace_layer(
    layer: Any,
    input_spec: Sequence[InputSpec | Tensor] | None = None,
    example_inputs: Sequence[Tensor] | None = None,
) -> Graph:
    """The verified graph of `layer` (a Layer, a to_static Layer/function, or a function) in
    eval mode, with inputs described by `input_spec` (InputSpecs and/or example Tensors)."""
    from framework.nn.layer.layers import Layer

    function, owner = _forward_of(layer)
    if input_spec is None and isinstance(function, StaticFunction):
        # Paddle's order: the to_static input_spec, else the inputs its forward last ran on.
        input_spec = function.input_spec or function.called_with
    if isinstance(function, StaticFunction):
        function = function._function
    if input_spec is None:
        if example_inputs is None:
            raise ValueError(
                "jit.save needs input_spec (e.g. [InputSpec([None, 3, 224, 224], 'float32', "
                "'image')]), example_inputs, or a to_static forward that has already run, to "
                "know the model's inputs"
            )
        input_spec = list(example_inputs)
    specs, examples = [], []
    for index, item in enumerate(input_spec):
        given = example_inputs[index] if example_inputs is not None else None
        if isinstance(item, Tensor):
            specs.append(InputSpec.from_tensor(item))
            examples.append(item)
        else:
            specs.append(item)
            examples.append(given if given is not None else example_for(item))
    names = input_names(function, len(specs), specs)
    specs = [InputSpec(s.shape, s.dtype, n) for s, n in zip(specs, names, strict=True)]
    training = isinstance(owner, Layer) and owner.training
    if isinstance(owner, Layer):
        owner.eval()
    try:
        name = type(owner).__name__ if owner is not None else getattr(function, "__name__", "graph")
        graph = capture(convert_to_static(function), examples, specs, layer=owner, name=name)
    finally:
        if training:
            owner.train()
    graph.metadata["input_specs"] = [
        {"name": s.name, "shape": list(s.shape), "dtype": s.dtype.name} for s in specs
    ]
    return graph


def _forward_of(target: Any) -> tuple[Any, Any]:
    from framework.nn.layer.layers import Layer

    if isinstance(target, Layer):
        return target.forward, target
    if isinstance(target, StaticFunction):
        return target, target._layer
    if callable(target):
        return target, None
    raise TypeError(f"jit.save expects a Layer or a function, got {type(target).__name__}")


def save(
    layer: Any,
    path: str | os.PathLike,
    input_spec: Sequence[InputSpec | Tensor] | None = None,
    **configs: Any,
) -> None:
    """Trace `layer` and write `path.json` + `path.safetensors` (see the module docstring).

    `configs` may hold `example_inputs=[tensors]` for dims other than the batch that the
    InputSpec leaves dynamic.
    """
    graph = trace_layer(layer, input_spec, configs.get("example_inputs"))
    save_graph(graph, path)


def load(path: str | os.PathLike, **configs: Any) -> TranslatedLayer:
    """The model saved at `path` (a prefix, its .json file, or a directory) as a Layer."""
    graph_file, weights_file = model_paths(path)
    return TranslatedLayer(load_graph(graph_file, weights_file))
