"""`jit.save(layer, path)` with no input_spec, as Paddle allows once a to_static forward has
run: the inputs of its latest call describe the saved graph. Without a call it says what to
pass."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn


class Small(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return framework.nn.functional.relu(self.fc(x))


class Decorated(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)

    @framework.jit.to_static
    def forward(self, x):
        return self.fc(x) * 2.0


@pytest.mark.parametrize("mode", ["eval", "train"])
def test_a_to_static_layer_that_ran_saves_without_a_spec(tmp_path, mode) -> None:
    layer = framework.jit.to_static(Small())
    getattr(layer, mode)()
    x = framework.randn([2, 4])
    want = layer(x).numpy()
    path = str(tmp_path / "small")
    framework.jit.save(layer, path)
    loaded = framework.jit.load(path)
    np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-6)
    with pytest.raises(ValueError):  # the graph was saved for the inputs it ran on: [2, 4]
        loaded(framework.randn([2, 5]))


def test_a_decorated_forward_saves_without_a_spec(tmp_path) -> None:
    layer = Decorated()
    layer.eval()
    x = framework.randn([3, 4])
    want = layer(x).numpy()
    framework.jit.save(layer, str(tmp_path / "decorated"))
    np.testing.assert_allclose(
        framework.jit.load(str(tmp_path / "decorated"))(x).numpy(), want, rtol=1e-6
    )


def test_a_layer_that_never_ran_asks_for_a_spec(tmp_path) -> None:
    layer = framework.jit.to_static(Small())
    with pytest.raises(
        ValueError, match="input_spec .* or a to_static forward that has already run"
    ):
        framework.jit.save(layer, str(tmp_path / "never"))


def test_paddle_accepts_the_same_call(tmp_path) -> None:
    paddle = pytest.importorskip("paddle")

    class PaddleSmall(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = paddle.nn.Linear(4, 3)

        def forward(self, x):
            return paddle.nn.functional.relu(self.fc(x))

    layer = paddle.jit.to_static(PaddleSmall())
    layer.eval()
    layer(paddle.randn([2, 4]))
    paddle.jit.save(layer, str(tmp_path / "paddle_small"))  # the behaviour ours follows
    assert (tmp_path / "paddle_small.pdiparams").exists()
