"""The PyTorch-style names Paddle 3.x exports from `paddle.nn` as aliases (Conv2d, Module,
ModuleList, AdaptiveMaxPool2d, Parameter, ...) name the same classes here as there."""

from __future__ import annotations

import pytest

import framework
from framework import nn

ALIASES = {
    "AdaptiveAvgPool1d": "AdaptiveAvgPool1D",
    "AdaptiveAvgPool2d": "AdaptiveAvgPool2D",
    "AdaptiveAvgPool3d": "AdaptiveAvgPool3D",
    "AdaptiveMaxPool1d": "AdaptiveMaxPool1D",
    "AdaptiveMaxPool2d": "AdaptiveMaxPool2D",
    "AdaptiveMaxPool3d": "AdaptiveMaxPool3D",
    "Conv1d": "Conv1D",
    "Conv2d": "Conv2D",
    "Conv3d": "Conv3D",
    "HuberLoss": "SmoothL1Loss",
    "Module": "Layer",
    "ModuleDict": "LayerDict",
    "ModuleList": "LayerList",
    "UpsamplingBilinear2d": "UpsamplingBilinear2D",
    "UpsamplingNearest2d": "UpsamplingNearest2D",
}


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_an_alias_is_the_same_class_as_in_paddle(alias):
    paddle = pytest.importorskip("paddle")
    assert getattr(nn, alias) is getattr(nn, ALIASES[alias])
    assert getattr(paddle.nn, alias) is getattr(paddle.nn, ALIASES[alias])


def test_parameter_is_the_parameter_class():
    weight = nn.Linear(2, 3).weight
    assert nn.Parameter is framework.Parameter
    assert isinstance(weight, nn.Parameter)


def test_a_module_subclass_is_a_layer():
    class Scale(nn.Module):
        def forward(self, x):
            return x * 2

    model = nn.ModuleList([Scale(), nn.Conv2d(1, 1, 1)])
    assert isinstance(model[0], nn.Layer) and len(model.parameters()) == 2
