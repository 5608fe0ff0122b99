"""EfficientNet-Lite0 builds as the reference builds it (blocks, channels, ReLU6, no
squeeze-excite, TensorFlow's batch norm), runs forward and backward, and drops residual
branches only while training."""

from __future__ import annotations

import numpy as np

import framework
from framework import nn
from framework.vision import models
from framework.vision.models.efficientnet_lite import MBConv

# efficientnet_lite_pytorch.EfficientNet.from_name('efficientnet-lite0'): 4,694,073 values in
# its state dict, 49 of them BatchNorm's num_batches_tracked counters, which we do not keep.
REFERENCE_STATE_VALUES = 4_694_073 - 49


def test_it_has_the_reference_layout_and_size() -> None:
    model = models.efficientnet_lite0()
    blocks = [b for b in model.blocks if isinstance(b, MBConv)]
    assert len(blocks) == 16
    assert sum(int(np.prod(v.shape)) for v in model.state_dict().values()) == (
        REFERENCE_STATE_VALUES
    )
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
