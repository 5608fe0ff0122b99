"""EfficientNet-Lite0/1/2 build as the reference builds them (blocks, channels, ReLU6, no
squeeze-excite, TensorFlow's batch norm), runs forward and backward, and drops residual
branches only while training."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.vision import models
from framework.vision.models.efficientnet_lite import MBConv

# efficientnet_lite_pytorch.EfficientNet.from_name('efficientnet-liteN'): values in its state
# dict less BatchNorm's num_batches_tracked counters (one per norm), which we do not keep; its
# number of MBConv blocks; its dropout.
REFERENCE = {
    "efficientnet_lite0": (4_694_073 - 49, 16, 0.2),
    "efficientnet_lite1": (5_470_408 - 64, 21, 0.2),
    "efficientnet_lite2": (6_150_232 - 64, 21, 0.3),
}


@pytest.mark.parametrize("variant", sorted(REFERENCE))
def test_each_variant_has_the_reference_size(variant: str) -> None:
    values, blocks, dropout = REFERENCE[variant]
    model = getattr(models, variant)()
    assert sum(int(np.prod(v.shape)) for v in model.state_dict().values()) == values
    assert sum(isinstance(b, MBConv) for b in model.blocks) == blocks
    assert model.classifier[0].p == dropout


def test_it_has_the_reference_layout() -> None:
    model = models.efficientnet_lite0()
    norms = [layer for layer in model.sublayers() if isinstance(layer, nn.BatchNorm2D)]
    assert {(n._momentum, n._epsilon) for n in norms} == {(0.99, 1e-3)}
    assert not any(isinstance(layer, nn.Sigmoid) for layer in model.sublayers())  # no SE
    assert sum(isinstance(layer, nn.ReLU6) for layer in model.sublayers()) == 2 + 31


def test_it_classifies_and_returns_features_without_a_head() -> None:
    model = models.efficientnet_lite0(num_classes=10)
    model.eval()
    features = models.EfficientNetLite(num_classes=0, with_pool=False)
    features.eval()
    x = framework.randn([2, 3, 224, 224])
    with framework.no_grad():
        assert model(x).shape == [2, 10]
        assert features(x).shape == [2, 1280, 7, 7]


def test_it_trains() -> None:
    model = models.efficientnet_lite0(num_classes=3)
    model.train()
    out = model(framework.randn([2, 3, 64, 64]))
    loss = nn.CrossEntropyLoss()(out, framework.to_tensor(np.array([0, 2])))
    loss.backward()
    grad = model.stem[0].weight.grad
    assert grad is not None and np.isfinite(grad.numpy()).all()


def test_drop_connect_acts_only_while_training() -> None:
    block = MBConv(16, 16, 3, 1, 6, drop_connect_rate=0.5)
    x = framework.randn([64, 16, 8, 8])
    block.eval()
    with framework.no_grad():
        a, b = block(x).numpy(), block(x).numpy()
    np.testing.assert_array_equal(a, b)
    block.train()
    with framework.no_grad():
        branch = (block(x) - x).numpy().reshape(64, -1)
    dropped = np.all(branch == 0, axis=1)
    assert 0 < dropped.sum() < 64  # whole samples' branches dropped, not all of them
