"""Tensor memory-layout queries and copy_: Paddle parity where the layouts agree, NumPy's
layout where the framework's differ (a transpose is a view here)."""

from __future__ import annotations

import numpy as np
import pytest

import framework

A = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize("make", [lambda m: m.to_tensor(A), lambda m: m.to_tensor(A)[1:]])
def test_contiguous_layouts_match_paddle(make):
    paddle = pytest.importorskip("paddle")
    ours, theirs = make(framework), make(paddle)
    assert ours.strides == theirs.strides == ours.stride() == ours.get_strides()
    assert theirs.get_strides() == ours.get_strides()
    assert ours.offset == theirs.offset
    assert ours.is_contiguous() and theirs.is_contiguous()
    assert ours.device == theirs.device == "cpu"


def test_a_view_reports_numpys_layout_and_contiguous_copies_it():
    x = framework.to_tensor(A, stop_gradient=False)
    v = x.t()
    assert v.strides == [1, 4] and not v.is_contiguous()
    c = v.contiguous()
    assert c.is_contiguous() and c.strides == [3, 1]
    np.testing.assert_array_equal(c.numpy(), A.T)
    (c * framework.to_tensor(A.T)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), A)
    y = framework.to_tensor(A)
    assert y.contiguous() is y
    assert x[:, 1:].offset == 4 and x[1:].data_ptr() - x.data_ptr() == 16


@pytest.mark.parametrize("target_shape", [[2, 3], [3]])
def test_copy_matches_paddle(target_shape):
    paddle = pytest.importorskip("paddle")
    src = np.arange(6, dtype=np.float32).reshape(2, 3)
    results = []
    for m in (framework, paddle):
        z = m.zeros(target_shape)
        out = z.copy_(m.to_tensor(src), True)
        results.append((z.numpy(), out.numpy(), list(z.shape)))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert results[0][2] == results[1][2] == [2, 3]


def test_copy_owns_its_data_and_refuses_another_dtype():
    src = framework.to_tensor(A)
    z = framework.zeros([1])
    assert z.copy_(src) is z and z.inplace_version == 1
    src.numpy()[0, 0] = 99.0
    assert z.numpy()[0, 0] == 0.0
    with pytest.raises(RuntimeError, match="has different data type"):
        framework.zeros([3, 4], dtype="float64").copy_(src)
    with pytest.raises(RuntimeError, match="can't use inplace"):
        framework.to_tensor([0.0], stop_gradient=False).copy_(src)
