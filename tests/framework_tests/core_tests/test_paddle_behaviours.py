"""Places where the framework answered differently from Paddle 3.3, each now checked against
real Paddle (the test oracle): silu in place, mean's and linspace's keyword arguments, nll_loss
with [N, 1] labels, cross_entropy with whole-number float labels, assign into an output of
another shape, and amp's float16/bfloat16 support on a CPU."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F

paddle = pytest.importorskip("paddle")


def both(values, dtype="float32"):
    return framework.to_tensor(np.asarray(values, dtype=dtype)), paddle.to_tensor(
        np.asarray(values, dtype=dtype)
    )


def test_silu_in_place_writes_the_input_as_paddle_does() -> None:
    ours, theirs = both([1.0, -1.0, 0.5])
    result = F.silu(ours, inplace=True)
    paddle.nn.functional.silu(theirs, inplace=True)
    assert result is ours
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    kept, _ = both([1.0, -1.0])
    F.silu(kept)
    np.testing.assert_array_equal(kept.numpy(), [1.0, -1.0])  # not in place by default
    assert repr(framework.nn.Silu(inplace=True)) == repr(paddle.nn.Silu(inplace=True))
    layer_input, _ = both([2.0])
    framework.nn.Silu(inplace=True)(layer_input)
    np.testing.assert_allclose(layer_input.numpy(), [2.0 / (1 + np.exp(-2.0))], rtol=1e-6)


def test_silu_in_place_is_refused_on_a_leaf_that_needs_its_gradient() -> None:
    leaf = framework.to_tensor([1.0], stop_gradient=False)
    with pytest.raises((RuntimeError, ValueError)):
        F.silu(leaf, inplace=True)


def test_mean_takes_dtype_and_out() -> None:
    ours, theirs = both([1, 2], dtype="int64")
    for dtype in ("float32", "float64"):
        got = framework.mean(ours, dtype=dtype)
        want = paddle.mean(theirs, dtype=dtype)
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1] == dtype
        np.testing.assert_allclose(got.numpy(), want.numpy())
    out = framework.zeros([], dtype="float32")
    assert framework.mean(framework.to_tensor([1.0, 4.0]), out=out) is out
    assert float(out) == 2.5


def test_linspace_takes_device_requires_grad_and_out() -> None:
    got = framework.linspace(0, 1, 5, device="cpu", requires_grad=True)
    want = paddle.linspace(0, 1, 5, device="cpu", requires_grad=True)
    np.testing.assert_allclose(got.numpy(), want.numpy())
    assert got.stop_gradient is want.stop_gradient is False
    assert framework.linspace(0, 1, 3).stop_gradient is True
    out = framework.zeros([3])
    assert framework.linspace(0, 2, 3, out=out) is out
    np.testing.assert_array_equal(out.numpy(), [0, 1, 2])


def test_nll_loss_takes_labels_with_a_trailing_axis_of_one() -> None:
    logits = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")
    labels = np.array([[0], [1], [2], [1]], dtype="int64")
    ours = F.nll_loss(
        F.log_softmax(framework.to_tensor(logits), axis=1), framework.to_tensor(labels)
    )
    theirs = paddle.nn.functional.nll_loss(
        paddle.nn.functional.log_softmax(paddle.to_tensor(logits), axis=1),
        paddle.to_tensor(labels),
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_cross_entropy_takes_whole_number_float_labels_and_refuses_fractions() -> None:
    logits = np.random.default_rng(1).standard_normal((4, 3)).astype("float32")
    labels = np.array([0.0, 1.0, 2.0, 1.0], dtype="float32")
    ours = F.cross_entropy(framework.to_tensor(logits), framework.to_tensor(labels))
    theirs = paddle.nn.functional.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(labels))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="fractional values .* soft_label=True"):
        F.cross_entropy(framework.to_tensor(logits), framework.to_tensor([0.5, 1, 2, 1]))


def test_assign_into_an_output_of_another_shape_gives_it_the_new_shape() -> None:
    ours_out, theirs_out = framework.zeros([2, 3]), paddle.zeros([2, 3])
    ours = framework.assign(framework.ones([3]), output=ours_out)
    theirs = paddle.assign(paddle.ones([3]), output=theirs_out)
    assert ours is ours_out and theirs is theirs_out
    assert ours_out.shape == list(theirs_out.shape) == [3]
    np.testing.assert_array_equal(ours_out.numpy(), theirs_out.numpy())


def test_float16_and_bfloat16_are_not_reported_supported_on_a_cpu() -> None:
    assert framework.amp.is_float16_supported("cpu") is paddle.amp.is_float16_supported("cpu")
    assert framework.amp.is_float16_supported("cpu") is False
    # Paddle answers bfloat16 on a CPU from its ISA (oneDNN's AVX-512 bf16 kernels), so it says
    # True on some machines; the framework has no bfloat16 CPU kernels anywhere, so never.
    assert framework.amp.is_bfloat16_supported("cpu") is False


@pytest.mark.gpu
def test_float16_is_supported_on_a_gpu() -> None:
    assert framework.amp.is_float16_supported("gpu:0")


@pytest.mark.parametrize("dtype", ["int64", "float64", "int32"])
def test_assign_into_an_output_of_another_dtype_gives_it_the_new_dtype(dtype: str) -> None:
    value = np.array([[1, 1], [3, 4], [1, 3]]).astype(dtype)
    ours_out, theirs_out = framework.zeros([3, 3]), paddle.zeros([3, 3])
    framework.assign(value, ours_out)
    paddle.assign(value, theirs_out)
    assert str(ours_out.dtype).split(".")[-1] == str(theirs_out.dtype).split(".")[-1] == dtype
    np.testing.assert_array_equal(ours_out.numpy(), theirs_out.numpy())
