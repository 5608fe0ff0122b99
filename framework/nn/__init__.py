"""Neural-network layers (`framework.nn`), as in `paddle.nn`."""

# --- layers, containers, activations, losses, initializers (owner: nn layers) ------------------

# --- gradient clipping (owner: optimizers) -----------------------------------------------------
