"""tensor_method_func / magic_method_func list what is bound onto Tensor, as Paddle's do."""

from __future__ import annotations

import pytest

import framework
from framework.tensor.method_lists import magic_method_func, tensor_method_func


def test_every_listed_method_is_bound():
    assert tensor_method_func == sorted(set(tensor_method_func))
    for name in tensor_method_func:
        assert callable(getattr(framework.Tensor, name, None)) or isinstance(
            getattr(framework.Tensor, name, None), property
        ), name


def test_it_covers_paddles_list_and_its_operators():
    paddle = pytest.importorskip("paddle")
    bound_elsewhere = {"numel", "shape"}  # defined on the Tensor class itself
    assert set(paddle.tensor.tensor_method_func) - set(tensor_method_func) <= bound_elsewhere
    ours = dict(magic_method_func)
    assert set(ours) == {magic for magic, _ in paddle.tensor.magic_method_func}
    for magic, function in ours.items():
        assert getattr(framework.Tensor, magic).__name__ == function
