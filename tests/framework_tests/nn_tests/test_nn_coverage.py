"""Every name in real Paddle's `paddle.nn.__all__` exists in `framework.nn`, so a regression (a
removed or renamed export) fails here."""

from __future__ import annotations

import pytest

from framework import nn


def test_every_paddle_nn_name_exists_here():
    paddle = pytest.importorskip("paddle")
    assert [name for name in paddle.nn.__all__ if not hasattr(nn, name)] == []
