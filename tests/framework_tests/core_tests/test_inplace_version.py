"""`Tensor.inplace_version` counts in-place changes as Paddle's does: one per in-place op or
item assignment, none for `fill_constant(out=x)` or a new tensor from `clone()`."""

from __future__ import annotations

import numpy as np
import pytest

import framework

# (what it does, the change applied to a float32 [2, 2] tensor of ones)
CHANGES = [
    ("reshape_", lambda m, x: x.reshape_([4])),
    ("unsqueeze_", lambda m, x: x.unsqueeze_(0)),
    ("setitem", lambda m, x: x.__setitem__(0, 3.0)),
    ("zero_", lambda m, x: x.zero_()),
    ("fill_", lambda m, x: x.fill_(2.0)),
    ("uniform_", lambda m, x: x.uniform_()),
    ("assign-output", lambda m, x: m.assign(m.zeros([2, 2]), x)),
    ("add_", lambda m, x: x.add_(m.ones([2, 2]))),
    ("exp_-twice", lambda m, x: (x.exp_(), x.exp_())),
    ("fill_diagonal_", lambda m, x: x.fill_diagonal_(3.0)),
    ("cast_", lambda m, x: x.cast_("float64")),
    ("acosh_", lambda m, x: (x.add_(m.ones([2, 2])), x.acosh_())),
    ("sigmoid_", lambda m, x: x.sigmoid_()),
    ("clip_", lambda m, x: x.clip_(0.0, 0.5)),
    ("fill_constant-out", lambda m, x: m.tensor.fill_constant([3], "float32", 1.0, out=x)),
    ("nothing-in-place", lambda m, x: x + 1.0),
]


@pytest.mark.parametrize("name, change", CHANGES, ids=[c[0] for c in CHANGES])
def test_inplace_version_counts_as_paddle_does(name, change):
    paddle = pytest.importorskip("paddle")
    counts = []
    for module in (framework, paddle):
        x = module.ones([2, 2])
        assert x.inplace_version == 0
        change(module, x)
        counts.append(x.inplace_version)
    assert counts[0] == counts[1]


def test_a_clone_starts_again_and_the_original_keeps_counting():
    x = framework.ones([2])
    x.exp_()
    copy = x.clone()
    x[0] = 5.0
    assert (x.inplace_version, copy.inplace_version) == (2, 0)
    np.testing.assert_allclose(copy.numpy(), np.exp([1.0, 1.0]), rtol=1e-6)
