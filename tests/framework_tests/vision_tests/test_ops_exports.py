"""`framework.vision.ops` offers every name of `paddle.vision.ops.__all__`, with Paddle's
argument names, so that Paddle code runs unchanged."""

from __future__ import annotations

import inspect

import pytest

from framework.vision import ops


def test_every_paddle_vision_op_is_exported() -> None:
    paddle = pytest.importorskip("paddle")
    missing = sorted(set(paddle.vision.ops.__all__) - set(ops.__all__))
    assert missing == []
    assert all(hasattr(ops, name) for name in ops.__all__)


def test_arguments_are_named_as_in_paddle() -> None:
    paddle = pytest.importorskip("paddle")
    for name in paddle.vision.ops.__all__:
        theirs, ours = getattr(paddle.vision.ops, name), getattr(ops, name)
        if inspect.isclass(theirs):
            theirs, ours = theirs.__init__, ours.__init__
        want = list(inspect.signature(theirs).parameters)
        got = list(inspect.signature(ours).parameters)
        assert got[: len(want)] == want, name
