"""The base of the activation layers: a Layer over one functional activation with keyword
settings, printed as Paddle prints them.
"""

from __future__ import annotations

from collections.abc import Callable

from framework.core.tensor import Tensor
from framework.nn.layer.layers import Layer


class _Elementwise(Layer):
    """An activation with keyword settings; `extra_repr` lists them as Paddle prints them."""

    function: Callable[..., Tensor]

    def __init__(self, name: str | None = None, **settings: object) -> None:
        super().__init__()
        self._name = name
        self._settings = settings

    def forward(self, x: Tensor) -> Tensor:
        return type(self).function(x, **self._settings)

    def extra_repr(self) -> str:
        parts = [f"{key}={value}" for key, value in self._settings.items()]
        if self._name:
            parts.append(f"name={self._name}")
        return ", ".join(parts)
