"""Paddle 3.3.1's own docstring examples of the names issue 24 added run unchanged on the
framework (`import paddle` becomes `import framework as paddle`) and leave every tensor they
bind equal to what real Paddle leaves: same values (float32 tolerance), dtypes and shapes."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import framework

NAMES = [
    "argwhere",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "digamma",
    "erfinv",
    "from_numpy",
    "gammainc",
    "gammaincc",
    "gammaln",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "increment",
    "lgamma",
    "multigammaln",
    "polygamma",
    "range",
    "shard_index",
    "tolist",
    "unique_consecutive",
]


def _example(doc: str) -> str:
    """The `>>> ` / `... ` lines of a docstring, without doctest directives."""
    lines = []
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped[:4] in (">>> ", "... ") or stripped in (">>>", "..."):
            code = stripped[4:]
            if "doctest" not in code:
                lines.append(code)
    return "\n".join(lines)


def _tensors_after(source: str, module) -> dict:
    if module is framework:
        source = source.replace("import paddle", "import framework as paddle")
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<paddle docstring>", "exec"), scope)  # noqa: S102 - Paddle's docs
    return {k: v for k, v in scope.items() if isinstance(v, module.Tensor)}


@pytest.mark.parametrize("name", NAMES)
def test_paddle_docstring_example_gives_the_same_tensors(name):
    paddle = pytest.importorskip("paddle")
    source = _example(getattr(paddle, name).__doc__ or "")
    assert source, f"paddle.{name} has no example"
    theirs = _tensors_after(source, paddle)
    ours = _tensors_after(source, framework)
    assert theirs and set(ours) == set(theirs)
    for key, expected in theirs.items():
        got, want = ours[key].numpy(), expected.numpy()
        assert got.dtype == want.dtype and got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
