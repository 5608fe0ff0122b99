"""Convolutions and batch norm through Intel oneDNN's JIT kernels, when it is installed.

oneDNN is what PyTorch's CPU convolutions and batch norm run on; called through ctypes it is
faster than our NumPy kernels on most convolution shapes and on channel-last batch norm
(`benchmarks/onednn_conv.py`, `benchmarks/layer_ops.py`). The predictor runs its convolutions
on it and training its float32 convolutions and channel-last batch norms, where
`framework.backends.cpu.routing` says so.

- `library`: finding and loading the shared library, its C signatures, and the calling
  thread's OpenMP team (`cores`);
- `primitives`: `Conv2d` (one inference convolution), `TrainingConv2d` (one training
  convolution's three passes) and `BatchNorm`, and the predictor's entry point `conv2d`;
- `training`: training's entry points (`conv_forward`, `conv_input_grad`, `conv_weight_grad`,
  `batch_norm_forward`, `batch_norm_backward`).
"""
