"""`paddle.tensor.create_array` / `array_write` / `array_read` / `array_length` in dynamic
mode: lists of tensors, the same sequence of operations giving the same results as Paddle's,
and clear errors where Paddle asserts."""

from __future__ import annotations

import numpy as np
import pytest

import framework


def _script(m):
    """A sequence of array operations; returns what each framework observes."""
    x = m.full([1, 3], 5.0)
    arr = m.tensor.create_array("float32")
    observed = [len(arr)]
    assert m.tensor.array_write(x, m.zeros([1], "int64"), array=arr) is arr
    m.tensor.array_write(x * 2.0, m.to_tensor([1]), array=arr)
    m.tensor.array_write(x * 3.0, m.to_tensor([0]), array=arr)  # overwrite position 0
    observed.append(m.tensor.array_length(arr))
    observed += [m.tensor.array_read(arr, m.to_tensor([k])).numpy() for k in (0, 1)]
    fresh = m.tensor.array_write(x, m.to_tensor([0]))
    observed.append(m.tensor.array_length(fresh))
    seeded = m.tensor.create_array("float32", [x, x * 4.0])
    observed.append(m.tensor.array_read(seeded, m.to_tensor([1])).numpy())
    return observed


def test_the_same_operations_give_what_paddle_gives():
    paddle = pytest.importorskip("paddle")
    ours, theirs = _script(framework), _script(paddle)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_array_holds_the_written_tensor_objects():
    x = framework.ones([2])
    arr = framework.tensor.create_array("float32", (x,))
    assert arr == [x] and arr[0] is x
    assert framework.tensor.array.array_read is framework.tensor.array_read


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda m, a, x: m.tensor.array_write(x, m.to_tensor([5]), a), IndexError, "greater than"),
        (lambda m, a, x: m.tensor.array_write(x, 0, a), TypeError, "must be a Tensor"),
        (lambda m, a, x: m.tensor.array_write(x, m.to_tensor([0, 1]), a), ValueError, "[1]"),
        (lambda m, a, x: m.tensor.array_write(3.0, m.to_tensor([0]), a), TypeError, "'x'"),
        (lambda m, a, x: m.tensor.array_write(x, m.to_tensor([0]), (x,)), TypeError, "a list"),
        (lambda m, a, x: m.tensor.array_read(a, m.to_tensor([9])), IndexError, "out of range"),
        (lambda m, a, x: m.tensor.array_read(a, 0), TypeError, "must be a Tensor"),
        (lambda m, a, x: m.tensor.array_length((x,)), TypeError, "a list"),
        (lambda m, a, x: m.tensor.create_array("float32", x), TypeError, "list/tuple"),
        (lambda m, a, x: m.tensor.create_array("float32", [x, 3]), TypeError, "should be Tensors"),
        (lambda m, a, x: m.tensor.create_array("not-a-dtype"), (TypeError, ValueError), ""),
    ],
)
def test_bad_arguments_are_refused_clearly(call, error, message):
    x = framework.ones([1, 3])
    arr = framework.tensor.create_array("float32", [x])
    with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
        call(framework, arr, x)
    assert len(arr) == 1
