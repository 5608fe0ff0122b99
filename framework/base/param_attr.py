"""`framework.base.param_attr`, as `paddle.base.param_attr`: `ParamAttr`."""

from framework.nn.param_attr import ParamAttr

__all__ = ["ParamAttr"]
