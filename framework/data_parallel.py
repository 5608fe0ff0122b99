"""`framework.DataParallel`, as `paddle.DataParallel`, for a single process.

The framework has no multi-process collective backend, so there are no gradients from other
ranks to average: the wrapper runs the layer it holds and leaves gradients as they are, which
is what Paddle's DataParallel does in a one-process job. It keeps Paddle's surface, so
training scripts written for data parallelism run unchanged: parameter names gain the
`_layers.` prefix, `state_dict` and `set_state_dict` use the inner layer's names (checkpoints
load into an unwrapped model), `no_sync()` is a context manager and `scale_loss` returns the
loss unchanged.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from framework.core.tensor import Tensor
from framework.nn.layer.layers import Layer


class DataParallel(Layer):
    """Wrap `layers` for data-parallel training (single process: a transparent wrapper).

    model = framework.DataParallel(framework.nn.Linear(2, 3))
    y = model(framework.ones([1, 2]))   # the Linear's output
    """

    def __init__(
        self,
        layers: Layer,
        strategy: object = None,
        comm_buffer_size: int = 25,
        last_comm_buffer_size: int = 1,
        find_unused_parameters: bool = False,
        group: object = None,
    ) -> None:
        super().__init__()
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel wraps a Layer, got {type(layers).__name__}")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.group = group
        self.grad_need_sync = True

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self._layers(*inputs, **kwargs)

    @contextmanager
    def no_sync(self):
        """Skip gradient synchronisation inside the block (there is none to skip here)."""
        previous, self.grad_need_sync = self.grad_need_sync, False
        try:
            yield
        finally:
            self.grad_need_sync = previous

    def scale_loss(self, loss: Tensor) -> Tensor:
        """Paddle's legacy loss scaling for data parallelism: the loss, unchanged."""
        return loss

    def apply_collective_grads(self) -> None:
        """Paddle's legacy gradient all-reduce: nothing to reduce in one process."""

    def state_dict(self, *args: Any, **kwargs: Any):
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True):
        return self._layers.set_state_dict(state_dict, use_structured_name)
