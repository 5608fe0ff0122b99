"""`TranslatedLayer`: a Layer that runs a loaded graph, with no model code (`jit.load`).

Its parameters and buffers carry the original `state_dict` names (nested sublayers are made
for the dotted paths), so `translated.set_state_dict(model.state_dict())` works both ways.
Each call reads the current parameter arrays, so changed weights take effect at once.

In eval mode (and whenever no gradient is needed) the graph runs on the array executor. In
train mode with gradients on, or for inputs that require a gradient, each node is replayed
with the framework's differentiable ops (`framework.jit.replay`), so the layer can be
fine-tuned. The graph was traced in eval mode, so even in train mode batch norm uses its
running statistics and dropout stays off: fine-tuning adjusts the weights of the inference
computation that was saved.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from framework.core import backend
from framework.core.autograd import is_grad_enabled
from framework.core.backend import to_numpy
from framework.core.tensor import Parameter, Tensor
from framework.jit.capture import unflatten
from framework.jit.graph import Graph
from framework.nn.layer.layers import Layer


class _Container(Layer):
    """A plain holder for the parameters under one dotted path prefix."""

    def forward(self, *inputs: Any) -> Any:
        raise RuntimeError("a TranslatedLayer's inner containers are not callable")


class TranslatedLayer(Layer):
    """See the module docstring.

    layer = framework.jit.load("out/resnet")
    layer.eval()
    logits = layer(framework.randn([4, 3, 32, 32]))
    """

    def __init__(self, graph: Graph) -> None:
        super().__init__()
        object.__setattr__(self, "_graph", graph)
        object.__setattr__(self, "_tensors", [])
        object.__setattr__(self, "_local", threading.local())
        for name, init in graph.initializers.items():
            array = np.array(to_numpy(graph.tensors[name]))  # owned and writable
            if init.kind == "parameter":
                tensor: Tensor = Parameter(array, trainable=init.trainable, name=name)
            else:
                tensor = Tensor(array, name=name)
            *path, leaf = name.split(".")
            owner = self._owner(path)
            if init.kind == "parameter":
                owner.add_parameter(leaf, tensor)
            else:
                owner.register_buffer(leaf, tensor, persistable=init.kind == "buffer")
            self._tensors.append(tensor)
        self.eval()

    def _owner(self, path: list[str]) -> Layer:
        layer: Layer = self
        for part in path:
            child = layer._sub_layers.get(part)
            if child is None:
                child = _Container()
                layer.add_sublayer(part, child)
            layer = child
        return layer

    @property
    def program(self) -> Graph:
        """The graph this layer runs."""
        return self._graph

    def forward(self, *inputs: Any) -> Any:
        graph = self._graph
        if len(inputs) != len(graph.inputs):
            raise TypeError(
                f"this model takes {len(graph.inputs)} inputs ({', '.join(graph.inputs)}), "
                f"got {len(inputs)}"
            )
        tensors = [x if isinstance(x, Tensor) else Tensor(x) for x in inputs]
        for name, tensor in zip(graph.inputs, tensors, strict=True):
            _check_input(graph, name, tensor)
        if self._needs_grad(tensors):
            from framework.jit.replay import replay

            outputs = replay(graph, tensors, self._tensors)
        else:
            outputs = self._run_arrays(tensors)
        return unflatten(graph.metadata.get("output_structure", {"tensor": 0}), outputs)

    def _needs_grad(self, inputs: list[Tensor]) -> bool:
        if not is_grad_enabled():
            return False
        if self.training and any(not t.stop_gradient for t in self._tensors):
            return True
        return any(not t.stop_gradient for t in inputs)

    def _run_arrays(self, inputs: list[Tensor]) -> list[Tensor]:
        from framework.inference.executor import Executor

        xp = backend.get_array_module(inputs[0]._data) if inputs else backend.current_xp()
        executors = self._local.__dict__.setdefault("executors", {})
        executor = executors.get(xp.__name__)
        if executor is None:
            executor = executors[xp.__name__] = Executor(self._graph, xp, precompute=False)
        arrays = executor.run([t._data for t in inputs], [t._data for t in self._tensors])
        return [Tensor._wrap(a) for a in arrays]

    def extra_repr(self) -> str:
        graph = self._graph
        return f"graph={graph.name}, nodes={len(graph.nodes)}, inputs={graph.inputs}"


def _check_input(graph: Graph, name: str, tensor: Tensor) -> None:
    value = graph.values[name]
    shape = tensor._data.shape
    if len(shape) != len(value.shape) or any(
        d is not None and d != s for d, s in zip(value.shape, shape, strict=True)
    ):
        raise ValueError(
            f"input '{name}' has shape {list(shape)}, the model expects {value.shape} "
            "(None = any size)"
        )
    if tensor._data.dtype.name != value.dtype:
        raise TypeError(
            f"input '{name}' is {tensor._data.dtype.name}, the model expects {value.dtype}"
        )
