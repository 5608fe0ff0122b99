"""`paddle.signal`: the namespace Paddle code imports (`paddle.signal.stft`,
`from paddle.signal import istft`). The ops live in `framework.ops.signal`."""

# frame and overlap_add are public in Paddle's module too, outside its `__all__`.
from framework.ops.signal import frame, istft, overlap_add, stft  # noqa: F401

__all__ = ["stft", "istft"]
