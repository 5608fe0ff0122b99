"""Neural-network kernels as Functions: convolution, pooling, normalization, dropout, embedding,
interpolation and linear. `framework.nn.functional` wraps them with Paddle's signatures."""

from framework.ops.nn.workspace import clear_workspace, workspace_bytes

__all__ = ["clear_workspace", "workspace_bytes"]
