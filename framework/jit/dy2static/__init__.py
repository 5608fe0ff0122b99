"""Dynamic-to-static transcription: Python control flow on tensors becomes graph control flow.

`framework.jit.to_static` and `jit.save` trace a function by running it. A Python `if` or
`while` on a tensor computed from the inputs would pick one path for the example input, so
before tracing the function's source is rewritten (`transformer`): each `if`, `while` and
`for ... in range(...)` becomes a call (`runtime`) that runs plain Python for Python values
and `static.nn.cond` / `while_loop` for tensors, which the trace keeps as `cond` /
`while_loop` nodes. `break`, `continue` and early `return` are rewritten with flag variables
and moved code. What cannot be rewritten stays Python and, if its condition is such a tensor,
raises `ControlFlowError` naming the file and line.

The decorated function (or Layer.forward) is rewritten, and during a trace so are the forwards
of its sublayers whose class is model code (`tracer._transcribe_sublayers`; the framework's own
layers trace as they are); other functions it calls are not, so control flow there needs
`static.nn.cond` / `while_loop`.
"""

from framework.jit.dy2static.convert import convert_to_static

__all__ = ["convert_to_static"]
