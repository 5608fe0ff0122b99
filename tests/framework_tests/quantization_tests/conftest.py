"""Shared data and models for the INT8 tests: scikit-learn's digits upsampled to 28x28 (LeNet)
or 3x32x32 (ResNet-18), split 80/20 stratified, and models trained on them once per session.

A ResNet-18 with random weights is no stand-in for a trained one here: with batch norm it
amplifies any perturbation about tenfold (1% input noise alone moves its logits by 10% and
flips 3% of its predictions), so no 8-bit scheme keeps 98% of its answers. A few SGD steps
remove most of that, so the ResNet is trained briefly, then its batch-norm statistics are
measured on training images (after so few steps the running averages are still mostly their
initial values).
"""

from __future__ import annotations

import pytest

import framework
from framework import nn
from tests.framework_tests.digits_data import ArrayDataset, digits_split

RESNET_STEPS = 24  # 89% on the digits; 12 steps (76%) left too many near-ties to compare


@pytest.fixture(scope="session")
def digits() -> tuple[ArrayDataset, ArrayDataset]:
    return digits_split(28, 1)


@pytest.fixture(scope="session")
def digits_rgb32() -> tuple[ArrayDataset, ArrayDataset]:
    return digits_split(32, 3)


@pytest.fixture(scope="session")
def trained_lenet(digits) -> nn.Layer:
    """LeNet trained with framework.Model to >= 97% on the digits test split."""
    from framework.vision.models import LeNet

    train, test = digits
    framework.seed(0)
    network = LeNet()
    model = framework.Model(network)
    model.prepare(
        framework.optimizer.Adam(learning_rate=1e-3, parameters=network.parameters()),
        nn.CrossEntropyLoss(),
        framework.metric.Accuracy(),
    )
    model.fit(train, batch_size=32, epochs=6, verbose=0)
    accuracy = model.evaluate(test, batch_size=360, verbose=0)["acc"]
    assert accuracy >= 0.97, accuracy
    network.eval()
    return network


@pytest.fixture(scope="session")
def trained_resnet18(digits_rgb32) -> nn.Layer:
    """resnet18(num_classes=10) after a few SGD steps on 3x32x32 digits (see the module
    docstring), in eval mode."""
    return train_resnet18(digits_rgb32[0], RESNET_STEPS)


def train_resnet18(train: ArrayDataset, steps: int) -> nn.Layer:
    """`steps` SGD steps on the first `32 * steps` images, then batch-norm statistics of the
    last 256."""
    from framework.vision.models import resnet18

    framework.seed(0)
    network = resnet18(num_classes=10)
    optimizer = framework.optimizer.Momentum(
        learning_rate=0.02, momentum=0.9, parameters=network.parameters()
    )
    loss_fn = nn.CrossEntropyLoss()
    network.train()
    batch = 32
    for step in range(steps):
        start = step * batch
        x = framework.to_tensor(train.images[start : start + batch])
        y = framework.to_tensor(train.labels[start : start + batch, 0])
        loss = loss_fn(network(x), y)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    norms = [layer for layer in network.sublayers() if isinstance(layer, nn.BatchNorm2D)]
    momenta = [layer._momentum for layer in norms]
    for layer in norms:
        layer._momentum = 0.0  # the running statistics become those of the next batch
    with framework.no_grad():
        network(framework.to_tensor(train.images[-256:]))
    for layer, momentum in zip(norms, momenta, strict=True):
        layer._momentum = momentum
    network.eval()
    return network
