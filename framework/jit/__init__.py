"""Static graphs (Paddle's `paddle.jit`): capture a model as a graph IR, save it, load it.

    model.eval()
    framework.jit.save(model, "out/model", input_spec=[InputSpec([None, 3, 32, 32])])
    layer = framework.jit.load("out/model")

The graph IR (`framework.jit.graph.Graph`, op set in `framework.jit.op_schema`) is the hub the
inference predictor, the ONNX exporter and the other converters build on.

Python `if`/`while`/`for ... in range(...)` statements (and `a if t else b`) on tensors computed
from the inputs are transcribed before tracing (`framework.jit.dy2static`) into `cond` /
`while_loop` nodes (`framework.static.nn.cond` / `while_loop`), so a saved model branches and
loops per input. The traced function and the forwards of its sublayers (model code, not the
framework's own layers) are transcribed, not other functions they call: control flow there,
and what cannot be transcribed, raises `ControlFlowError` naming the place.
"""

from framework.jit.errors import (
    ControlFlowError,
    GraphDivergenceError,
    ModelFormatError,
    TracingError,
    UnsupportedOpError,
)
from framework.jit.graph import FORMAT_VERSION, Graph, Node, Value
from framework.jit.input_spec import InputSpec
from framework.jit.save_load import load, save, trace_layer
from framework.jit.static_function import StaticFunction, not_to_static, to_static
from framework.jit.switches import (
    enable_to_static,
    ignore_module,
    set_code_level,
    set_verbosity,
)
from framework.jit.translated_layer import TranslatedLayer

__all__ = [
    "FORMAT_VERSION",
    "ControlFlowError",
    "Graph",
    "GraphDivergenceError",
    "InputSpec",
    "ModelFormatError",
    "Node",
    "StaticFunction",
    "TracingError",
    "TranslatedLayer",
    "UnsupportedOpError",
    "Value",
    "enable_to_static",
    "ignore_module",
    "load",
    "not_to_static",
    "save",
    "set_code_level",
    "set_verbosity",
    "to_static",
    "trace_layer",
]
