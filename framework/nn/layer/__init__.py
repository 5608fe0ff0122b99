"""Layers (`framework.nn.layer`); the public names are re-exported from `framework.nn`."""
