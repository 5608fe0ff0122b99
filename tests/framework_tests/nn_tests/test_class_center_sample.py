"""F.class_center_sample: Paddle parity on what is not random, and the negatives' rules."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F

CASES = [([5, 1, 5, 9, 3], 12, 6), ([5, 1, 5, 9, 3], 12, 2), ([0, 0], 4, 4), ([7, 2, 7], 10, 3)]


@pytest.mark.parametrize("labels,num_classes,num_samples", CASES)
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_it_matches_paddle(labels, num_classes, num_samples, dtype):
    paddle = pytest.importorskip("paddle")
    label = np.array(labels, dtype=dtype)
    ours = F.class_center_sample(framework.to_tensor(label), num_classes, num_samples)
    theirs = paddle.nn.functional.class_center_sample(
        paddle.to_tensor(label), num_classes, num_samples
    )
    positives = sorted(set(labels))
    for (remapped, centres), module in ((ours, "ours"), (theirs, "paddle")):
        assert remapped.numpy().dtype == centres.numpy().dtype == np.dtype(dtype), module
        c = centres.numpy()
        assert len(c) == max(num_samples, len(positives))
        assert c[: len(positives)].tolist() == positives
        negatives = c[len(positives) :]
        assert len(set(negatives)) == len(negatives)
        assert not set(negatives) & set(positives)
        assert ((0 <= negatives) & (negatives < num_classes)).all()
        np.testing.assert_array_equal(c[remapped.numpy()], label)
    np.testing.assert_array_equal(ours[0].numpy(), theirs[0].numpy())


def test_negatives_are_random_through_the_seed():
    label = framework.to_tensor([3])
    framework.seed(1)
    a = F.class_center_sample(label, 100, 10)[1].numpy()
    framework.seed(1)
    assert (F.class_center_sample(label, 100, 10)[1].numpy() == a).all()
    draws = {tuple(F.class_center_sample(label, 100, 10)[1].numpy()) for _ in range(5)}
    assert len(draws) > 1


@pytest.mark.parametrize(
    "label,num_samples,error,message",
    [
        ([1], 5, ValueError, "Expected num_samples less than or equal to 4, got num_samples 5"),
        ([[1]], 2, ValueError, "Expected label_dims == 1"),
    ],
)
def test_it_rejects_what_paddle_rejects(label, num_samples, error, message):
    paddle = pytest.importorskip("paddle")
    with pytest.raises(error, match=message):
        paddle.nn.functional.class_center_sample(paddle.to_tensor(label), 4, num_samples)
    with pytest.raises(error, match=message):
        F.class_center_sample(framework.to_tensor(label), 4, num_samples)


def test_it_rejects_float_and_out_of_range_labels():
    with pytest.raises(TypeError, match="int32 or int64"):
        F.class_center_sample(framework.to_tensor([1.0]), 4, 2)
    # Paddle reads past its class table here; the framework refuses.
    with pytest.raises(ValueError, match=r"labels must lie in \[0, 4\)"):
        F.class_center_sample(framework.to_tensor([5]), 4, 2)
