"""Binding op functions onto `Tensor` as methods and operators (Paddle's monkey-patching)."""

from __future__ import annotations

from collections.abc import Callable


def reflected(op: Callable) -> Callable:
    """`other <op> tensor` for operators such as `__radd__`."""

    def method(self, other):
        return op(other, self)

    method.__name__ = f"reflected_{op.__name__}"
    return method


def bind(tensor_class: type, methods: dict[str, Callable]) -> None:
    for name, function in methods.items():
        setattr(tensor_class, name, function)
