"""`amp.is_autocast_enabled`, `amp.get_autocast_dtype` (and its cpu/gpu aliases) and
`autocast`, the PyTorch-style spelling of `auto_cast`, against Paddle's answers."""

from __future__ import annotations

import pytest

import framework


def test_outside_a_block_matches_paddle():
    paddle = pytest.importorskip("paddle")
    assert framework.amp.is_autocast_enabled() is paddle.amp.is_autocast_enabled() is False
    for name in ("get_autocast_dtype", "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"):
        assert getattr(framework.amp, name)() == getattr(paddle.amp, name)() == "float16"
    assert framework.autocast is framework.amp.autocast


def test_inside_a_block():
    with framework.amp.auto_cast():
        assert framework.amp.is_autocast_enabled()
        assert framework.amp.get_autocast_dtype("gpu") == "float16"
    with framework.amp.auto_cast(enable=False):
        assert not framework.amp.is_autocast_enabled()
    assert not framework.amp.is_autocast_enabled()


def test_autocast_enables_o1_with_the_dtype():
    with framework.autocast("cpu", dtype="float16"):
        assert framework.amp.is_autocast_enabled()
        x = framework.ones([2, 3])
        w = framework.ones([3, 4])
        assert framework.matmul(x, w).dtype == framework.float16
    with framework.autocast("cpu", enabled=False):
        assert not framework.amp.is_autocast_enabled()


def test_bfloat16_dtype_name():
    pytest.importorskip("ml_dtypes")
    with framework.autocast("gpu", dtype="bfloat16"):
        assert framework.amp.get_autocast_dtype() == "bfloat16"
