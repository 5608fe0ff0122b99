"""gather_tree: a loop reference, real Paddle parity (int32 and int64) and argument checks."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F

rng = np.random.default_rng(0)
IDS = rng.integers(0, 10, (5, 2, 3))
PARENTS = rng.integers(0, 3, (5, 2, 3))


def reference_gather_tree(ids, parents):
    steps, batch, beam = ids.shape
    out = np.empty_like(ids)
    for b in range(batch):
        for k in range(beam):
            parent = k
            for t in range(steps - 1, -1, -1):
                out[t, b, k] = ids[t, b, parent]
                parent = parents[t, b, parent]
    return out


def test_gather_tree_matches_the_loop_reference():
    out = F.gather_tree(framework.to_tensor(IDS), framework.to_tensor(PARENTS))
    np.testing.assert_array_equal(out.numpy(), reference_gather_tree(IDS, PARENTS))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_gather_tree_matches_paddle(dtype):
    paddle = pytest.importorskip("paddle")
    ids, parents = IDS.astype(dtype), PARENTS.astype(dtype)
    ours = F.gather_tree(framework.to_tensor(ids), framework.to_tensor(parents)).numpy()
    theirs = paddle.nn.functional.gather_tree(
        paddle.to_tensor(ids), paddle.to_tensor(parents)
    ).numpy()
    assert ours.dtype == theirs.dtype == dtype
    np.testing.assert_array_equal(ours, theirs)


def test_gather_tree_rejects_bad_inputs():
    with pytest.raises(ValueError, match="max_time"):
        F.gather_tree(framework.to_tensor(IDS), framework.to_tensor(PARENTS[:2]))
    with pytest.raises(TypeError, match="integer"):
        F.gather_tree(framework.to_tensor(IDS * 1.0), framework.to_tensor(PARENTS))
