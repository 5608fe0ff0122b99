"""`onednn` (`library`, `primitives`, `training`): convolutions through oneDNN's library
against our kernels, its fallbacks, and the predictor's single-sample runs on it."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

from framework.backends.cpu import routing
from framework.backends.cpu.onednn import library, primitives, training
from framework.core.conv_geometry import ConvGeometry
from framework.ops.nn.conv_kernels import conv_forward

needs_onednn = pytest.mark.skipif(not library.available(), reason="oneDNN is not installed")


def _channel_last(array):
    return np.ascontiguousarray(array.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)


def _case(x_shape, weight_shape, stride=1, padding=1, dilation=1, bias=True, seed=0):
    rng = np.random.default_rng(seed)
    x = _channel_last(rng.standard_normal(x_shape).astype(np.float32))
    weight = (rng.standard_normal(weight_shape) * 0.1).astype(np.float32)
    b = rng.standard_normal(weight_shape[0]).astype(np.float32) if bias else None
    pads = ((padding, padding), (padding, padding)) if isinstance(padding, int) else padding
    geom = ConvGeometry.for_input(
        x_shape[2:], weight_shape[2:], (stride, stride), pads, (dilation, dilation), 1
    )
    return x, weight, b, geom


def _out(x, weight, geom):
    return np.full((x.shape[0], *geom.out_size, weight.shape[0]), np.nan, np.float32)


CASES = {
    "3x3": ((2, 16, 12, 12), (24, 16, 3, 3), {}),
    "3x3_stride2": ((3, 8, 11, 11), (16, 8, 3, 3), {"stride": 2}),
    "1x1_no_bias": ((2, 32, 7, 7), (8, 32, 1, 1), {"padding": 0, "bias": False}),
    "5x5_dilated_uneven_padding": (
        (1, 6, 13, 9),
        (4, 6, 5, 5),
        {"padding": ((3, 1), (0, 4)), "dilation": 2},
    ),
    "7x7_stride2_stem_channel_last": ((1, 3, 32, 32), (16, 3, 7, 7), {"stride": 2, "padding": 3}),
}


@needs_onednn
@pytest.mark.parametrize("name", list(CASES))
def test_convolution_equals_ours(name):
    x_shape, weight_shape, options = CASES[name]
    x, weight, bias, geom = _case(x_shape, weight_shape, **options)
    out = _out(x, weight, geom)
    cache = {}
    with library.cores(2):
        assert primitives.supports(x, weight, geom)
        assert primitives.conv2d(x, weight, bias, geom, out, cache)
        out_again = _out(x, weight, geom)
        assert primitives.conv2d(x, weight, bias, geom, out_again, cache)  # the cached primitive
    expected = conv_forward(x, weight, bias, geom)
    got = out.transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5 * np.abs(expected).max())
    np.testing.assert_array_equal(out_again, out)
    assert len(cache) == 1 and not cache[(x.shape, x.strides)].implementation.startswith("ref")


@needs_onednn
@pytest.mark.parametrize(
    "groups, activation",
    [(1, {"type": "relu"}), (32, {"type": "clip", "min": 0.0, "max": 6.0}), (4, None)],
    ids=["relu", "depthwise_relu6", "grouped"],
)
def test_grouped_convolutions_and_fused_activations_equal_ours(groups, activation):
    rng = np.random.default_rng(3)
    x = _channel_last(rng.standard_normal((2, 32, 9, 9)).astype(np.float32) * 3)
    weight = rng.standard_normal((32, 32 // groups, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(32).astype(np.float32)
    geom = ConvGeometry.for_input((9, 9), (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), groups)
    expected = conv_forward(x, weight, bias, geom)
    if activation is not None:
        expected = np.clip(expected, activation.get("min", 0.0), activation.get("max", np.inf))
    out = _out(x, weight, geom)
    with library.cores(2):
        post_op = primitives.activation_post_op(activation)
        assert (post_op is None) == (activation is None)
        assert primitives.conv2d(x, weight, bias, geom, out, {}, post_op)
    got = out.transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5 * np.abs(expected).max())


def test_only_relu_and_bounded_clips_are_fused_into_onednn():
    assert primitives.activation_post_op({"type": "hardswish"}) is None
    assert primitives.activation_post_op({"type": "clip", "min": 0.0, "max": None}) is None
    assert primitives.activation_post_op(None) is None


@needs_onednn
def test_an_nchw_input_is_copied_to_channel_last_memory_first():
    """oneDNN has only its reference loops for an NCHW input with a channel-last output."""
    x, weight, bias, geom = _case((1, 3, 16, 16), (8, 3, 3, 3))
    x = np.ascontiguousarray(x)  # NCHW memory
    out = _out(x, weight, geom)
    cache = {}
    with library.cores(1):
        assert primitives.conv2d(x, weight, bias, geom, out, cache)
    (key,) = cache
    assert key[1] == _channel_last(x).strides
    assert not cache[key].implementation.startswith("ref")
    expected = conv_forward(x, weight, bias, geom)
    np.testing.assert_allclose(out.transpose(0, 3, 1, 2), expected, rtol=1e-4, atol=1e-5)


@needs_onednn
def test_a_convolution_without_a_fast_kernel_is_left_to_our_kernels(monkeypatch):
    def reference_only(*args):
        raise library.NoKernel("oneDNN has only its reference kernel for this convolution")

    monkeypatch.setattr(primitives, "Conv2d", reference_only)
    x, weight, bias, geom = _case((1, 8, 6, 6), (8, 8, 3, 3))
    out = _out(x, weight, geom)
    cache = {}
    with library.cores(1):
        assert not primitives.conv2d(x, weight, bias, geom, out, cache)
        assert not primitives.conv2d(x, weight, bias, geom, out, cache)
    assert np.isnan(out).all()  # nothing written
    assert cache == {(x.shape, x.strides): None}  # and not tried again


@needs_onednn
def test_used_only_inside_cores_and_for_what_it_takes():
    x, weight, _, geom = _case((1, 8, 6, 6), (8, 8, 3, 3))
    assert library.given() == 0 and not primitives.supports(x, weight, geom)
    with library.cores(2):
        assert library.given() == 2 and primitives.supports(x, weight, geom)
        assert not primitives.supports(x.astype(np.float64), weight.astype(np.float64), geom)
        assert not primitives.supports(x[0], weight, geom)  # not a 2-D convolution's input
        with library.cores(1):
            assert library.given() == 1
        assert library.given() == 2
    assert library.given() == 0


@needs_onednn
def test_the_openmp_team_stays_within_omp_num_threads(monkeypatch):
    sizes = []
    monkeypatch.setattr(library._library.openmp, "omp_set_num_threads", sizes.append)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    with library.cores(2):
        pass
    monkeypatch.setenv("OMP_NUM_THREADS", "4,2")
    with library.cores(2):
        pass
    monkeypatch.delenv("OMP_NUM_THREADS")
    with library.cores(3):
        pass
    assert sizes == [1, 2, 3]


@needs_onednn
def test_inputs_and_outputs_other_than_agreed_are_refused():
    x, weight, bias, geom = _case((1, 8, 6, 6), (4, 8, 3, 3))
    with library.cores(1):
        conv = primitives.Conv2d(x.shape, [s // 4 for s in x.strides], weight, bias, geom)
        with pytest.raises(ValueError, match="not the one this was made for"):
            conv(np.ascontiguousarray(x), _out(x, weight, geom))
        with pytest.raises(ValueError, match="C-contiguous float32"):
            conv(x, _out(x, weight, geom).transpose(0, 3, 1, 2))


@needs_onednn
def test_oneDNN_objects_are_freed_with_their_convolution():  # noqa: N802
    x, weight, bias, geom = _case((1, 8, 6, 6), (4, 8, 3, 3))
    finalizers = []
    with library.cores(1):
        for _ in range(20):
            conv = primitives.Conv2d(x.shape, [s // 4 for s in x.strides], weight, bias, geom)
            finalizers.append(conv._owned.finalizer)
            del conv
    gc.collect()
    assert not any(f.alive for f in finalizers)


@needs_onednn
def test_threads_run_their_own_convolutions_at_once():
    x, weight, bias, geom = _case((2, 16, 10, 10), (16, 16, 3, 3))
    expected = conv_forward(x, weight, bias, geom).transpose(0, 2, 3, 1)
    results, errors = {}, []

    def work(index: int) -> None:
        try:
            out, cache = _out(x, weight, geom), {}
            with library.cores(1):
                for _ in range(20):
                    primitives.conv2d(x, weight, bias, geom, out, cache)
            results[index] = out
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not errors
    for out in results.values():
        np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5 * np.abs(expected).max())


@needs_onednn
def test_a_child_forked_after_onednn_ran_keeps_to_our_kernels():
    """GNU OpenMP cannot run parallel regions in a child forked after the parent ran one."""
    import os

    x, weight, bias, geom = _case((1, 8, 6, 6), (8, 8, 3, 3))
    with library.cores(2):
        assert primitives.conv2d(x, weight, bias, geom, _out(x, weight, geom), {})
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.write(write, b"1" if library.available() else b"0")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(child, 0)
    os.close(read)
    assert answer == b"0" and library.available()


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv("SAMPAN_ONEDNN", "0")
    monkeypatch.setattr(library, "_loaded", False)
    monkeypatch.setattr(library, "_library", None)
    assert not library.available()
    with library.cores(2):
        assert library.given() == 0
    x, weight, _, geom = _case((1, 8, 6, 6), (8, 8, 3, 3))
    with library.cores(2):
        assert not primitives.supports(x, weight, geom)


def _batch_norm_calls(monkeypatch) -> list[str]:
    """Records each forward and backward run by oneDNN's batch norm."""
    calls: list[str] = []
    for name in ("forward", "backward"):
        real = getattr(primitives.BatchNorm, name)
        monkeypatch.setattr(
            primitives.BatchNorm,
            name,
            lambda self, *a, _real=real, _name=name: calls.append(_name) or _real(self, *a),
        )
    return calls


def _torch_batch_norm(torch, x, gamma, beta, gy, eps):
    """PyTorch's training-mode batch norm: (y, gx, ggamma, gbeta)."""
    tx = torch.tensor(np.ascontiguousarray(x), requires_grad=True)
    tg = None if gamma is None else torch.tensor(gamma, requires_grad=True)
    tb = None if beta is None else torch.tensor(beta, requires_grad=True)
    y = torch.nn.functional.batch_norm(tx, None, None, tg, tb, training=True, eps=eps)
    y.backward(torch.tensor(np.ascontiguousarray(gy)))
    grads = [None if t is None else t.grad.numpy() for t in (tx, tg, tb)]
    return y.detach().numpy(), *grads


@needs_onednn
@pytest.mark.parametrize(
    "shape, affine",
    [((8, 24, 6, 6), (True, True)), ((4, 40, 3, 5), (False, True)), ((64, 33), (True, False))],
)
def test_channel_last_batch_norm_runs_on_onednn_and_matches_torch(shape, affine, monkeypatch):
    """Training-mode forward, input and parameter gradients and running statistics of
    channel-last (and `[N, C]`) float32 batch norm, on oneDNN, against PyTorch."""
    torch = pytest.importorskip("torch")
    import framework
    import framework.nn.functional as F

    calls = _batch_norm_calls(monkeypatch)
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(shape) * 2 + 3).astype(np.float32)
    gy = rng.standard_normal(shape).astype(np.float32)
    c = shape[1]
    gamma = rng.standard_normal(c).astype(np.float32) if affine[0] else None
    beta = rng.standard_normal(c).astype(np.float32) if affine[1] else None
    data = _channel_last(x) if x.ndim == 4 else x

    def run():
        xt = framework.Tensor(data, stop_gradient=False)
        params = [
            None if p is None else framework.Tensor(p, stop_gradient=False) for p in (gamma, beta)
        ]
        mean = framework.to_tensor(np.zeros(c, np.float32))
        var = framework.to_tensor(np.ones(c, np.float32))
        y = F.batch_norm(xt, mean, var, *params, training=True, epsilon=1e-3)
        inputs = [xt] + [p for p in params if p is not None]
        grads = framework.grad(y, inputs, framework.to_tensor(gy))
        return y.numpy(), [g.numpy() for g in grads], mean.numpy(), var.numpy()

    y, grads, running_mean, running_var = run()
    assert calls == ["forward", "backward"]
    want = _torch_batch_norm(torch, x, gamma, beta, gy, 1e-3)
    want_grads = [want[1]] + [g for g in want[2:4] if g is not None]
    np.testing.assert_allclose(y, want[0], rtol=1e-4, atol=1e-4)
    for got, expected in zip(grads, want_grads, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-4)
    # Running statistics follow Paddle's update, as on the NumPy route.
    monkeypatch.setattr(training, "batch_norm_primitive", lambda x, eps: None)
    *_, numpy_mean, numpy_var = run()
    assert calls == ["forward", "backward"]
    np.testing.assert_allclose(running_mean, numpy_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(running_var, numpy_var, rtol=1e-5, atol=1e-6)


@needs_onednn
@pytest.mark.parametrize("case", ["float64", "channel_first", "eval_mode"])
def test_batch_norm_onednn_does_not_take_is_left_to_numpy(case, monkeypatch):
    """float64, channel-first memory (oneDNN's kernel there is no faster than ours) and fixed
    statistics stay on the NumPy passes, which give the same result as oneDNN's."""
    import framework
    import framework.nn.functional as F

    calls = _batch_norm_calls(monkeypatch)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 6, 5, 5)).astype(np.float32)
    data = {"float64": _channel_last(x).astype(np.float64), "channel_first": x}.get(
        case, _channel_last(x)
    )
    results = []
    for array in (data, _channel_last(x)):
        xt = framework.Tensor(array, stop_gradient=False)
        mean = framework.to_tensor(np.zeros(6, array.dtype))
        var = framework.to_tensor(np.ones(6, array.dtype))
        y = F.batch_norm(xt, mean, var, training=case != "eval_mode")
        (gx,) = framework.grad(y, [xt], framework.to_tensor(x * 0.5))
        results.append((y.numpy(), gx.numpy()))
    # the second run (channel-last float32) is oneDNN's unless statistics are fixed
    assert calls == ([] if case == "eval_mode" else ["forward", "backward"])
    for ours, theirs in zip(*results, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


@needs_onednn
@pytest.mark.parametrize("paddle_first", [True, False])
def test_paddle_and_onednn_share_a_process_when_paddle_loads_first(paddle_first):
    """PaddlePaddle ships a newer `libdnnl.so.3`. Imported first, it keeps its own and ours
    loads beside it; imported after ours, it binds to ours and fails, as documented."""
    pytest.importorskip("paddle")
    import subprocess
    import sys

    ours = (
        "from framework.backends.cpu.onednn import library, training; "
        "assert library.available(); "
        "import numpy as np; x = np.ones((4, 3), np.float32); "
        "assert training.batch_norm_forward(x, x[0], x[0], 1e-5) is not None; "
    )
    theirs = "import paddle; print(float(paddle.to_tensor([1.0, 2.0]).sum())); "
    script = theirs + ours if paddle_first else ours + theirs
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    if paddle_first:
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip() == "3.0"
    else:
        assert done.returncode != 0 and "undefined symbol: dnnl_" in done.stderr


# --- training's convolutions: forward, input and weight gradients with this step's weight -------
def _numpy_route(monkeypatch, function, *args):
    """`function(*args)` with oneDNN switched off: the route the policy picks next."""
    with monkeypatch.context() as patch:
        patch.setattr(library, "available", lambda: False)
        return function(*args)


TRAINING_CASES = {
    "3x3": ((4, 16, 10, 10), (24, 16, 3, 3), {}),
    "3x3_stride2_odd": ((3, 8, 11, 11), (16, 8, 3, 3), {"stride": 2}),
    "1x1_stride2": ((2, 32, 8, 8), (16, 32, 1, 1), {"stride": 2, "padding": 0}),
    "5x5_dilated_uneven_padding": (
        (2, 6, 13, 9),
        (4, 6, 5, 5),
        {"padding": ((3, 1), (0, 4)), "dilation": 2},
    ),
    "stem_3_channels": ((2, 3, 16, 16), (8, 3, 3, 3), {}),
}


@needs_onednn
@pytest.mark.parametrize("name", list(TRAINING_CASES) + ["grouped", "depthwise"])
def test_training_passes_equal_our_numpy_kernels(name, monkeypatch):
    """Forward, input gradient and weight gradient: the policy picks oneDNN for these float32
    arrays, and its results equal our kernels' with the weight and bias changing between calls
    (the primitives stay, the parameters do not)."""
    from framework.backends.cpu.routing import ConvCase, ConvRoute, ConvStep
    from framework.ops.nn.conv_kernels import conv_input_grad, conv_weight_grad

    if name in ("grouped", "depthwise"):
        groups = 4 if name == "grouped" else 16
        x_shape, weight_shape = (3, 16, 9, 9), (16, 16 // groups, 3, 3)
        x, weight, bias, _ = _case(x_shape, weight_shape)
        geom = ConvGeometry.for_input(
            x_shape[2:], weight_shape[2:], (1, 1), ((1, 1), (1, 1)), (1, 1), groups
        )
    else:
        x_shape, weight_shape, options = TRAINING_CASES[name]
        x, weight, bias, geom = _case(x_shape, weight_shape, **options)
    case = ConvCase(x_shape, weight_shape, geom, np.dtype(np.float32), contiguous=False)
    for step in ConvStep:
        assert routing.conv_route(case, step, routing.live()) is ConvRoute.ONEDNN
    rng = np.random.default_rng(3)
    gy = _channel_last(rng.standard_normal((x_shape[0], weight_shape[0], *geom.out_size)))
    gy = gy.astype(np.float32)
    for step in range(2):
        weight = weight * np.float32(0.9) + np.float32(0.01 * step)
        bias = bias + np.float32(step)
        results = [
            (conv_forward, (x, weight, bias, geom)),
            (conv_input_grad, (gy, weight, geom)),
            (conv_weight_grad, (x, gy, geom, weight_shape)),
        ]
        for function, args in results:
            got = function(*args, route=ConvRoute.ONEDNN)
            expected = _numpy_route(monkeypatch, function, *args)
            assert got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=1e-4, atol=2e-5 * np.abs(expected).max())
    # results are NCHW-shaped views of channel-last memory, as our kernels give
    assert conv_forward(x, weight, bias, geom).transpose(0, 2, 3, 1).flags.c_contiguous


@needs_onednn
def test_training_layer_matches_torch_with_nchw_inputs_and_gradients():
    """`F.conv2d` forward and gradients on oneDNN, fed plain NCHW memory (copied to channel-last
    on the way in), against PyTorch."""
    torch = pytest.importorskip("torch")
    import framework
    import framework.nn.functional as F

    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 8, 12, 12)).astype(np.float32)
    w = (rng.standard_normal((16, 4, 3, 3)) * 0.2).astype(np.float32)
    b = rng.standard_normal(16).astype(np.float32)
    xs = [framework.Tensor(a.copy(), stop_gradient=False) for a in (x, w, b)]
    y = F.conv2d(*xs, stride=2, padding=1, groups=2)
    gy = rng.standard_normal(y.shape).astype(np.float32)
    grads = framework.grad(y, xs, framework.to_tensor(gy))
    ts = [torch.tensor(a, requires_grad=True) for a in (x, w, b)]
    ty = torch.nn.functional.conv2d(*ts, stride=2, padding=1, groups=2)
    ty.backward(torch.tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-5)
    for got, t in zip(grads, ts, strict=True):
        np.testing.assert_allclose(got.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-4)


@needs_onednn
def test_training_convolutions_refuse_float64_and_keep_few_primitives(monkeypatch):
    """The policy leaves float64 to our kernels (`test_cpu_routes`); called anyway, oneDNN's
    entry point refuses it rather than reading the wrong memory."""
    x, weight, bias, geom = _case((2, 8, 6, 6), (8, 8, 3, 3))
    with pytest.raises(ValueError, match="float32"):
        training.conv_forward(x.astype(np.float64), weight.astype(np.float64), None, geom)
    with pytest.raises(ValueError, match="float32"):
        training.conv_forward(x, weight, bias.astype(np.float64), geom)
    monkeypatch.setattr(training, "_convs", training.Recent(3))
    for size in range(4, 10):
        xs, ws, bs, gs = _case((1, 8, size, size), (8, 8, 3, 3))
        assert training.conv_forward(xs, ws, bs, gs) is not None
    assert len(training._convs) == 3  # the least recently used went


@needs_onednn
def test_a_training_pass_without_a_fast_kernel_is_left_to_our_kernels(monkeypatch):
    """Passes are checked in order forward, input gradient, weight gradient; here the last has
    only oneDNN's reference loop, so our kernel computes it while the others stay on oneDNN."""
    from framework.ops.nn.conv_kernels import conv_weight_grad

    x, weight, bias, geom = _case((2, 8, 6, 6), (8, 8, 3, 3))
    monkeypatch.setattr(training, "_convs", training.Recent(8))
    real, checked = primitives.implementation, []

    def weight_grad_has_no_fast_kernel(loaded, pd, what):
        checked.append(what)
        if len(checked) == 3:
            raise library.NoKernel("only the reference loop")
        return real(loaded, pd, what)

    monkeypatch.setattr(primitives, "implementation", weight_grad_has_no_fast_kernel)
    gy = _channel_last(np.random.default_rng(5).standard_normal((2, 8, 6, 6)).astype(np.float32))
    assert training.conv_forward(x, weight, bias, geom) is not None
    assert training.conv_input_grad(gy, weight, geom) is not None
    assert training.conv_weight_grad(x, gy, geom, weight.shape) is None
    np.testing.assert_allclose(
        conv_weight_grad(x, gy, geom, weight.shape),
        _numpy_route(monkeypatch, conv_weight_grad, x, gy, geom, weight.shape),
        rtol=1e-6,
    )
    assert checked == ["convolution"] * 3  # made once, for all three passes


def test_refused_objects_are_remembered_and_old_ones_go():
    """A shape oneDNN refuses is asked for once (None afterwards: our kernels run); beyond its
    size the least recently used object goes."""
    recent, made = training.Recent(2), []

    def refuse():
        made.append("refused")
        raise library.OneDNNError("dnnl_convolution_forward_primitive_desc_create failed")

    assert recent.get(("a",), refuse) is None
    assert recent.get(("a",), refuse) is None
    assert made == ["refused"]
    assert recent.get(("b",), lambda: "b") == "b"
    recent.get(("a",), refuse)  # "a" is now the most recently used
    assert recent.get(("c",), lambda: "c") == "c"
    assert len(recent) == 2
    assert recent.get(("b",), lambda: "made again") == "made again"
