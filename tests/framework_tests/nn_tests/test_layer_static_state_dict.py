"""`Layer.to_static_state_dict`: `state_dict()` plus the non-persistable buffers, as Paddle's."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import framework
from framework import nn


class Block(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("steps", framework.zeros([1]))
        self.register_buffer("cache", framework.ones([2]), persistable=False)


class Net(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.scale = self.create_parameter([2])
        self.register_buffer("mask", framework.ones([2]), persistable=False)
        self.block = Block()
        self.norm = nn.BatchNorm1D(2)


def test_it_is_the_state_dict_plus_the_non_persistable_buffers_in_layer_order():
    net = Net()
    assert list(net.to_static_state_dict()) == [
        "scale",
        "mask",
        "block.steps",
        "block.cache",
        "block.fc.weight",
        "block.fc.bias",
        "norm.weight",
        "norm.bias",
        "norm._mean",
        "norm._variance",
    ]
    persistable = net.state_dict()
    static = net.to_static_state_dict()
    assert [key for key in static if key in persistable] == list(persistable)
    assert set(static) - set(persistable) == {"mask", "block.cache"}


def test_its_values_are_the_layers_own_tensors_unless_detached():
    net = Net()
    static = net.to_static_state_dict()
    assert static["block.fc.weight"] is net.block.fc.weight
    assert static["block.cache"] is net.block.cache
    detached = net.to_static_state_dict(keep_vars=False)
    assert detached["block.fc.weight"] is not net.block.fc.weight
    assert detached["block.fc.weight"].stop_gradient
    np.testing.assert_array_equal(detached["mask"].numpy(), net.mask.numpy())


def test_it_honours_prefix_destination_and_include_sublayers():
    net = Net()
    assert list(net.to_static_state_dict(include_sublayers=False)) == ["scale", "mask"]
    destination = OrderedDict(existing=framework.zeros([1]))
    out = net.to_static_state_dict(destination=destination, structured_name_prefix="net.")
    assert out is destination
    assert list(out)[:3] == ["existing", "net.scale", "net.mask"]
    assert "net.block.cache" in out


def test_it_skips_buffers_set_to_none():
    block = Block()
    block.cache = None
    assert "cache" not in block.to_static_state_dict()


def test_state_dict_still_leaves_the_non_persistable_buffers_out():
    assert "block.cache" not in Net().state_dict()


@pytest.mark.parametrize("keep_vars", [True, False])
def test_a_layer_without_non_persistable_buffers_gives_the_same_keys(keep_vars):
    layer = nn.Linear(4, 3)
    assert list(layer.to_static_state_dict(keep_vars=keep_vars)) == list(layer.state_dict())
