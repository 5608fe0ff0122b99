"""Stateless neural-network functions (`framework.nn.functional`), as in `paddle.nn.functional`."""

# --- conv, pooling, normalization, dropout, embedding, interpolate (owner: conv/pool/norm) -----

# --- activations, losses, linear, attention helpers (owner: nn layers) --------------------------
