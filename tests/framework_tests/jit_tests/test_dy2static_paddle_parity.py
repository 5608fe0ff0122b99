"""The transcribed functions of test_dy2static give Paddle's own `paddle.jit.to_static` results:
each function's source runs under real Paddle (`import paddle as framework`) and ours."""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np
import pytest

import framework
from tests.framework_tests.jit_tests.test_dy2static import CASES, _n, _x


@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


def _paddle_twin(paddle, function, tmp_path):
    """`function` compiled from its own source in a module where `framework` is Paddle."""
    path = tmp_path / f"paddle_{function.__name__}.py"
    path.write_text("import paddle as framework\n\n\n" + inspect.getsource(function))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, function.__name__)


@pytest.mark.parametrize(
    ("function", "specs", "inputs"),
    [pytest.param(f, s, i, id=f.__name__) for f, s, i, _ in CASES],
)
def test_to_static_matches_paddles(paddle, function, specs, inputs, tmp_path):
    theirs_specs = [paddle.static.InputSpec(s.shape, s.dtype.name) for s in specs]
    theirs = paddle.jit.to_static(
        _paddle_twin(paddle, function, tmp_path), input_spec=theirs_specs, full_graph=True
    )
    ours = framework.jit.to_static(function, input_spec=specs)
    for value, *counts in inputs:
        args = [_x(value, rows=3), *[_n(c) for c in counts]]
        want = theirs(*[paddle.to_tensor(a.numpy()) for a in args]).numpy()
        with framework.no_grad():
            np.testing.assert_allclose(ours(*args).numpy(), want, rtol=1e-5, atol=1e-6)
