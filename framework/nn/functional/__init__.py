"""Stateless neural-network functions (`framework.nn.functional`), as in `paddle.nn.functional`."""

# --- conv, pooling, normalization, dropout, embedding, interpolate (owner: conv/pool/norm) -----
from framework.nn.functional.conv import conv1d, conv1d_transpose, conv2d, conv2d_transpose

# --- activations, losses, linear, attention helpers (owner: nn layers) --------------------------
