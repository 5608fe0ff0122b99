"""Short-time Fourier transforms and framing (`paddle.signal`): frame, overlap_add, stft,
istft. `framework.signal` is the namespace Paddle code imports; `TENSOR_METHODS` binds
`x.stft(...)` and `x.istft(...)`."""

from framework.ops.signal.frames import frame, overlap_add
from framework.ops.signal.stft import istft, stft

__all__ = ["frame", "istft", "overlap_add", "stft"]

TENSOR_METHODS = {"istft": istft, "stft": stft}
