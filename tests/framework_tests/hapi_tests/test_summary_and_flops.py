"""framework.summary and framework.flops agree with Paddle's numbers for LeNet and ResNet-18."""

from __future__ import annotations

import pytest

import framework
from framework.vision.models import LeNet, resnet18


def test_summary_counts_lenet(capsys):
    info = framework.summary(LeNet(), (1, 1, 28, 28))
    assert info == {"total_params": 61_610, "trainable_params": 61_610}
    table = capsys.readouterr().out
    assert "Conv2D-1" in table and "[1, 6, 28, 28]" in table and "61,610" in table


def test_summary_separates_frozen_parameters():
    net = LeNet()
    for p in net.features.parameters():
        p.stop_gradient = True
    info = framework.summary(net, (None, 1, 28, 28))
    assert info["total_params"] == 61_610
    assert info["trainable_params"] == 61_610 - (60 + 2416)


def test_flops_of_lenet_match_paddles_documented_count(capsys):
    assert framework.flops(LeNet(), [1, 1, 28, 28], print_detail=True) == 347_560
    assert "Total Flops: 347560" in capsys.readouterr().out


def paddle_flops(paddle, model, shape) -> int:
    """Paddle's own per-layer counters summed. `paddle.flops` itself crashes with NumPy 2 while
    printing its table (int() of a 1-element array), after the counting we compare against."""
    from paddle.hapi import dynamic_flops

    total = 0

    def counting(counter):
        def hook(layer, inputs, output):
            nonlocal total
            layer.total_ops = paddle.zeros([1], dtype="int64")
            counter(layer, inputs, output)
            total += int(layer.total_ops.numpy().sum())

        return hook

    for layer in model.sublayers():
        counter = dynamic_flops.register_hooks.get(type(layer))
        if counter is not None and not list(layer.children()):
            layer.register_forward_post_hook(counting(counter))
    model.eval()
    with paddle.no_grad():
        model(paddle.randn(shape))
    return total


def test_flops_of_resnet18_match_paddle():
    paddle = pytest.importorskip("paddle")
    expected = paddle_flops(paddle, paddle.vision.models.resnet18(), [1, 3, 224, 224])
    assert framework.flops(resnet18(), [1, 3, 224, 224]) == expected
