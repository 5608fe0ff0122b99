"""framework.amp: auto_cast policy, GradScaler's skip-and-rescale rule, O2 decorate."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import amp, nn


def linear_model():
    framework.seed(0)
    return nn.Linear(4, 3)


def test_auto_cast_runs_linear_in_float16_and_losses_in_float32():
    model = linear_model()
    x = framework.randn([2, 4])
    with amp.auto_cast(level="O1"):
        out = model(x)
        loss = nn.functional.cross_entropy(out, framework.to_tensor([[0], [1]]))
    assert out.dtype == framework.float16
    assert loss.dtype == framework.float32
    loss.backward()
    assert model.weight.grad.dtype == framework.float32


def test_custom_black_list_keeps_an_op_in_float32():
    model = linear_model()
    with amp.auto_cast(custom_black_list={"linear", "matmul"}):
        assert model(framework.randn([2, 4])).dtype == framework.float32


def test_outside_auto_cast_nothing_changes():
    assert linear_model()(framework.randn([2, 4])).dtype == framework.float32


def test_the_same_op_in_two_lists_is_an_error():
    with pytest.raises(ValueError, match="both"):
        with amp.auto_cast(custom_white_list={"exp"}, custom_black_list={"exp"}):
            pass


def scaled_step(scaler, model, optimizer, poison: bool) -> None:
    loss = model(framework.randn([2, 4])).sum()
    scaler.scale(loss).backward()
    if poison:
        model.weight.grad._data[0, 0] = np.inf
    scaler.step(optimizer)
    scaler.update()
    optimizer.clear_grad()


def test_grad_scaler_skips_steps_with_inf_and_halves_the_scale():
    model = linear_model()
    optimizer = framework.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    scaler = amp.GradScaler(init_loss_scaling=1024.0, incr_every_n_steps=2)
    before = model.weight.numpy().copy()
    scaled_step(scaler, model, optimizer, poison=True)
    np.testing.assert_array_equal(model.weight.numpy(), before)
    assert scaler.get_init_loss_scaling() == 512.0
    scaled_step(scaler, model, optimizer, poison=False)
    assert not np.array_equal(model.weight.numpy(), before)
    assert scaler.get_init_loss_scaling() == 512.0
    scaled_step(scaler, model, optimizer, poison=False)
    assert scaler.get_init_loss_scaling() == 1024.0  # two good steps in a row: doubled


def test_grad_scaler_unscales_to_the_true_gradient():
    model = linear_model()
    optimizer = framework.optimizer.SGD(learning_rate=0.0, parameters=model.parameters())
    x = framework.randn([2, 4])
    model(x).sum().backward()
    expected = model.weight.grad.numpy().copy()
    optimizer.clear_grad()
    scaler = amp.GradScaler(init_loss_scaling=256.0)
    scaler.scale(model(x).sum()).backward()
    scaler.unscale_(optimizer)
    np.testing.assert_allclose(model.weight.grad.numpy(), expected, rtol=1e-6)


def test_decrement_needs_n_bad_steps_and_never_goes_below_one():
    model = linear_model()
    optimizer = framework.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    scaler = amp.GradScaler(init_loss_scaling=2.0, decr_every_n_nan_or_inf=2)
    scaled_step(scaler, model, optimizer, poison=True)
    assert scaler.get_init_loss_scaling() == 2.0
    for _ in range(4):
        scaled_step(scaler, model, optimizer, poison=True)
    assert scaler.get_init_loss_scaling() == 1.0


def test_scaler_state_round_trips():
    scaler = amp.GradScaler(init_loss_scaling=8.0)
    other = amp.GradScaler()
    other.load_state_dict(scaler.state_dict())
    assert other.get_init_loss_scaling() == 8.0


def test_o2_decorate_casts_weights_but_keeps_norm_layers_in_float32():
    model = nn.Sequential(nn.Conv2D(3, 4, 3), nn.BatchNorm2D(4))
    optimizer = framework.optimizer.Momentum(parameters=model.parameters())
    model, optimizer = amp.decorate(model, optimizer, level="O2")
    assert model[0].weight.dtype == framework.float16
    assert model[1].weight.dtype == framework.float32
    assert optimizer._multi_precision


def test_auto_cast_runs_conv_in_float16_and_batch_norm_in_float32():
    conv = nn.Conv2D(3, 4, 3)
    bn = nn.BatchNorm2D(4)
    x = framework.randn([1, 3, 8, 8])
    with amp.auto_cast(level="O1"):
        y = conv(x)
        z = bn(y)
    assert y.dtype == framework.float16
    assert z.dtype == framework.float32
