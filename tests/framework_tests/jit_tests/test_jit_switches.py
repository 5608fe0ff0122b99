"""`jit.enable_to_static` (off: to_static runs eagerly, as Paddle does), and the recorded
translator settings `ignore_module`, `set_code_level`, `set_verbosity`."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.jit import switches


@pytest.fixture(autouse=True)
def _restore():
    yield
    framework.jit.enable_to_static(True)


def test_enable_to_static_false_runs_the_python_code_eagerly():
    calls = []

    @framework.jit.to_static
    def f(x):
        calls.append(1)
        return x * 2.0

    x = framework.to_tensor([1.0, 2.0])
    with framework.no_grad():
        f(x)  # traced: the body runs while the graph is captured
        traced = len(calls)
        f(x)  # the captured graph runs: the Python body is not called again
    assert len(calls) == traced
    framework.jit.enable_to_static(False)
    with framework.no_grad():
        out = f(x)
    assert len(calls) == traced + 1
    np.testing.assert_array_equal(out.numpy(), [2.0, 4.0])


def test_enable_to_static_false_on_a_layer():
    model = framework.jit.to_static(framework.nn.Linear(2, 2))
    model.eval()
    framework.jit.enable_to_static(False)
    x = framework.ones([1, 2])
    with framework.no_grad():
        assert model(x).shape == [1, 2]
    assert model.forward._last is None  # no program was built or run


def test_enable_to_static_takes_a_bool():
    with pytest.raises(TypeError):
        framework.jit.enable_to_static(1)


def test_translator_settings_are_recorded():
    framework.jit.set_code_level(50)
    framework.jit.set_verbosity(2, also_to_stdout=True)
    framework.jit.ignore_module([np])
    assert switches._switches.code_level == 50 and switches._switches.verbosity == 2
    assert np in switches._switches.ignored_modules


def test_same_calls_run_on_paddle():
    paddle = pytest.importorskip("paddle")
    for module in (paddle.jit, framework.jit):
        module.set_code_level(100)
        module.set_verbosity(0)
        module.ignore_module([np])
        module.enable_to_static(True)
