"""Containers: Sequential, LayerList, LayerDict, ParameterList."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import framework
from framework import nn


class AddOne(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.offset = self.create_parameter([1], default_initializer=nn.initializer.Constant(1.0))

    def forward(self, x):
        return x + self.offset


def test_sequential_runs_layers_in_order_and_names_them_by_index():
    seq = nn.Sequential(AddOne(), AddOne(), AddOne())
    out = seq(framework.to_tensor(np.zeros([2], np.float32)))
    np.testing.assert_array_equal(out.numpy(), [3.0, 3.0])
    assert [name for name, _ in seq.named_parameters()] == ["0.offset", "1.offset", "2.offset"]


@pytest.mark.parametrize(
    "build",
    [
        lambda a, b: nn.Sequential(("first", a), ("second", b)),
        lambda a, b: nn.Sequential(["first", a], ["second", b]),
        lambda a, b: nn.Sequential(OrderedDict(first=a, second=b)),
    ],
    ids=["tuples", "lists", "ordered-dict"],
)
def test_sequential_accepts_named_layers(build):
    a, b = AddOne(), AddOne()
    seq = build(a, b)
    assert seq["first"] is a and seq[1] is b and seq[-1] is b
    assert list(seq.state_dict()) == ["first.offset", "second.offset"]


def test_sequential_indexing_slicing_append_and_delete():
    layers = [AddOne() for _ in range(4)]
    seq = nn.Sequential(*layers)
    assert len(seq) == 4 and list(seq) == layers
    head = seq[1:3]
    assert isinstance(head, nn.Sequential) and list(head) == layers[1:3]
    seq.append(AddOne())
    assert len(seq) == 5
    del seq[0]
    assert len(seq) == 4 and seq[0] is layers[1]
    replacement = AddOne()
    seq[0] = replacement
    assert seq[0] is replacement
    with pytest.raises(IndexError):
        seq[10]


def test_layer_list_registers_parameters_and_supports_list_operations():
    blocks = nn.LayerList([AddOne() for _ in range(3)])
    assert len(blocks.parameters()) == 3
    extra = AddOne()
    blocks.append(extra)
    blocks.insert(0, AddOne())
    assert len(blocks) == 5 and blocks[-1] is extra
    assert [name for name, _ in blocks.named_children()] == ["0", "1", "2", "3", "4"]
    del blocks[1]
    assert len(blocks) == 4 and blocks[3] is extra
    del blocks[0:2]
    assert len(blocks) == 2 and blocks[1] is extra
    assert [name for name, _ in blocks.named_parameters()] == ["0.offset", "1.offset"]
    assert isinstance(blocks[0:1], nn.LayerList)
    blocks.extend([AddOne(), AddOne()])
    assert len(blocks) == 4


def test_layer_list_as_an_attribute_puts_its_layers_in_the_state_dict():
    class Net(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.blocks = nn.LayerList([AddOne(), AddOne()])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x

    net = Net()
    assert list(net.state_dict()) == ["blocks.0.offset", "blocks.1.offset"]
    np.testing.assert_array_equal(net(framework.to_tensor([0.0])).numpy(), [2.0])


def test_layer_dict_behaves_like_an_ordered_dict():
    heads = nn.LayerDict({"cls": AddOne(), "box": AddOne()})
    assert list(heads.keys()) == ["cls", "box"] and "cls" in heads and len(heads) == 2
    heads["mask"] = AddOne()
    heads.update([("extra", AddOne())])
    assert list(heads) == ["cls", "box", "mask", "extra"]
    popped = heads.pop("box")
    assert isinstance(popped, AddOne) and "box" not in heads
    del heads["mask"]
    assert [k for k, _ in heads.items()] == ["cls", "extra"]
    assert len(list(heads.values())) == 2
    heads.clear()
    assert len(heads) == 0
    with pytest.raises(ValueError, match="pairs"):
        heads.update([AddOne()])


def test_parameter_list_registers_parameters():
    layer = nn.Layer()
    params = nn.ParameterList([layer.create_parameter([2]) for _ in range(2)])
    params.append(layer.create_parameter([3]))
    assert len(params) == 3 and params[-1].shape == [3]
    assert [name for name, _ in params.named_parameters()] == ["0", "1", "2"]
    replacement = layer.create_parameter([4])
    params[0] = replacement
    assert params[0] is replacement and list(params)[0] is replacement
    with pytest.raises(TypeError, match="Parameters"):
        params.append(framework.to_tensor([1.0]))


def test_sequential_insert_and_extend_renumber_index_names():
    a, b, c, d = (AddOne() for _ in range(4))
    seq = nn.Sequential(a, b)
    seq.insert(1, c)
    assert list(seq) == [a, c, b] and list(seq._sub_layers) == ["0", "1", "2"]
    seq.insert(-1, d)
    assert list(seq) == [a, c, d, b]
    seq.extend([AddOne()])
    assert len(seq) == 5 and list(seq._sub_layers)[-1] == "4"
    with pytest.raises(IndexError):
        seq.insert(9, AddOne())


def test_layer_list_pop_and_concatenation():
    blocks = nn.LayerList([AddOne() for _ in range(3)])
    last = blocks[-1]
    assert blocks.pop() is last and len(blocks) == 2
    combined = blocks + [AddOne()]
    assert isinstance(combined, nn.LayerList) and len(combined) == 3
    blocks += [AddOne()]
    assert len(blocks) == 3


def test_parameter_dict_registers_parameters_by_key():
    layer = nn.Layer()
    params = nn.ParameterDict({"scale": layer.create_parameter([2])})
    params["shift"] = layer.create_parameter([2], is_bias=True)
    params.update([("extra", layer.create_parameter([1]))])
    assert list(params) == ["scale", "shift", "extra"] and "shift" in params and len(params) == 3
    assert [name for name, _ in params.named_parameters()] == ["scale", "shift", "extra"]
    assert params["extra"].shape == [1] and len(list(params.values())) == 3
    with pytest.raises(TypeError, match="Parameters"):
        params["bad"] = framework.to_tensor([1.0])


def test_modules_and_named_modules_include_the_layer_itself():
    seq = nn.Sequential(AddOne(), nn.Sequential(AddOne()))
    assert [name for name, _ in seq.named_modules()] == ["", "0", "1", "1.0"]
    assert list(seq.modules())[0] is seq
