"""Weights from elsewhere: PyTorch `.pth` checkpoints and modules, PaddlePaddle `.pdparams`.

    sd = framework.interop.torch.load_state_dict("resnet18.pth")     # no torch needed
    weights, report = framework.interop.torch.convert_state_dict(sd, model)
    model.set_state_dict(weights)

    framework.interop.paddle.load_state_dict("model.pdparams")       # no paddle needed
    framework.interop.paddle.save_state_dict(model.state_dict(), "out.pdparams")

Both readers go through a restricted unpickler that admits tensors and plain containers only
(`UnsafePickleError` for anything else); nothing in a file is ever executed. A load allocates
at most `max_bytes` and what a file of its size can hold (`CheckpointTooLargeError` before
allocating more), and messages name the file by `name` or its base name, never its folder.
"""

from framework.interop import paddle, torch
from framework.interop.safe_unpickle import (
    CheckpointError,
    CheckpointTooLargeError,
    UnsafePickleError,
)

__all__ = ["CheckpointError", "CheckpointTooLargeError", "UnsafePickleError", "paddle", "torch"]
