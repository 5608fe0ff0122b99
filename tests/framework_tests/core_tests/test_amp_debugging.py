"""framework.amp.debugging, as paddle.amp.debugging: check_numerics, the tensor checker and the
operator statistics, checked against Paddle where Paddle's results are observable."""

from __future__ import annotations

import numpy as np
import pytest

import framework as paddle
from framework.amp import debugging

VALUES = [1.0, float("nan"), float("inf"), -float("inf"), 0.0, 2.0]


def test_module_path():
    from framework.amp.debugging import DebugMode, check_numerics  # noqa: F401

    assert paddle.amp.debugging is debugging
    assert list(DebugMode.__members__) == [
        "CHECK_NAN_INF_AND_ABORT",
        "CHECK_NAN_INF",
        "CHECK_ALL_FOR_OVERFLOW",
        "CHECK_ALL",
    ]


def test_check_numerics_paddle_example_passes_and_matches_paddle():
    real = pytest.importorskip("paddle")

    def run(m):
        x = m.to_tensor([1, 0, 3], place=m.CPUPlace(), dtype="float32")
        y = m.to_tensor([0.2, 0, 0.5], place=m.CPUPlace(), dtype="float32")
        res = m.pow(x, y)
        stats, values = m.amp.debugging.check_numerics(res, "pow", "res")
        return stats.numpy(), values.numpy()

    for ours, theirs in zip(run(paddle), run(real), strict=True):
        assert ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_check_numerics_reports_nan_inf_like_paddle(capsys):
    real = pytest.importorskip("paddle")
    mode = "CHECK_NAN_INF"
    ours = debugging.check_numerics(
        paddle.to_tensor(VALUES), "foo", "z", getattr(debugging.DebugMode, mode)
    )
    theirs = real.amp.debugging.check_numerics(
        real.to_tensor(VALUES), "foo", "z", getattr(real.amp.debugging.DebugMode, mode)
    )
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    err = capsys.readouterr().err
    assert "[PRECISION] [ERROR]" in err and "op=foo, tensor=z" in err and "num_nan=1" in err


def test_check_numerics_aborts_by_default():
    with pytest.raises(RuntimeError, match=r"NAN or INF \(num_nan=1, num_inf=2.*op=foo, tensor=z"):
        debugging.check_numerics(paddle.to_tensor(VALUES), "foo", "z")
    with pytest.raises(TypeError):
        debugging.check_numerics(paddle.to_tensor([1, 2]), "foo", "z")


def test_tensor_checker_checks_every_op_until_disabled(capsys):
    config = debugging.TensorCheckerConfig(
        enable=True, debug_mode=debugging.DebugMode.CHECK_NAN_INF
    )
    debugging.enable_tensor_checker(config)
    try:
        with np.errstate(all="ignore"):
            paddle.log(paddle.to_tensor([-1.0, 0.0, 1.0]))
    finally:
        debugging.disable_tensor_checker()
    assert "op=Log" in capsys.readouterr().err
    with np.errstate(all="ignore"):
        paddle.log(paddle.to_tensor([-1.0]))
    assert capsys.readouterr().err == ""


def test_tensor_checker_aborts_skips_and_counts_steps():
    abort = debugging.TensorCheckerConfig(enable=True)
    debugging.enable_tensor_checker(abort)
    try:
        with pytest.raises(RuntimeError, match="op=Log"), np.errstate(all="ignore"):
            paddle.log(paddle.to_tensor([-1.0]))
    finally:
        debugging.disable_tensor_checker()

    skip = debugging.TensorCheckerConfig(enable=True, skipped_op_list=["log"])
    debugging.enable_tensor_checker(skip)
    try:
        with np.errstate(all="ignore"):
            paddle.log(paddle.to_tensor([-1.0]))  # skipped: no error
    finally:
        debugging.disable_tensor_checker()

    stepped = debugging.TensorCheckerConfig(enable=True, debug_step=[1, 2])
    for step, raises in enumerate([False, True, False]):
        debugging.enable_tensor_checker(stepped)
        try:
            with np.errstate(all="ignore"):
                if raises:
                    with pytest.raises(RuntimeError):
                        paddle.log(paddle.to_tensor([-1.0]))
                else:
                    paddle.log(paddle.to_tensor([-1.0]))
        finally:
            debugging.disable_tensor_checker()
        assert stepped.current_step == step


def test_operator_stats_paddle_example(capsys):
    conv = paddle.nn.Conv2D(3, 2, 3)
    x = paddle.rand([10, 3, 32, 32])
    with paddle.amp.debugging.collect_operator_stats():
        with paddle.amp.auto_cast(enable=True, level="O2"):
            out = conv(x)
        flags = out > 0
        total = x + x
    assert flags.dtype == paddle.bool and total.dtype == paddle.float32
    table = capsys.readouterr().out
    rows = {
        line.split("|")[0].strip(): [c.strip() for c in line.split("|")[1:]]
        for line in table.splitlines()
        if "|" in line and not line.startswith("<")
    }
    assert rows["Conv"] == ["1", "0", "0", "0"]  # float16 under O2
    assert rows["greater"][3] == "1"  # a bool output counts as other
    assert rows["Add"][2] == "1"
    assert f"op count: {len(rows)}" in table


def test_operator_stats_enable_disable_and_hooks_restored(capsys):
    from framework.core import autograd, recording

    before = (autograd._trace_hook, recording._hook)
    debugging.enable_operator_stats_collection()
    paddle.ones([2]) * 2
    debugging.disable_operator_stats_collection()
    assert "Multiply " in capsys.readouterr().out
    assert (autograd._trace_hook, recording._hook) == before


def test_check_layer_numerics_paddle_example():
    class MyLayer(paddle.nn.Layer):
        def __init__(self, dtype, divide=False):
            super().__init__()
            self._w = self.create_parameter([2, 3], dtype=dtype)
            self._b = self.create_parameter([2, 3], dtype=dtype)
            self.divide = divide

        @paddle.amp.debugging.check_layer_numerics
        def forward(self, x):
            if self.divide:
                return 1 / x * self._w + self._b
            return x @ self._w + self._b

    dtype = "float32"
    x = paddle.rand([10, 2, 2], dtype=dtype)
    model = MyLayer(dtype)
    x[0] = float(0)
    loss = model(x)
    adam = paddle.optimizer.Adam(parameters=model.parameters())
    loss.backward()
    adam.step()

    with pytest.raises(RuntimeError, match="NAN or INF"), np.errstate(all="ignore"):
        MyLayer(dtype, divide=True)(x)
    with pytest.raises(RuntimeError, match="must be tensor"):
        model(np.ones([2, 2]))
    with np.errstate(all="ignore"):
        paddle.log(paddle.to_tensor([-1.0]))  # the checker is off again


@pytest.mark.gpu
def test_check_numerics_and_checker_on_gpu(capsys):
    z = paddle.to_tensor(VALUES).cuda()
    stats, values = debugging.check_numerics(z, "foo", "z", debugging.DebugMode.CHECK_NAN_INF)
    np.testing.assert_array_equal(stats.numpy(), [1, 2, 1])
    assert "device=gpu" in capsys.readouterr().err
    debugging.enable_tensor_checker(debugging.TensorCheckerConfig(enable=True))
    try:
        with pytest.raises(RuntimeError, match="op=Log"):
            paddle.log(paddle.to_tensor([-1.0]).cuda())
    finally:
        debugging.disable_tensor_checker()
