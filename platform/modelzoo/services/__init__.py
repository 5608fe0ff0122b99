"""Model-zoo operations: measuring architectures, importing weights, loading them for training."""
