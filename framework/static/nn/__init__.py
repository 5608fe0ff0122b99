"""`framework.static.nn`: Paddle's `paddle.static.nn` control flow."""

from framework.static.nn.control_flow import cond, while_loop

__all__ = ["cond", "while_loop"]
