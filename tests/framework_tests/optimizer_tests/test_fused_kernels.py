"""The GPU kernels' source is assembled correctly (checked without a GPU)."""

from __future__ import annotations

import numpy as np

from framework.optimizer import fused


def test_kernels_bind_the_accumulator_type_and_are_built_once(monkeypatch):
    built = []
    monkeypatch.setattr(fused, "elementwise_kernel", lambda *args: built.append(args) or args)
    fused.fused_kernel.cache_clear()
    first = fused.fused_kernel("demo", "P g, A lr", "P p, A v", "v = lr * (A)g;", "float32")
    again = fused.fused_kernel("demo", "P g, A lr", "P p, A v", "v = lr * (A)g;", "float32")
    double = fused.fused_kernel("demo", "P g, A lr", "P p, A v", "v = lr * (A)g;", "float64")
    fused.fused_kernel.cache_clear()
    assert first is again and len(built) == 2
    assert first == (
        "P g, float32 lr",
        "P p, float32 v",
        "typedef float A; v = lr * (A)g;",
        "framework_demo_float32",
    )
    assert double[2].startswith("typedef double A;")


def test_state_is_float32_for_float16_parameters():
    assert fused.accumulator_dtype(np.dtype(np.float16)) == np.float32
    assert fused.accumulator_dtype(np.dtype(np.float64)) == np.float64
