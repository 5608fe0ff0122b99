"""The autograd engine: accumulation, retain_graph, grad(), higher order, hooks, no_grad."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


def leaf(values) -> framework.Tensor:
    return framework.to_tensor(values, dtype="float64", stop_gradient=False)


def test_it_accumulates_gradients_over_two_backwards():
    x = leaf([1.0, 2.0])
    (x * x).backward(retain_graph=False)
    (x * 3.0).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0 + 3.0, 4.0 + 3.0])


def test_it_frees_the_graph_after_backward():
    x = leaf([1.0, 2.0])
    y = x * x
    y.backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = leaf([1.0, 2.0])
    y = x * x
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_grad_does_not_touch_dot_grad_and_gives_higher_orders():
    x = leaf([2.0])
    (dx,) = framework.grad(x * x * x, x, create_graph=True)
    (ddx,) = framework.grad(dx, x, create_graph=True)
    (dddx,) = framework.grad(ddx, x)
    assert x.grad is None
    assert dx.item() == pytest.approx(12.0)
    assert ddx.item() == pytest.approx(12.0)
    assert dddx.item() == pytest.approx(6.0)


def test_grad_rejects_unused_inputs_unless_allowed():
    x, y = leaf([1.0]), leaf([2.0])
    with pytest.raises(RuntimeError, match="not used"):
        framework.grad(x * x, [x, y], retain_graph=True)
    gx, gy = framework.grad(x * x, [x, y], allow_unused=True)
    assert gy is None and gx.item() == pytest.approx(2.0)


def test_grad_wrt_a_non_leaf():
    x = leaf([3.0])
    h = x * x
    (gh,) = framework.grad(h * h, h)
    assert gh.item() == pytest.approx(2 * 9.0)


def test_no_grad_records_nothing():
    x = leaf([1.0])
    with framework.no_grad():
        y = x * x
    assert y.stop_gradient and y.grad_fn is None


def test_set_grad_enabled_works_as_call_and_context():
    x = leaf([1.0])
    with framework.set_grad_enabled(False):
        assert (x * x).stop_gradient
    assert not (x * x).stop_gradient


def test_hooks_rewrite_gradients_on_leaves_and_intermediates():
    x = leaf([1.0, 2.0])
    h = x * 2.0
    h.register_hook(lambda g: g * 10.0)
    handle = x.register_hook(lambda g: g + 1.0)
    (h * 1.0).backward()
    np.testing.assert_allclose(x.grad.numpy(), [21.0, 21.0])
    handle.remove()


def test_retain_grads_keeps_a_non_leaf_gradient():
    x = leaf([1.0, 2.0])
    h = x * x
    h.retain_grads()
    (h * 3.0).backward()
    np.testing.assert_allclose(h.grad.numpy(), [3.0, 3.0])


def test_diamond_graph_sums_both_paths():
    x = leaf([2.0])
    a = x * 3.0
    b = x * x
    (a * b).backward()  # d/dx (3x * x^2) = 9x^2
    assert x.grad.item() == pytest.approx(36.0)


def test_backward_on_a_constant_is_a_clear_error():
    with pytest.raises(RuntimeError, match="does not require a gradient"):
        framework.to_tensor([1.0]).backward()


@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((2, 1, 3), (5, 1)), ((0, 3), (3,))])
def test_broadcasting_gradients_of_add_and_multiply(shapes):
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(s) for s in shapes)
    check_backward(lambda x, y: x * y + x, [a, b])
    check_double_backward(lambda x, y: x * y * x, [a, b])


def test_each_leaf_owns_a_writeable_gradient():
    a = leaf([1.0, 2.0])
    b = leaf([3.0, 4.0])
    c = leaf(5.0)
    (a + b + c).backward()
    assert a.grad._data is not b.grad._data
    for t in (a, b, c):
        assert t.grad._data.flags.writeable
    a.grad._data[0] = 100.0
    assert b.grad.numpy()[0] == 1.0
