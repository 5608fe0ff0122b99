"""`framework.static`: Paddle's `paddle.static` names that apply to this framework.

Static graphs are captured from dynamic-graph code with `framework.jit.to_static`; `InputSpec`
describes their inputs.
"""

from framework.jit.input_spec import InputSpec

__all__ = ["InputSpec"]
