"""Python `if`/`while`/`for` on tensors in a to_static function become graph control flow: the
same outputs eager, after to_static and after jit.save/jit.load, for inputs taking each branch
and different loop counts."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import framework
from framework import nn
from framework.jit import ControlFlowError, InputSpec
from framework.jit.dy2static import convert_to_static
from framework.testing.gradient_check import check_backward

ROWS = InputSpec([None, 3], "float32")
COUNT = InputSpec([], "int64")


def if_else(x):
    if x.sum() > 0:
        y = x * 2.0
    else:
        y = framework.tanh(x)
    return y + 1.0


def conditional_expression(x):
    return x * 2.0 if x.sum() > 0 and x.max() < 50.0 else framework.tanh(x)


def early_return(x):
    if x.mean() > 0:
        return x * 3.0
    x = x - 1.0
    return x * 0.5


def for_with_break(x, n):
    s = x
    for _ in range(n):
        s = s * 0.5 + x
        if s.sum() > 30.0:
            break
    return s


def while_with_continue(x, n):
    s = x * 0.0
    i = 0
    while i < n:
        i += 1
        if (x * i).sum() > 10.0:
            continue
        s = s + x * i
    return s


def nested(x, n):
    if x.sum() > 0:
        for _ in range(n):
            if x.mean() > 2.0 and x.max() < 100.0:
                x = x - 1.0
            else:
                x = x * 2.0
    else:
        x = -x
    return x


class Gate(nn.Layer):
    def __init__(self, squash: bool) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.squash = squash

    def forward(self, x):
        h = self.fc(x)
        if self.squash:  # a Python condition stays Python
            h = framework.tanh(h)
        for _ in range(2):  # so does a loop over Python ints
            h = h + x
        if h.mean() > 0 or x.sum() > 5.0:
            h = nn.functional.relu(h)
        return h


class Block(nn.Layer):
    def forward(self, x):
        if x.mean() > 0:
            return x * 0.5
        return -x


class WithBlocks(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 3), Block())

    def forward(self, x):
        return self.body(x) + 1.0


def _x(value: float, rows: int = 2) -> framework.Tensor:
    return framework.to_tensor((np.full((rows, 3), value) * np.arange(1, 4)).astype("float32"))


def _n(count: int) -> framework.Tensor:
    return framework.to_tensor(np.array(count, "int64"))


CASES = [
    (if_else, [ROWS], [(1.0,), (-1.0,)], "cond"),
    (early_return, [ROWS], [(1.0,), (-1.0,)], "cond"),
    (conditional_expression, [ROWS], [(1.0,), (-1.0,), (30.0,)], "cond"),
    (for_with_break, [ROWS, COUNT], [(1.0, 0), (1.0, 2), (1.0, 9)], "while_loop"),
    (while_with_continue, [ROWS, COUNT], [(1.0, 0), (1.0, 3), (0.5, 6)], "while_loop"),
    (nested, [ROWS, COUNT], [(1.0, 0), (1.0, 3), (-1.0, 2), (0.1, 6)], "cond"),
]


@pytest.mark.parametrize(("function", "specs", "inputs", "op"), CASES, ids=lambda c: "")
def test_it_matches_eager_after_to_static_and_jit_load(function, specs, inputs, op, tmp_path):
    static = framework.jit.to_static(function, input_spec=specs)
    framework.jit.save(function, tmp_path / "m", input_spec=specs)
    loaded = framework.jit.load(tmp_path / "m")
    for value, *counts in inputs:
        for rows in (2, 5):
            args = [_x(value, rows), *[_n(c) for c in counts]]
            want = function(*args).numpy()
            np.testing.assert_allclose(static(*args).numpy(), want, rtol=1e-6)
            np.testing.assert_allclose(loaded(*args).numpy(), want, rtol=1e-6)
    assert static.concrete_program.op_counts().get(op) == 1


def test_a_layer_keeps_python_conditions_and_converts_tensor_ones(tmp_path):
    model = Gate(squash=True)
    model.eval()
    framework.jit.save(model, tmp_path / "m", input_spec=[ROWS])
    loaded = framework.jit.load(tmp_path / "m")
    counts = loaded.program.op_counts()
    assert counts["cond"] == 1 and counts["tanh"] == 1 and counts.get("while_loop") is None
    for value in (1.0, -1.0, -3.0):
        np.testing.assert_allclose(loaded(_x(value)).numpy(), model(_x(value)).numpy(), rtol=1e-6)


def test_a_sublayers_forward_is_transcribed_too(tmp_path):
    model = WithBlocks()
    model.eval()
    framework.jit.save(model, tmp_path / "m", input_spec=[ROWS])
    loaded = framework.jit.load(tmp_path / "m")
    assert loaded.program.op_counts()["cond"] == 1
    assert "forward" not in vars(model.body[1])  # the trace put the original back
    for value in (1.0, -1.0):
        np.testing.assert_allclose(loaded(_x(value)).numpy(), model(_x(value)).numpy(), rtol=1e-6)


def test_gradients_through_a_loaded_transcribed_branch(tmp_path):
    framework.jit.save(if_else, tmp_path / "m", input_spec=[InputSpec([None, 3], "float64")])
    loaded = framework.jit.load(tmp_path / "m")
    for value in (1.0, -1.0):
        check_backward(loaded, [np.full((2, 3), value) * np.arange(1, 4)])


def test_an_unconvertible_condition_names_its_line():
    def breaks_out_of_a_list_loop(x):
        for v in [1.0, 2.0]:
            if x.sum() > v:
                break
            x = x + v
        return x

    line = inspect.getsourcelines(breaks_out_of_a_list_loop)[1] + 2
    with pytest.raises(ControlFlowError) as info:
        framework.jit.to_static(breaks_out_of_a_list_loop, input_spec=[ROWS])(_x(1.0))
    message = str(info.value)
    assert f"test_dy2static.py:{line}" in message and "paddle.static.nn.cond" in message


def test_it_converts_each_function_once():
    assert convert_to_static(if_else) is convert_to_static(if_else)
    plain = lambda x: x + 1  # noqa: E731 - a lambda has no statements to convert
    assert convert_to_static(plain) is plain
