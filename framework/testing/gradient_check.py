"""Numerical gradient checks in float64 (complex128 for complex inputs), in the spirit of
`chainer.gradient_check`.

check_backward(lambda x, y: x * y, [x_array, y_array])
check_double_backward(lambda x: x * x * x, [x_array])

Complex inputs are perturbed in their real and imaginary parts, and the expected gradient is
`dL/dRe + 1j * dL/dIm` of the real loss `L = sum(Re(conj(g) * out))`: the conjugate Wirtinger
convention of Paddle and PyTorch (for `out = z`, the gradient is `g`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from framework.core.autograd import grad
from framework.core.tensor import Tensor


def _as_outputs(result) -> list[Tensor]:
    return list(result) if isinstance(result, list | tuple) else [result]


def numerical_grad(
    f: Callable[[], Sequence[np.ndarray]], arrays: Sequence[np.ndarray], eps: float = 1e-6
) -> list[np.ndarray]:
    """Central differences of sum(f() * weights) is the caller's job: f returns one scalar."""
    grads = []
    for array in arrays:
        is_complex = array.dtype.kind == "c"
        g = np.zeros_like(array, dtype=np.complex128 if is_complex else np.float64)
        flat = array.reshape(-1)
        g_flat = g.reshape(-1)
        for i in range(flat.size):
            original = flat[i]
            for step in (1, 1j) if is_complex else (1,):
                flat[i] = original + eps * step
                plus = f()
                flat[i] = original - eps * step
                minus = f()
                flat[i] = original
                g_flat[i] += step * (plus - minus) / (2 * eps)
        grads.append(g)
    return grads


def _float64(array: np.ndarray) -> np.ndarray:
    """Float inputs in float64, complex ones in complex128; others (indices) as they are."""
    if array.dtype.kind == "c":
        return np.array(array, dtype=np.complex128, order="C")
    if array.dtype.kind == "f":
        return np.array(array, dtype=np.float64, order="C")
    return array


def _random_like(rng: np.random.Generator, output: Tensor) -> np.ndarray | None:
    if output.dtype.kind == "c":
        return rng.standard_normal(output.shape) + 1j * rng.standard_normal(output.shape)
    return rng.standard_normal(output.shape) if output.dtype.kind == "f" else None


def _weighted(output: np.ndarray, weight: np.ndarray) -> float:
    """`sum(Re(conj(weight) * output))`: the real loss whose gradient `weight` stands for."""
    return float(np.real(np.conj(weight) * output.astype(np.result_type(output, 1.0))).sum())


def check_backward(
    fn: Callable[..., Tensor | Sequence[Tensor]],
    inputs: Sequence[np.ndarray],
    grad_outputs: Sequence[np.ndarray] | None = None,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-4,
    no_grads: Sequence[bool] | None = None,
    seed: int = 0,
) -> None:
    """Assert that autograd's gradients of `fn` match central differences.

    `inputs` are NumPy arrays; float ones are checked in float64, integer ones (indices) are
    passed through with no gradient. `grad_outputs` default to random arrays, so every output
    element is weighted differently.
    """
    rng = np.random.default_rng(seed)
    arrays = [_float64(a) for a in inputs]
    if no_grads is None:
        no_grads = [a.dtype.kind not in "fc" for a in arrays]
    tensors = [Tensor(a, stop_gradient=ng) for a, ng in zip(arrays, no_grads, strict=True)]
    outputs = _as_outputs(fn(*tensors))
    if grad_outputs is None:
        grad_outputs = [_random_like(rng, o) for o in outputs]
    differentiable = [
        (o, g)
        for o, g in zip(outputs, grad_outputs, strict=True)
        if g is not None and not o.stop_gradient
    ]
    targets = [t for t, ng in zip(tensors, no_grads, strict=True) if not ng]
    if not targets:
        raise ValueError("check_backward needs at least one float input to differentiate")
    if not differentiable:
        analytic = [None] * len(targets)
    else:
        analytic = grad(
            [o for o, _ in differentiable],
            targets,
            [Tensor(np.asarray(g, dtype=o.dtype)) for o, g in differentiable],
            allow_unused=True,
        )

    def weighted_sum() -> float:
        fresh = [Tensor(a, stop_gradient=True) for a in arrays]
        outs = _as_outputs(fn(*fresh))
        return sum(
            _weighted(o.numpy(), g)
            for o, g in zip(outs, grad_outputs, strict=True)
            if g is not None
        )

    target_arrays = [a for a, ng in zip(arrays, no_grads, strict=True) if not ng]
    numeric = numerical_grad(weighted_sum, target_arrays, eps)
    for index, (a, n) in enumerate(zip(analytic, numeric, strict=True)):
        got = np.zeros_like(n) if a is None else a.numpy()
        if got.shape != n.shape:
            raise AssertionError(f"gradient {index} has shape {got.shape}, expected {n.shape}")
        np.testing.assert_allclose(
            got, n, atol=atol, rtol=rtol, err_msg=f"gradient of input {index} is wrong"
        )


def check_double_backward(
    fn: Callable[..., Tensor | Sequence[Tensor]],
    inputs: Sequence[np.ndarray],
    grad_outputs: Sequence[np.ndarray] | None = None,
    eps: float = 1e-6,
    atol: float = 1e-4,
    rtol: float = 1e-3,
    seed: int = 0,
) -> None:
    """Assert that the gradient of the first-order gradient is right (second order).

    Checks `g(x, gy) = d(sum(fn(x) * gy))/dx` with `check_backward` over both x and gy, so the
    backward of every op used inside `fn`'s backward is exercised.
    """
    rng = np.random.default_rng(seed + 1)
    arrays = [_float64(a) for a in inputs]
    probe = _as_outputs(fn(*[Tensor(a) for a in arrays]))
    if grad_outputs is None:
        grad_outputs = [_random_like(rng, o) for o in probe]
    n_inputs = len(arrays)

    def first_order(*tensors: Tensor):
        xs, gys = tensors[:n_inputs], tensors[n_inputs:]
        xs = [x if not x.stop_gradient else x.detach() for x in xs]
        with_grad = [Tensor(x._data, stop_gradient=False) if x.stop_gradient else x for x in xs]
        outs = _as_outputs(fn(*with_grad))
        grads = grad(outs, with_grad, list(gys), create_graph=True, allow_unused=True)
        # An input the first-order gradient does not depend on has a constant zero gradient.
        return [
            g if g is not None else Tensor(np.zeros(x.shape, dtype=x.dtype))
            for g, x in zip(grads, xs, strict=True)
        ]

    check_backward(
        first_order,
        arrays + [_float64(np.asarray(g)) for g in grad_outputs],
        eps=eps,
        atol=atol,
        rtol=rtol,
        seed=seed + 2,
    )
