"""Top-level names Paddle has outside its `__all__`: `paddle.inverse`, `paddle.eigvalsh`,
`paddle.cholesky`, `paddle.sigmoid`, the dtype aliases `paddle.int`/`long`/`short`, and the
`paddle.nn.loss` attribute naming `paddle.nn.layer.loss`. Values against Paddle."""

from __future__ import annotations

import numpy as np
import pytest

import framework

RNG = np.random.default_rng(3)
A = RNG.standard_normal((3, 3))
SPD = (A @ A.T + 3 * np.eye(3)).astype(np.float32)


def test_the_names_are_the_linalg_and_functional_objects():
    assert framework.inverse is framework.linalg.inv
    assert framework.eigvalsh is framework.linalg.eigvalsh
    assert framework.cholesky is framework.linalg.cholesky
    assert framework.sigmoid is framework.nn.functional.sigmoid
    assert framework.tensor.inverse is framework.inverse


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.inverse(m.to_tensor(SPD)),
        lambda m: m.eigvalsh(m.to_tensor(SPD)),
        lambda m: m.eigvalsh(m.to_tensor(SPD), UPLO="U"),
        lambda m: m.cholesky(m.to_tensor(SPD)),
        lambda m: m.cholesky(m.to_tensor(SPD), upper=True),
        lambda m: m.sigmoid(m.to_tensor(SPD)),
    ],
)
def test_values_match_paddle(call):
    paddle = pytest.importorskip("paddle")
    ours, theirs = call(framework), call(paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)


def test_dtype_aliases_match_paddle():
    paddle = pytest.importorskip("paddle")
    for name in ("int", "long", "short"):
        theirs = str(getattr(paddle, name)).replace("paddle.", "")
        assert str(getattr(framework, name)) == theirs
        assert str(framework.ones([2], dtype=getattr(framework, name)).dtype) == theirs


def test_nn_loss_names_the_loss_layers_module_as_in_paddle():
    paddle = pytest.importorskip("paddle")
    assert framework.nn.loss is framework.nn.layer.loss
    assert paddle.nn.loss is paddle.nn.layer.loss
    layers = [
        name
        for name, obj in vars(paddle.nn.loss).items()
        if isinstance(obj, type) and issubclass(obj, paddle.nn.Layer) and obj is not paddle.nn.Layer
    ]
    assert "CrossEntropyLoss" in layers and "RNNTLoss" in layers
    for name in layers:
        assert getattr(framework.nn.loss, name) is getattr(framework.nn, name)
    ours = framework.nn.loss.CrossEntropyLoss()(
        framework.to_tensor(SPD), framework.to_tensor(np.array([0, 2, 1]))
    )
    theirs = paddle.nn.loss.CrossEntropyLoss()(
        paddle.to_tensor(SPD), paddle.to_tensor(np.array([0, 2, 1]))
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5)
