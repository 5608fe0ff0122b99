"""`framework.base.initializer`, as `paddle.base.initializer`: `set_global_initializer`."""

from framework.nn.initializer import set_global_initializer

__all__ = ["set_global_initializer"]
