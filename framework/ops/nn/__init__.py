"""Neural-network kernels as Functions: convolution, pooling, normalization, dropout, embedding,
interpolation and linear. `framework.nn.functional` wraps them with Paddle's signatures."""

from framework.backends.cpu.workspace import clear_workspace, tune_allocator, workspace_bytes

__all__ = ["clear_workspace", "tune_allocator", "workspace_bytes"]

tune_allocator()
