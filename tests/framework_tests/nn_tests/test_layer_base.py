"""Layer: registration, traversal, state dicts, modes, dtype/device moves, hooks, errors, repr."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import framework
from framework import nn


class Scale(nn.Layer):
    """A tiny layer built only from create_parameter and multiply."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.weight = self.create_parameter([size])
        self.bias = self.create_parameter([size], is_bias=True)

    def forward(self, x):
        return x * self.weight + self.bias

    def extra_repr(self) -> str:
        return f"size={self.weight.shape[0]}"


class Net(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.first = Scale(3)
        self.second = Scale(3)
        self.register_buffer("steps", framework.to_tensor(np.zeros([1], np.float32)))
        self.cache = framework.to_tensor(np.ones([2], np.float32))  # non-persistable buffer

    def forward(self, x):
        return self.second(self.first(x))


class Failing(nn.Layer):
    def forward(self, x):
        raise ValueError("boom")


class Outer(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(Scale(2), Failing())

    def forward(self, x):
        return self.body(x)


def test_it_registers_parameters_sublayers_and_buffers_by_assignment():
    net = Net()
    assert [name for name, _ in net.named_parameters()] == [
        "first.weight",
        "first.bias",
        "second.weight",
        "second.bias",
    ]
    assert [name for name, _ in net.named_sublayers()] == ["first", "second"]
    assert [name for name, _ in net.named_buffers()] == ["steps", "cache"]
    assert net.first.weight is net._sub_layers["first"]._parameters["weight"]


def test_state_dict_holds_parameters_and_persistable_buffers_only():
    net = Net()
    assert list(net.state_dict()) == [
        "steps",
        "first.weight",
        "first.bias",
        "second.weight",
        "second.bias",
    ]
    assert net.state_dict()["first.weight"] is net.first.weight


def test_named_parameters_lists_a_shared_parameter_once():
    net = Net()
    net.second.weight = net.first.weight
    names = [name for name, _ in net.named_parameters()]
    assert names == ["first.weight", "first.bias", "second.bias"]
    assert len(net.parameters()) == 3
    assert len(net.parameters(include_sublayers=False)) == 0


def test_set_state_dict_round_trips_and_reports_missing_and_unexpected_keys():
    source, target = Net(), Net()
    state = {k: v.numpy() + 1.0 for k, v in source.state_dict().items()}
    del state["second.bias"]
    state["extra.weight"] = np.zeros(3, np.float32)
    weight = target.first.weight
    missing, unexpected = target.set_state_dict(state)
    assert missing == ["second.bias"]
    assert unexpected == ["extra.weight"]
    assert target.first.weight is weight  # loaded in place
    np.testing.assert_array_equal(target.first.weight.numpy(), source.first.weight.numpy() + 1)
    np.testing.assert_array_equal(target.steps.numpy(), [1.0])


def test_set_state_dict_rejects_a_shape_mismatch_naming_key_and_both_shapes():
    net = Net()
    before = net.first.bias.numpy().copy()
    state = {k: v.numpy() for k, v in net.state_dict().items()}
    state["first.bias"] = np.ones(3, np.float32)
    state["second.weight"] = np.ones([4, 3], np.float32)
    with pytest.raises(ValueError, match=r"'second.weight'.*\[4, 3\].*\[3\]"):
        net.set_state_dict(state)
    np.testing.assert_array_equal(net.first.bias.numpy(), before)  # nothing was loaded


def test_set_state_dict_by_parameter_name():
    source, target = Scale(3), Scale(3)
    state = {p.name: p.numpy() * 2 for p in source.parameters()}
    target_names = {p.name for p in target.parameters()}
    assert not target_names & set(state)
    pairs = zip(source.parameters(), target.parameters(), strict=True)
    renamed = {t.name: state[s.name] for s, t in pairs}
    missing, unexpected = target.set_state_dict(renamed, use_structured_name=False)
    assert missing == [] and unexpected == []
    np.testing.assert_allclose(target.weight.numpy(), source.weight.numpy() * 2)


def test_train_and_eval_reach_every_sublayer():
    net = Net()
    net.eval()
    assert not net.training and not net.first.training and not net.second.training
    net.train()
    assert all(layer.training for layer in net.sublayers(include_self=True))


def test_apply_visits_children_before_the_parent():
    net = Net()
    order = []
    assert net.apply(lambda layer: order.append(type(layer).__name__)) is net
    assert order == ["Scale", "Scale", "Net"]


def test_to_casts_floating_tensors_in_place_and_keeps_identity():
    net = Net()
    weight = net.first.weight
    net.register_buffer("counter", framework.to_tensor(np.array([3], np.int64)))
    assert net.to(dtype="float64") is net
    assert net.first.weight is weight and weight.dtype == np.float64
    assert net.steps.dtype == np.float64
    assert net.counter.dtype == np.int64
    net.float()
    assert weight.dtype == np.float32
    net.to("cpu")
    assert weight.place == framework.CPUPlace()


def test_float_can_exclude_layers():
    net = Net().double()
    net.float(excluded_layers=[net.second])
    assert net.first.weight.dtype == np.float32
    assert net.second.weight.dtype == np.float64


def test_forward_hooks_rewrite_inputs_and_outputs_and_can_be_removed():
    layer = Scale(2)
    layer.weight.set_value(np.array([2.0, 2.0], np.float32))
    x = framework.to_tensor(np.array([1.0, 3.0], np.float32))
    pre = layer.register_forward_pre_hook(lambda lyr, inputs: (inputs[0] * 10.0,))
    post = layer.register_forward_post_hook(lambda lyr, inputs, out: out * 0.5)
    np.testing.assert_allclose(layer(x).numpy(), [10.0, 30.0])
    pre.remove()
    np.testing.assert_allclose(layer(x).numpy(), [1.0, 3.0])
    post.remove()
    post.remove()  # a second remove does nothing
    np.testing.assert_allclose(layer(x).numpy(), [2.0, 6.0])
    assert not layer._forward_pre_hooks and not layer._forward_post_hooks


def test_hooks_with_kwargs_and_prepend_order():
    layer = Scale(1)
    calls = []
    layer.register_forward_pre_hook(lambda lyr, a: calls.append("first"))
    layer.register_forward_pre_hook(lambda lyr, a: calls.append("second"), prepend=True)
    seen = {}

    def with_kwargs(lyr, args, kwargs):
        seen.update(kwargs)
        return args, {}

    layer.register_forward_pre_hook(with_kwargs, with_kwargs=True)
    layer(framework.to_tensor([1.0]), unused=5)
    assert calls == ["second", "first"]
    assert seen == {"unused": 5}


def test_always_call_post_hook_runs_when_forward_raises():
    layer = Failing()
    calls = []
    layer.register_forward_post_hook(lambda *a: calls.append("always"), always_call=True)
    layer.register_forward_post_hook(lambda *a: calls.append("normal"))
    with pytest.raises(ValueError):
        layer(framework.to_tensor([1.0]))
    assert calls == ["always"]


def test_errors_inside_nested_forwards_name_the_layer_path():
    with pytest.raises(ValueError, match="boom") as info:
        Outer()(framework.to_tensor([1.0, 2.0]))
    notes = info.value.__notes__
    assert len(notes) == 1
    assert notes[0] == "Raised in forward of layer 'body.1' (Failing()) of Outer"


def test_an_error_in_a_top_level_layer_names_that_layer():
    with pytest.raises(ValueError) as info:
        Failing()(framework.to_tensor([1.0]))
    assert info.value.__notes__ == ["Raised in forward of Failing()"]


def test_full_names_are_unique_per_class():
    a, b = Scale(1), Scale(1)
    assert a.full_name().startswith("scale_") and a.full_name() != b.full_name()
    assert a.weight.name == f"{a.full_name()}.w_0"
    assert a.bias.name == f"{a.full_name()}.b_0"


def test_repr_is_a_readable_tree():
    assert repr(Net()) == ("Net(\n  (first): Scale(size=3)\n  (second): Scale(size=3)\n)")


def test_create_parameter_honours_attr_dtype_and_defaults():
    layer = nn.Layer()
    weight = layer.create_parameter([4, 5])
    limit = np.sqrt(6.0 / (4 + 5))
    assert weight.dtype == np.float32 and not weight.stop_gradient
    assert np.abs(weight.numpy()).max() <= limit
    bias = layer.create_parameter([5], is_bias=True)
    np.testing.assert_array_equal(bias.numpy(), np.zeros(5))
    assert layer.create_parameter([5], attr=False) is None
    frozen = layer.create_parameter(
        [2], attr=framework.ParamAttr(name="frozen", learning_rate=0.5, trainable=False)
    )
    assert frozen.name == "frozen" and frozen.stop_gradient
    assert frozen.optimize_attr["learning_rate"] == 0.5
    assert layer.create_parameter([2], dtype="float64").dtype == np.float64
    const = layer.create_parameter([2], default_initializer=nn.initializer.Constant(3.0))
    np.testing.assert_array_equal(const.numpy(), [3.0, 3.0])


def test_parameters_get_gradients_through_forward():
    layer = Scale(2)
    x = framework.to_tensor(np.array([1.0, 2.0], np.float32))
    (layer(x) * layer(x)).backward(framework.to_tensor(np.ones(2, np.float32)))
    y = layer(x).numpy()
    np.testing.assert_allclose(layer.weight.grad.numpy(), 2 * y * x.numpy(), rtol=1e-6)
    layer.clear_gradients()
    np.testing.assert_array_equal(layer.weight.grad.numpy(), [0.0, 0.0])
    layer.clear_gradients(set_to_zero=False)
    assert layer.weight.grad is None


def test_setattr_rejects_wrong_types_for_registered_names():
    net = Net()
    with pytest.raises(TypeError, match="parameter 'weight'"):
        net.first.weight = 3
    with pytest.raises(TypeError, match="sublayer 'first'"):
        net.first = "not a layer"
    net.first.weight = None
    assert [n for n, _ in net.first.named_parameters()] == ["bias"]


def test_setattr_before_super_init_is_a_clear_error():
    class Early(nn.Layer):
        def __init__(self) -> None:
            self.fc = Scale(1)

    with pytest.raises(ValueError, match="super\\(\\).__init__\\(\\)"):
        Early()


def test_delattr_and_getattr_for_registered_entries():
    net = Net()
    del net.first
    assert "first" not in dict(net.named_children())
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'first'"):
        _ = net.first


def test_add_parameter_add_sublayer_and_lookup_by_path():
    net = Net()
    extra = net.create_parameter([2])
    net.add_parameter("extra", extra)
    net.add_sublayer("third", Scale(1))
    assert net.get_parameter("extra") is extra
    assert net.get_sublayer("third") is net.third
    assert net.get_parameter("third.weight") is net.third.weight
    assert net.get_buffer("steps") is net.steps
    with pytest.raises(KeyError, match="already exists"):
        net.add_parameter("first", extra)
    with pytest.raises(KeyError, match="cannot contain"):
        net.add_parameter("a.b", extra)


def test_children_and_sublayers_include_self_on_request():
    net = Net()
    assert list(net.children()) == [net.first, net.second]
    assert net.sublayers(include_self=True)[0] is net
    assert [name for name, _ in net.named_children()] == ["first", "second"]


def test_deepcopy_gives_independent_parameters():
    net = Net()
    clone = copy.deepcopy(net)
    clone.first.weight.set_value(np.zeros(3, np.float32))
    assert not np.array_equal(net.first.weight.numpy(), clone.first.weight.numpy())
    assert [n for n, _ in clone.named_parameters()] == [n for n, _ in net.named_parameters()]


def test_seed_reproduces_weights_bit_for_bit():
    framework.seed(7)
    first = [p.numpy() for p in Net().parameters()]
    framework.seed(7)
    second = [p.numpy() for p in Net().parameters()]
    for a, b in zip(first, second, strict=True):
        assert a.tobytes() == b.tobytes()


def test_moving_to_a_missing_gpu_is_a_clear_error():
    if framework.is_compiled_with_cuda():
        pytest.skip("a GPU is present")
    net = Net()
    with pytest.raises(RuntimeError, match="was requested but"):
        net.to("gpu")
    assert net.first.weight.place == framework.CPUPlace()


def test_calls_without_hooks_skip_the_hook_machinery(monkeypatch):
    from framework.nn.layer import layers

    def fail(*args, **kwargs):
        raise AssertionError("hook machinery used without hooks")

    monkeypatch.setattr(layers, "call_with_hooks", fail)
    layer = Scale(2)
    layer(framework.to_tensor(np.ones(2, np.float32)))
    handle = layer.register_forward_post_hook(lambda *a: None)
    with pytest.raises(AssertionError, match="hook machinery"):
        layer(framework.to_tensor(np.ones(2, np.float32)))
    handle.remove()
    layer(framework.to_tensor(np.ones(2, np.float32)))


def test_load_state_dict_is_strict_by_default():
    source, target = Net(), Net()
    state = dict(source.state_dict())
    state.pop("steps")
    state["stray"] = np.zeros(1, np.float32)
    with pytest.raises(RuntimeError, match="Unexpected key\\(s\\) in state_dict: stray") as info:
        target.load_state_dict(state)
    assert "Missing key(s) in state_dict: steps" in str(info.value)
    missing, unexpected = target.load_state_dict(state, strict=False)
    assert missing == ["steps"] and unexpected == ["stray"]
