"""`framework.static`: Paddle's `paddle.static` names that apply to this framework.

Static graphs are captured from dynamic-graph code with `framework.jit.to_static`; `InputSpec`
describes their inputs; `framework.static.nn.cond` and `while_loop` keep data-dependent control
flow in those graphs.
"""

from framework.jit.input_spec import InputSpec
from framework.static import nn

__all__ = ["InputSpec", "nn"]
