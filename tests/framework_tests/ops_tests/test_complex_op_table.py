"""Which ops take complex tensors, checked op by op against real Paddle (issue 24).

For every op in the table, Paddle 3.3 and the framework run on the same complex64 inputs:
either both refuse (the framework with a clear error naming complex), or both compute, with
the same result dtype and values. Two short lists say where the framework knowingly differs:

- SUPERSET: Paddle's CPU build has no complex kernel registered, but the op is a linear map or
  data movement whose complex result is unambiguous (split, bmm, conv2d, ...). These are
  checked against a reference built from Paddle ops that do take complex numbers.
- REFUSED: Paddle returns a number that is not the op's meaning on complex input; the
  framework refuses instead.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import framework
from framework.core.dtype import ComplexNotSupportedError

X = np.array([[1 + 2j, -0.5 + 0.25j, 0.3 - 0.7j], [2 - 1j, -1.5 - 2j, 0.1 + 0.9j]], np.complex64)
# Ties with X in the real part at [0, 0] and [1, 1]: comparisons are lexicographic in both.
Y = np.array([[1 + 1j, 1 + 1j, -2 + 0.5j], [0.3 + 0.2j, -1.5 - 0.5j, -0.4 - 0.1j]], np.complex64)
MASK = [[True, False, True], [False, True, False]]


def _unary(m) -> dict[str, Callable]:
    f = m.nn.functional
    return {
        **{
            name: getattr(m, name)
            for name in (
                "exp log sqrt abs sin cos tan tanh sinh cosh asin acos atan asinh "
                "acosh atanh square reciprocal neg log1p expm1 log2 log10 sign sgn floor ceil "
                "round trunc frac erf erfinv lgamma digamma i0 isnan isinf isfinite isreal "
                "sum mean prod nansum nanmean std var nanmedian logsumexp max min amax "
                "amin argmax argmin sort argsort unique unique_consecutive flatten "
                "count_nonzero any all logical_not nonzero rad2deg deg2rad stanh sinc signbit "
                "isposinf histogram logit"
            ).split()
        },
        **{
            name: getattr(f, name)
            for name in (
                "sigmoid relu relu6 gelu silu softmax log_softmax leaky_relu elu selu "
                "celu hardtanh hardsigmoid hardswish hardshrink softshrink thresholded_relu "
                "tanhshrink softplus softsign mish log_sigmoid"
            ).split()
        },
        "clip": lambda t: m.clip(t, -1, 1),
        "clip_min": lambda t: m.clip(t, min=0.0),
        "pow": lambda t: m.pow(t, 2.0),
        "pow_half": lambda t: m.pow(t, 0.5),
        "scale": lambda t: m.scale(t, 2.0, 1.0),
        "cumsum": lambda t: m.cumsum(t, axis=1),
        "cumprod": lambda t: m.cumprod(t, dim=1),
        "cummax": lambda t: m.cummax(t, axis=1)[0],
        "cummin": lambda t: m.cummin(t, axis=1)[0],
        "logcumsumexp": lambda t: m.logcumsumexp(t, axis=1),
        "topk": lambda t: m.topk(t, 2)[0],
        "kthvalue": lambda t: m.kthvalue(t, 2)[0],
        "mode": lambda t: m.mode(t)[0],
        "quantile": lambda t: m.quantile(t, 0.5),
        "sum_axis": lambda t: m.sum(t, axis=0),
        "mean_axis": lambda t: m.mean(t, axis=1),
        "prod_axis": lambda t: m.prod(t, axis=1),
        "diff": m.diff,
        "trace": lambda t: m.trace(t[:, :2]),
        "tril": m.tril,
        "triu": m.triu,
        "transpose": lambda t: m.transpose(t, [1, 0]),
        "reshape": lambda t: m.reshape(t, [3, 2]),
        "flip": lambda t: m.flip(t, [0]),
        "roll": lambda t: m.roll(t, 1),
        "rot90": m.rot90,
        "tile": lambda t: m.tile(t, [2, 1]),
        "expand": lambda t: m.expand(t[0:1], [3, 3]),
        "squeeze": lambda t: m.squeeze(t[0:1]),
        "unsqueeze": lambda t: m.unsqueeze(t, 0),
        "unbind": lambda t: m.unbind(t, axis=1)[1],
        "gather": lambda t: m.gather(t, m.to_tensor([1, 0])),
        "gather_nd": lambda t: m.gather_nd(t, m.to_tensor([[1, 2]])),
        "index_select": lambda t: m.index_select(t, m.to_tensor([2, 0]), axis=1),
        "masked_select": lambda t: m.masked_select(t, m.to_tensor(MASK)),
        "masked_fill": lambda t: m.masked_fill(t, m.to_tensor(MASK), 0.0),
        "diagonal": m.diagonal,
        "pad": lambda t: f.pad(t, [1, 1], value=0.0),
        "layer_norm": lambda t: f.layer_norm(t, [3]),
        "max_pool2d": lambda t: f.max_pool2d(m.reshape(m.concat([t, t]), [1, 1, 4, 3]), 2),
        "cast_float32": lambda t: m.cast(t, "float32"),
        "cast_int32": lambda t: m.cast(t, "int32"),
        "cast_complex128": lambda t: m.cast(t, "complex128"),
        "matmul_self": lambda t: t @ t.T,
        "rpow": lambda t: 2.0**t,
        "rsub": lambda t: 1 - t,
        "scalar_ops": lambda t: (t * 2.0 + 1) / 4,
        "dropout_train_p0": lambda t: f.dropout(t, p=0.0),
    }


def _binary(m) -> dict[str, Callable]:
    f = m.nn.functional
    return {
        **{
            name: getattr(m, name)
            for name in (
                "add subtract multiply divide pow maximum minimum fmax fmin greater_than "
                "less_than less_equal greater_equal equal not_equal floor_divide atan2 "
                "heaviside isclose allclose logical_and logical_or bitwise_and logaddexp "
                "hypot kron inner"
            ).split()
        },
        "outer": lambda a, b: m.outer(a[0], b[0]),
        "dot": lambda a, b: m.dot(a[0], b[0]),
        "matmul": lambda a, b: m.matmul(a, b.T),
        "einsum": lambda a, b: m.einsum("ij,kj->ik", a, b),
        "tensordot": lambda a, b: m.tensordot(a, b, axes=[[1], [1]]),
        "cross": lambda a, b: m.cross(a, b, axis=1),
        "linear": lambda a, b: f.linear(a, b.T),
        "concat": lambda a, b: m.concat([a, b]),
        "stack": lambda a, b: m.stack([a, b]),
        "where": lambda a, b: m.where(m.to_tensor(MASK), a, b),
        "lerp": lambda a, b: m.lerp(a, b, 0.3),
        "mse_loss": f.mse_loss,
        "l1_loss": f.l1_loss,
        "cosine_similarity": f.cosine_similarity,
        "gt_operator": lambda a, b: a > b,
        "le_operator": lambda a, b: a <= b,
        "eq_operator": lambda a, b: a == b,
        "searchsorted": lambda a, b: m.searchsorted(a[0], b[0]),
    }


# name -> how to get the same complex result from Paddle ops that take complex numbers.
SUPERSET: dict[str, Callable] = {
    "split": lambda p, a, b: p.slice(a, [1], [1], [2]),
    "chunk": lambda p, a, b: p.slice(a, [1], [1], [2]),
    "take_along_axis": lambda p, a, b: p.to_tensor(np.take_along_axis(X, np.array([[0], [2]]), 1)),
    "scatter": lambda p, a, b: p.concat([a[0:1], b[0:1]]),
    "repeat_interleave": lambda p, a, b: p.reshape(p.tile(a, [1, 2]), [4, 3]),
    "bmm": lambda p, a, b: p.matmul(a, b.T)[None],
    "mv": lambda p, a, b: p.matmul(a, b[0]),
    "addmm": lambda p, a, b: a[:, :2] + p.matmul(a, b.T),
    "dropout_eval": lambda p, a, b: a,
    "glu": lambda p, a, b: a * p.nn.functional.sigmoid(b),
    "swish": lambda p, a, b: p.nn.functional.silu(a),
    "normalize": lambda p, a, b: a / p.linalg.norm(a, p=2, axis=1, keepdim=True),
    "rsqrt": lambda p, a, b: 1 / p.sqrt(a),
    "avg_pool2d": lambda p, a, b: p.complex(
        *(
            p.nn.functional.avg_pool2d(p.reshape(part(p.concat([a, b])), [1, 1, 4, 3]), 2)
            for part in (p.real, p.imag)
        )
    ),
    "conv2d": lambda p, a, b: _complex_conv2d(p, a, b),
}


def _superset_ops(m) -> dict[str, Callable]:
    f = m.nn.functional
    return {
        "split": lambda a, b: m.split(a, 3, axis=1)[1],
        "chunk": lambda a, b: m.chunk(a, 3, axis=1)[1],
        "take_along_axis": lambda a, b: m.take_along_axis(a, m.to_tensor([[0], [2]]), 1),
        "scatter": lambda a, b: m.scatter(a, m.to_tensor([1]), b[0:1]),
        "repeat_interleave": lambda a, b: m.repeat_interleave(a, 2, axis=0),
        "bmm": lambda a, b: m.bmm(a[None], b.T[None]),
        "mv": lambda a, b: m.mv(a, b[0]),
        "addmm": lambda a, b: m.addmm(a[:, :2], a, b.T),
        "dropout_eval": lambda a, b: f.dropout(a, training=False),
        "glu": lambda a, b: f.glu(m.concat([a, b], axis=1), axis=1),
        "swish": lambda a, b: f.swish(a),
        "normalize": lambda a, b: f.normalize(a),
        "rsqrt": lambda a, b: m.rsqrt(a),
        "avg_pool2d": lambda a, b: f.avg_pool2d(m.reshape(m.concat([a, b]), [1, 1, 4, 3]), 2),
        "conv2d": lambda a, b: f.conv2d(
            m.reshape(m.concat([a, b]), [1, 1, 4, 3]), m.reshape(a, [2, 1, 1, 3])
        ),
    }


def _complex_conv2d(p, a, b):
    """conv(x, w) of complex x and w from four real convolutions."""
    x = p.reshape(p.concat([a, b]), [1, 1, 4, 3])
    w = p.reshape(a, [2, 1, 1, 3])
    conv = p.nn.functional.conv2d
    xr, xi, wr, wi = p.real(x), p.imag(x), p.real(w), p.imag(w)
    return p.complex(conv(xr, wr) - conv(xi, wi), conv(xr, wi) + conv(xi, wr))


# name -> why the framework refuses what Paddle 3.3 computes.
REFUSED: dict[str, str] = {
    "remainder": "(5+0j) % (2+0j) gives -1 in Paddle",
    "median": "Paddle returns a float32 median of the real parts only",
}
REFUSED_OPS = {
    "remainder": lambda m, a, b: m.remainder(a, b),
    "median": lambda m, a, b: m.median(a),
}


def _run(op: Callable, *arrays):
    """('ok', dtype name, values) or ('refused', exception)."""
    try:
        out = op(*arrays)
    except Exception as error:  # noqa: BLE001 - the table records what each library raises
        return "refused", error
    values = out.numpy() if hasattr(out, "numpy") else np.asarray(out)
    return "ok", str(out.dtype).removeprefix("paddle."), np.asarray(values)


def _compare(name: str, ours: tuple, theirs: tuple) -> None:
    if theirs[0] == "refused":
        assert ours[0] == "refused", f"{name}: Paddle refuses complex ({theirs[1]!r}), we do not"
        error = ours[1]
        assert isinstance(error, TypeError), f"{name}: unclear error {error!r}"
        assert "complex" in str(error), f"{name}: the error does not say complex: {error}"
        return
    assert ours[0] == "ok", f"{name}: Paddle computes it, we raise {ours[1]!r}"
    assert ours[1] == theirs[1], f"{name}: dtype {ours[1]}, Paddle's {theirs[1]}"
    np.testing.assert_allclose(ours[2], theirs[2], rtol=2e-5, atol=2e-6, err_msg=name)


UNARY_NAMES = sorted(_unary(framework))
BINARY_NAMES = sorted(_binary(framework))


@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


@pytest.mark.parametrize("name", UNARY_NAMES)
def test_unary_op_takes_complex_exactly_when_paddle_does(paddle, name):
    ours = _run(_unary(framework)[name], framework.to_tensor(X))
    theirs = _run(_unary(paddle)[name], paddle.to_tensor(X))
    _compare(name, ours, theirs)


@pytest.mark.parametrize("name", BINARY_NAMES)
def test_binary_op_takes_complex_exactly_when_paddle_does(paddle, name):
    ours = _run(_binary(framework)[name], framework.to_tensor(X), framework.to_tensor(Y))
    theirs = _run(_binary(paddle)[name], paddle.to_tensor(X), paddle.to_tensor(Y))
    _compare(name, ours, theirs)


@pytest.mark.parametrize("name", sorted(SUPERSET))
def test_superset_ops_compute_what_paddle_computes_by_other_means(paddle, name):
    a, b = paddle.to_tensor(X), paddle.to_tensor(Y)
    assert _run(_superset_ops(paddle)[name], a, b)[0] == "refused", f"{name}: Paddle takes it"
    ours = _run(_superset_ops(framework)[name], framework.to_tensor(X), framework.to_tensor(Y))
    reference = _run(lambda: SUPERSET[name](paddle, a, b))
    assert reference[0] == "ok", reference
    _compare(name, ours, reference)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_ops_whose_paddle_complex_result_is_wrong_are_refused(paddle, name):
    op = REFUSED_OPS[name]
    assert _run(lambda: op(paddle, paddle.to_tensor(X), paddle.to_tensor(Y)))[0] == "ok"
    with pytest.raises(ComplexNotSupportedError, match="complex64"):
        op(framework, framework.to_tensor(X), framework.to_tensor(Y))


def test_the_refusal_is_a_runtime_error_as_paddles_and_names_op_and_dtype():
    z = framework.to_tensor(X.astype(np.complex128))
    with pytest.raises(RuntimeError, match=r"ReLU does not support complex128 input"):
        framework.nn.functional.relu(z)
    with pytest.raises(TypeError, match=r"^argmax does not support complex128"):
        framework.argmax(z)
    # Nothing was recorded or changed: the input is intact and usable.
    np.testing.assert_array_equal(z.numpy(), X.astype(np.complex128))
    assert framework.abs(z).dtype == framework.float64


def test_real_inputs_of_real_only_ops_are_untouched():
    x = framework.to_tensor([-1.0, 2.0], stop_gradient=False)
    framework.nn.functional.relu(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0])
