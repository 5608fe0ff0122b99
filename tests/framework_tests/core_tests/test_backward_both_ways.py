"""Functions whose backward has two formulas, one on arrays (plain backward) and one in Tensor
ops (recorded under `create_graph=True`), must agree: both ways are run here and compared.

The table is checked against the code: every Function whose backward asks `is_grad_enabled()`
(directly, or through a helper of its own module or a sibling module) needs a row, so a new
double formula cannot slip in untested. Where the array path was deleted (issue 22,
benchmarks/backward_formulas.py) the Function leaves the table.
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import re
from collections.abc import Callable

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.core.autograd import Function
from framework.core.tensor import Tensor
from framework.testing.gradient_check import check_backward

_ROOT = pathlib.Path(framework.__file__).parent
# An abstract base: its subclasses carry the formulas and have rows of their own.
_ABSTRACT = {"ElementwiseLoss"}


def _siblings(a: str, b: str) -> bool:
    return a.rpartition(".")[0] == b.rpartition(".")[0]


def _records_differently(module, function) -> bool:
    """Whether `function`'s source asks is_grad_enabled(), itself or through one level of
    module-level helpers it calls, defined in its module or a sibling of it."""
    source = inspect.getsource(function)
    if "is_grad_enabled()" in source:
        return True
    for name in set(re.findall(r"\b(_?\w+)\(", source)):
        helper = getattr(module, name, None)
        if inspect.isfunction(helper) and _siblings(helper.__module__, module.__name__):
            if "is_grad_enabled()" in inspect.getsource(helper):
                return True
    return False


def discover_double_formulas() -> set[str]:
    """Qualified names of the Function classes whose backward branches on is_grad_enabled()."""
    found = set()
    for path in sorted(_ROOT.rglob("*.py")):
        if not any("is_grad_enabled" in p.read_text() for p in path.parent.glob("*.py")):
            continue  # neither this module nor a sibling asks
        name = ".".join(("framework", *path.relative_to(_ROOT).with_suffix("").parts))
        module = importlib.import_module(name.removesuffix(".__init__"))
        for cls_name, cls in vars(module).items():
            if not (inspect.isclass(cls) and issubclass(cls, Function)):
                continue
            if cls.__module__ != module.__name__ or cls_name in _ABSTRACT:
                continue
            if _records_differently(module, cls.backward):
                found.add(f"{module.__name__}.{cls_name}")
    return found


def _away(x: np.ndarray, *kinks: float, margin: float = 0.1) -> np.ndarray:
    """`x` with every element within `margin` of a kink moved `2 * margin` past it, so that
    central differences never straddle one."""
    for kink in kinks:
        near = np.abs(x - kink) < margin
        x = np.where(near, kink + np.where(x >= kink, 2 * margin, -2 * margin), x)
    return x


_rng = np.random.default_rng(22)


def _x(*shape: int, low: float = -3.0, high: float = 3.0, kinks: tuple = ()) -> np.ndarray:
    return _away(_rng.uniform(low, high, size=shape), *kinks)


def _labels(n: int, classes: int) -> np.ndarray:
    return _rng.integers(0, classes, size=n)


def _probabilities(*shape: int) -> np.ndarray:
    p = _rng.uniform(0.1, 1.0, size=shape)
    return p / p.sum(axis=-1, keepdims=True)


_SOFT_LABELS = framework.to_tensor(_probabilities(6, 5))  # labels are constants: no gradient
_M = "framework.nn.functional."
# case id: (Function, fn of the input Tensors, input arrays); int arrays get no gradient.
CASES: dict[str, tuple[str, Callable, list[np.ndarray]]] = {
    "relu": (_M + "activation.rectifiers.ReLU", F.relu, [_x(2, 3, 4, kinks=(0,))]),
    "relu6": (
        _M + "activation.rectifiers.ClipActivation",
        F.relu6,
        [_x(3, 8, high=8, kinks=(0, 6))],
    ),
    "hardtanh": (
        _M + "activation.rectifiers.ClipActivation",
        F.hardtanh,
        [_x(3, 8, kinks=(-1, 1))],
    ),
    "hardshrink": (_M + "activation.shrinks.Shrink", F.hardshrink, [_x(3, 8, kinks=(-0.5, 0.5))]),
    "softshrink": (_M + "activation.shrinks.Shrink", F.softshrink, [_x(3, 8, kinks=(-0.5, 0.5))]),
    "thresholded_relu": (
        _M + "activation.shrinks.ThresholdedReLU",
        F.thresholded_relu,
        [_x(3, 8, kinks=(1,))],
    ),
    "tanhshrink": (_M + "activation.shrinks.TanhShrink", F.tanhshrink, [_x(3, 8)]),
    "softsign": (_M + "activation.shrinks.Softsign", F.softsign, [_x(3, 8, kinks=(0,))]),
    "sigmoid": (_M + "sigmoid.Sigmoid", F.sigmoid, [_x(3, 8)]),
    "silu": (_M + "sigmoid.SiLU", F.silu, [_x(3, 8)]),
    "hardsigmoid": (
        _M + "sigmoid.HardSigmoid",
        F.hardsigmoid,
        [_x(3, 8, low=-5, high=5, kinks=(-3, 3))],
    ),
    "gelu": (_M + "gelu.GELU", F.gelu, [_x(3, 8)]),
    "gelu_tanh": (_M + "gelu.GELUTanh", lambda x: F.gelu(x, approximate=True), [_x(3, 8)]),
    "softplus": (
        _M + "softplus.Softplus",
        lambda x: F.softplus(x, beta=2, threshold=4),
        [_x(3, 8, kinks=(2,))],
    ),
    "softmax": (_M + "softmax.Softmax", lambda x: F.softmax(x, axis=1), [_x(2, 5, 3)]),
    "log_softmax": (_M + "softmax.LogSoftmax", F.log_softmax, [_x(4, 6)]),
    "cross_entropy": (
        _M + "cross_entropy.SoftmaxCrossEntropy",
        F.cross_entropy,
        [_x(6, 5), _labels(6, 5)],
    ),
    "cross_entropy_weighted_none": (
        _M + "cross_entropy.SoftmaxCrossEntropy",
        lambda x, y: F.cross_entropy(
            x, y, weight=framework.to_tensor(np.arange(1.0, 6.0)), reduction="none"
        ),
        [_x(6, 5), _labels(6, 5)],
    ),
    "cross_entropy_soft": (
        _M + "cross_entropy.SoftmaxCrossEntropy",
        lambda x: F.cross_entropy(x, _SOFT_LABELS, soft_label=True),
        [_x(6, 5)],
    ),
}


def test_it_has_a_row_for_every_double_formula() -> None:
    assert discover_double_formulas() == {function for function, _, _ in CASES.values()}


def _first_order(fn: Callable, arrays: list[np.ndarray], gy: np.ndarray | None, create_graph):
    tensors = [Tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
    targets = [t for t in tensors if not t.stop_gradient]
    out = fn(*tensors)
    seed = None if gy is None else Tensor(gy)
    grads = framework.grad(out, targets, seed, create_graph=create_graph)
    return out, [g.numpy() for g in grads]


@pytest.mark.parametrize("case", sorted(CASES))
def test_it_gives_the_same_gradient_both_ways(case: str) -> None:
    _, fn, arrays = CASES[case]
    probe = fn(*[Tensor(a) for a in arrays])
    gy = np.random.default_rng(1).standard_normal(probe.shape)
    _, on_arrays = _first_order(fn, arrays, gy, create_graph=False)
    _, on_tensors = _first_order(fn, arrays, gy, create_graph=True)
    for a, t in zip(on_arrays, on_tensors, strict=True):
        np.testing.assert_allclose(a, t, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", sorted(CASES))
def test_its_gradient_matches_central_differences(case: str) -> None:
    _, fn, arrays = CASES[case]
    check_backward(fn, arrays)
