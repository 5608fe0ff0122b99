"""logspace, rand_like, randn_like: NumPy reference, PaddlePaddle parity (dtypes, integer
truncation), sample statistics, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework


@pytest.mark.parametrize(
    "start,stop,num,base",
    [(0, 2, 3, 10.0), (0, 3, 4, 2), (-1, 1, 5, 10.0), (1, 2, 1, 10.0), (1, 2, 0, 10.0)],
)
def test_logspace_matches_numpy(start, stop, num, base):
    got = framework.logspace(start, stop, num, base)
    np.testing.assert_allclose(got.numpy(), np.logspace(start, stop, num, base=base), rtol=1e-6)
    assert got.dtype == np.float32 and got.shape == [num]
    assert framework.logspace(start, stop, num, base, dtype="float64").dtype == np.float64


PARITY = {
    "default": lambda m: m.logspace(0, 2, 3),
    "base_2": lambda m: m.logspace(0, 3, 4, base=2),
    "float64": lambda m: m.logspace(-1.5, 2, 6, dtype="float64"),
    "int32": lambda m: m.logspace(0, 2, 3, dtype="int32"),
    "int64_truncates_bounds": lambda m: m.logspace(0, 2.5, 4, dtype="int64"),
    "tensor_bounds": lambda m: m.logspace(m.to_tensor(0.0), m.to_tensor(2.0), 3),
    "single": lambda m: m.logspace(1, 2, 1),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_logspace_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("op", ["rand_like", "randn_like"])
def test_like_samples_take_shape_dtype_and_flags_from_the_input(op):
    paddle = pytest.importorskip("paddle")
    f = getattr(framework, op)
    x = framework.ones([400, 50])
    out = f(x)
    assert out.shape == [400, 50] and out.dtype == np.float32 and out.stop_gradient
    data = out.numpy()
    if op == "rand_like":
        assert data.min() >= 0 and data.max() < 1 and abs(data.mean() - 0.5) < 0.01
    else:
        assert abs(data.mean()) < 0.02 and abs(data.std() - 1) < 0.02
    assert f(x, dtype="float64").dtype == np.float64
    assert f(framework.ones([2], dtype="float64")).dtype == np.float64
    assert f(framework.ones([0, 2])).shape == [0, 2]
    assert not f(x, requires_grad=True).stop_gradient
    assert f(x, device="cpu").shape == [400, 50]
    theirs = getattr(paddle, op)(paddle.ones([2, 3], dtype="float16"))
    assert str(f(framework.ones([2, 3], dtype="float16")).dtype) == str(theirs.dtype).split(".")[-1]
    framework.seed(7)
    first = f(x).numpy()
    framework.seed(7)
    np.testing.assert_array_equal(first, f(x).numpy())


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="non-negative"):
        framework.logspace(1, 2, -1)
    for op in (framework.rand_like, framework.randn_like):
        with pytest.raises(TypeError, match="float dtype"):
            op(framework.to_tensor([1, 2]))
        with pytest.raises(TypeError, match="float dtype"):
            op(framework.ones([2]), dtype="int32")
        with pytest.raises(TypeError, match="expects a Tensor"):
            op(np.ones(2))
