"""Which CPU kernel runs, recorded over a grid of shapes, dtypes and switches.

This is a characterization test: every row is what the kernels chose before the routing policy
(`framework.backends.cpu.routing`) was written, observed by wrapping the kernel entry points.
Each test checks both that the policy function gives the recorded route for the row and that
the kernel observed running is that route's: the same shapes and flags run the same kernels.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from framework.backends.cpu import blas_threads, gemm, routing, threads
from framework.backends.cpu.onednn import library, primitives
from framework.backends.cpu.onednn import training as onednn
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels import KernelContext, builder_for, conv_gemm, winograd
from framework.inference.kernels import conv as conv_kernel_module
from framework.inference.kernels import depthwise as infer_depthwise
from framework.jit.graph import Node
from framework.ops.nn import conv_channel_first, conv_kernels, depthwise, linear

# Observing the kernels needs the backends the record was made with; the policy's tables do not.
observed = pytest.mark.skipif(
    not (library.available() and gemm.threaded() and blas_threads.available()),
    reason="the record was made with oneDNN, threaded MKL and threadpoolctl installed",
)

RNG = np.random.default_rng(3)


def _geom(x_shape, w_shape, stride=1, pad=0, dilation=1, groups=1) -> ConvGeometry:
    k = tuple(w_shape[2:])
    return ConvGeometry.for_input(
        tuple(x_shape[2:]),
        k,
        (stride, stride),
        ((pad, pad), (pad, pad)),
        (dilation, dilation),
        groups,
    )


class _Seen:
    """Records the names of the kernel entry points that ran."""

    def __init__(self, monkeypatch) -> None:
        self.names: list[str] = []
        self.monkeypatch = monkeypatch

    def wrap(self, module, attribute: str, name: str, ran=lambda result: True) -> None:
        real = getattr(module, attribute)

        def spy(*args, **kwargs):
            result = real(*args, **kwargs)
            if ran(result):
                self.names.append(name)
            return result

        self.monkeypatch.setattr(module, attribute, spy)


def _training_observer(monkeypatch) -> _Seen:
    seen = _Seen(monkeypatch)
    not_none = lambda result: result is not None  # noqa: E731
    for step in ("conv_forward", "conv_input_grad", "conv_weight_grad"):
        seen.wrap(onednn, step, "onednn", not_none)
    for step in ("forward", "input_grad", "weight_grad"):
        seen.wrap(conv_channel_first, step, "channel_first")
        seen.wrap(depthwise, step, "depthwise")
    seen.wrap(conv_kernels, "_im2col_forward", "im2col")
    seen.wrap(conv_kernels, "_col2im_input_grad", "col2im")
    seen.wrap(conv_kernels, "_pointwise_input_grad", "pointwise")
    seen.wrap(conv_kernels, "_pointwise_weight_grad", "pointwise")
    seen.wrap(conv_kernels, "_im2col_weight_grad", "im2col")
    seen.wrap(conv_kernels, "_pointwise_forward", "pointwise")
    return seen


def _training_route(names: list[str]) -> str:
    """The route from the entry points seen (the first: the others run inside it)."""
    return names[0] if names else "empty"


# x shape, weight shape, geometry kwargs
CONV_SHAPES = {
    "stem3": ((2, 3, 32, 32), (16, 3, 3, 3), {"pad": 1}),
    "lenet1": ((2, 1, 28, 28), (6, 1, 5, 5), {}),
    "plain3x3": ((2, 16, 16, 16), (32, 16, 3, 3), {"pad": 1}),
    "strided3x3": ((2, 8, 9, 9), (16, 8, 3, 3), {"stride": 2, "pad": 1}),
    "wide_out": ((2, 64, 8, 8), (8, 64, 3, 3), {"pad": 1}),
    "dilated": ((2, 8, 12, 12), (8, 8, 3, 3), {"pad": 2, "dilation": 2}),
    "pointwise": ((2, 16, 8, 8), (32, 16, 1, 1), {}),
    "pointwise_s2": ((2, 16, 8, 8), (32, 16, 1, 1), {"stride": 2}),
    "depthwise": ((2, 16, 8, 8), (16, 1, 3, 3), {"pad": 1, "groups": 16}),
    "grouped": ((2, 16, 8, 8), (32, 4, 3, 3), {"pad": 1, "groups": 4}),
    "grouped_1x1": ((2, 16, 8, 8), (32, 8, 1, 1), {"groups": 2}),
    "empty_batch": ((0, 8, 8, 8), (8, 8, 3, 3), {"pad": 1}),
    "ref_only_5x5s3": ((1, 3, 11, 11), (4, 3, 5, 5), {"stride": 3}),
}

# (case, dtype, oneDNN loaded, channel-last input) -> (forward, input grad, weight grad)
TRAINING_RECORD = {
    ("stem3", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("stem3", "float32", False, False): ("channel_first", "channel_first", "channel_first"),
    ("stem3", "float32", False, True): ("im2col", "channel_first", "im2col"),
    ("stem3", "float64", True, False): ("channel_first", "channel_first", "channel_first"),
    ("lenet1", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("lenet1", "float64", True, False): ("channel_first", "channel_first", "channel_first"),
    ("plain3x3", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("plain3x3", "float32", False, False): ("im2col", "im2col", "im2col"),
    ("plain3x3", "float64", True, True): ("im2col", "im2col", "im2col"),
    ("strided3x3", "float32", False, False): ("im2col", "col2im", "im2col"),
    ("strided3x3", "float64", True, False): ("im2col", "col2im", "im2col"),
    ("wide_out", "float64", True, False): ("im2col", "im2col", "im2col"),
    ("wide_out", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("dilated", "float64", True, False): ("im2col", "channel_first", "im2col"),
    ("pointwise", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("pointwise", "float32", False, False): ("pointwise", "pointwise", "pointwise"),
    ("pointwise", "float64", True, True): ("pointwise", "pointwise", "pointwise"),
    ("pointwise_s2", "float64", True, False): ("pointwise", "pointwise", "pointwise"),
    ("depthwise", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("depthwise", "float32", False, False): ("depthwise", "depthwise", "depthwise"),
    ("depthwise", "float64", True, True): ("depthwise", "depthwise", "depthwise"),
    ("grouped", "float64", True, False): ("im2col", "im2col", "im2col"),
    ("grouped", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("grouped_1x1", "float64", True, False): ("pointwise", "pointwise", "pointwise"),
    ("empty_batch", "float32", True, False): ("empty", "empty", "empty"),
    ("empty_batch", "float64", True, False): ("empty", "empty", "empty"),
    ("ref_only_5x5s3", "float32", True, False): ("onednn", "onednn", "onednn"),
    ("ref_only_5x5s3", "float64", True, False): ("im2col", "col2im", "im2col"),
}


@contextlib.contextmanager
def _onednn_loaded(monkeypatch, loaded: bool):
    with monkeypatch.context() as patch:
        if not loaded:
            patch.setattr(library, "available", lambda: False)
        yield


def _arrays(case: str, dtype: str, channel_last: bool):
    x_shape, w_shape, kwargs = CONV_SHAPES[case]
    geom = _geom(x_shape, w_shape, **kwargs)
    x = RNG.standard_normal(x_shape).astype(dtype)
    if channel_last:
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    weight = RNG.standard_normal(w_shape).astype(dtype)
    gy = RNG.standard_normal((x_shape[0], w_shape[0], *geom.out_size)).astype(dtype)
    return x, weight, gy, geom


ROUTE_NAMES = {
    routing.ConvRoute.ONEDNN: "onednn",
    routing.ConvRoute.CHANNEL_FIRST: "channel_first",
    routing.ConvRoute.DEPTHWISE: "depthwise",
    routing.ConvRoute.POINTWISE_GEMM: "pointwise",
    routing.ConvRoute.IM2COL_GEMM: "im2col",
    routing.ConvRoute.COL2IM_GEMM: "col2im",
    routing.ConvRoute.EMPTY: "empty",
    routing.ConvRoute.WINOGRAD: "winograd",
    routing.ConvRoute.TRAINING_KERNELS: "training_kernels",
}


@pytest.mark.parametrize("key", list(TRAINING_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_the_policy_picks_the_recorded_training_routes(key):
    case, dtype, loaded, channel_last = key
    x_shape, w_shape, kwargs = CONV_SHAPES[case]
    conv = routing.ConvCase(
        x_shape, w_shape, _geom(x_shape, w_shape, **kwargs), np.dtype(dtype),
        contiguous=not channel_last,
    )  # fmt: skip
    backends = routing.Backends(onednn=loaded)
    routes = [routing.conv_route(conv, step, backends) for step in routing.ConvStep]
    assert tuple(ROUTE_NAMES[r] for r in routes) == TRAINING_RECORD[key]


@observed
@pytest.mark.parametrize("key", list(TRAINING_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_training_convolutions_run_the_recorded_kernels(key, monkeypatch):
    case, dtype, loaded, channel_last = key
    x, weight, gy, geom = _arrays(case, dtype, channel_last)
    seen = _training_observer(monkeypatch)
    routes = []
    with _onednn_loaded(monkeypatch, loaded):
        for run in (
            lambda: conv_kernels.conv_forward(x, weight, None, geom),
            lambda: conv_kernels.conv_input_grad(gy, weight, geom),
            lambda: conv_kernels.conv_weight_grad(x, gy, geom, weight.shape),
        ):
            seen.names.clear()
            run()
            routes.append(_training_route(seen.names))
    assert tuple(routes) == TRAINING_RECORD[key]


def _conv_node(w_shape, stride=1, pad=0, dilation=1, groups=1) -> Node:
    return Node(
        "conv2d",
        ["x", "w", "b"],
        ["y"],
        {
            "strides": [stride, stride],
            "pads": [pad, pad, pad, pad],
            "dilations": [dilation, dilation],
            "groups": groups,
            "data_format": "NCHW",
        },
        name="conv",
    )


def _predictor_observer(monkeypatch) -> _Seen:
    seen = _Seen(monkeypatch)
    seen.wrap(primitives, "conv2d", "onednn", lambda done: done)
    seen.wrap(infer_depthwise, "depthwise_into", "depthwise")
    seen.wrap(winograd, "conv_into", "winograd")
    seen.wrap(conv_gemm, "conv_into", "gemm")
    seen.wrap(conv_kernel_module, "conv_forward", "training_kernels")
    return seen


PREDICTOR_SHAPES = {
    **CONV_SHAPES,
    "winograd_128": ((2, 128, 8, 8), (128, 128, 3, 3), {"pad": 1}),
    "winograd_64": ((2, 64, 8, 8), (64, 64, 3, 3), {"pad": 1}),
    "winograd_1x4x4": ((1, 128, 4, 4), (128, 128, 3, 3), {"pad": 1}),
}

# (case, dtype, static weight, oneDNN team (0: outside `onednn.cores`), BLAS lent) -> kernel
PREDICTOR_RECORD = {
    ("plain3x3", "float32", True, 1, False): "onednn",
    ("plain3x3", "float32", True, 0, False): "gemm",
    ("plain3x3", "float64", True, 1, False): "gemm",
    ("plain3x3", "float32", False, 1, False): "training_kernels",
    ("pointwise", "float32", True, 0, False): "gemm",
    ("pointwise_s2", "float32", True, 0, False): "gemm",
    ("depthwise", "float32", True, 2, False): "onednn",
    ("depthwise", "float32", True, 0, False): "depthwise",
    ("depthwise", "float32", False, 0, False): "training_kernels",
    ("grouped", "float32", True, 0, False): "training_kernels",
    ("grouped", "float32", True, 1, False): "onednn",
    ("stem3", "float32", True, 0, False): "gemm",
    ("winograd_128", "float32", True, 0, False): "winograd",
    ("winograd_128", "float32", True, 0, True): "gemm",
    ("winograd_128", "float32", True, 1, False): "onednn",
    ("winograd_128", "float64", True, 1, False): "winograd",
    ("winograd_64", "float32", True, 0, False): "gemm",
    ("winograd_1x4x4", "float32", True, 0, False): "gemm",
    ("ref_only_5x5s3", "float32", True, 1, False): "onednn",
}


def _recorded_name(route: routing.ConvRoute) -> str:
    """The record's name for a predictor route: one `conv_gemm` kernel runs both GEMMs."""
    gemms = (routing.ConvRoute.POINTWISE_GEMM, routing.ConvRoute.IM2COL_GEMM)
    return "gemm" if route in gemms else ROUTE_NAMES[route]


@pytest.mark.parametrize("key", list(PREDICTOR_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_the_policy_picks_the_recorded_predictor_routes(key):
    case, dtype, static, team, lent = key
    x_shape, w_shape, kwargs = PREDICTOR_SHAPES[case]
    geom = _geom(x_shape, w_shape, **kwargs)
    conv = routing.ConvCase(x_shape, w_shape, geom, np.dtype(dtype))
    depthwise_taps = geom.groups == w_shape[0] and w_shape[1] == 1
    prepared = routing.Prepared(
        static_weight=static,
        gemm=static and geom.groups == 1,
        taps=static and depthwise_taps,
    )
    backends = routing.Backends(onednn=True, onednn_team=team, blas_lent=lent)
    route = routing.predictor_conv_route(conv, prepared, backends)
    assert _recorded_name(route) == PREDICTOR_RECORD[key]


@observed
@pytest.mark.parametrize("key", list(PREDICTOR_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_predictor_convolutions_run_the_recorded_kernels(key, monkeypatch):
    case, dtype, static, team, lent = key
    x_shape, w_shape, kwargs = PREDICTOR_SHAPES[case]
    geom = _geom(x_shape, w_shape, **kwargs)
    x = RNG.standard_normal(x_shape).astype(dtype)
    weight = RNG.standard_normal(w_shape).astype(dtype)
    bias = RNG.standard_normal(w_shape[0]).astype(dtype)
    node = _conv_node(w_shape, **kwargs)
    ctx = KernelContext(np, static_inputs=[None, weight, bias] if static else [])
    run = builder_for("conv2d")(node, ctx)
    seen = _predictor_observer(monkeypatch)
    with contextlib.ExitStack() as stack:
        if team:
            stack.enter_context(library.cores(team))
        if lent:  # as the executor lends them: inside a single-threaded region
            stack.enter_context(blas_threads.single_threaded_blas())
            stack.enter_context(blas_threads.lent_threads(2))
            assert blas_threads.lent()
        y = run(x, weight, bias)
    assert y.shape == (x_shape[0], w_shape[0], *geom.out_size)
    assert seen.names[:1] == [PREDICTOR_RECORD[key]]


# (m, k, n, MKL threaded, threadpoolctl, inside parallel work) -> (kernel, team)
MATMUL_RECORD = {
    (64, 64, 64, True, True, False): ("one_thread", 1),
    (64, 64, 64, True, False, False): ("numpy", 0),
    (64, 64, 64, False, True, False): ("one_thread", 1),
    (512, 256, 256, True, True, False): ("team", 2),
    (512, 256, 256, True, True, True): ("team", 1),
    (512, 256, 256, False, True, False): ("numpy", 0),
    (512, 256, 256, True, False, False): ("team", 2),
    (256, 256, 256, True, True, False): ("team", 2),
    (255, 256, 256, True, True, False): ("one_thread", 1),
}


@pytest.mark.parametrize("key", list(MATMUL_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_the_policy_picks_the_recorded_product_routes(key):
    m, k, n, mkl_threaded, ctl, nested = key
    backends = routing.Backends(
        mkl_threaded=mkl_threaded, blas_switchable=ctl, in_parallel_work=nested, workers=2
    )
    plan = routing.matmul_route(m, k, n, True, backends)
    assert (plan.route.value, plan.team) == MATMUL_RECORD[key]


@observed
@pytest.mark.parametrize("key", list(MATMUL_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_linear_products_run_the_recorded_kernels(key, monkeypatch):
    m, k, n, mkl_threaded, ctl, nested = key
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    ran = []
    monkeypatch.setattr(gemm, "threaded", lambda: mkl_threaded)
    monkeypatch.setattr(blas_threads, "available", lambda: ctl)
    monkeypatch.setattr(threads, "in_parallel_work", lambda: nested)
    real_team = gemm.threaded_matmul
    monkeypatch.setattr(
        gemm,
        "threaded_matmul",
        lambda a, b, out, cores: ran.append(("team", cores)) or real_team(a, b, out, cores),
    )
    single = blas_threads.single_threaded_blas

    class Recording(single):
        def __enter__(self):
            ran.append(("one_thread", 1))
            return super().__enter__()

    monkeypatch.setattr(blas_threads, "single_threaded_blas", Recording)
    np.testing.assert_allclose(linear._matmul(a, b), a @ b, rtol=1e-4, atol=1e-3)
    assert (ran or [("numpy", 0)])[0] == MATMUL_RECORD[key]


def _small_graph(separable: bool):
    """A conv + ReLU graph (every op per sample), or one whose output mixes the batch."""
    import framework
    from framework.jit import InputSpec, trace_layer

    class Net(framework.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.conv = framework.nn.Conv2D(4, 8, 3, padding=1)

        def forward(self, x):
            y = framework.nn.functional.relu(self.conv(x))
            return y if separable else y.sum(axis=0, keepdim=True)

    net = Net()
    net.eval()
    return trace_layer(net, [InputSpec([None, 4, 8, 8], "float32", "x")])


# (workers, batch, oneDNN loaded, separable graph, precompute) -> the run's plan:
# (split into parts, oneDNN team (0: none), BLAS threads lent (0: none), at_most cap (0: none));
# a split run records its twins' teams and caps.
RUN_RECORD = {
    (1, 1, True, True, True): (0, 1, 0, 1),
    (1, 4, True, True, True): (0, 1, 0, 1),
    (2, 1, True, True, True): (0, 2, 0, 1),
    (2, 4, True, True, True): (2, 1, 0, 1),
    (2, 3, True, False, True): (0, 0, 0, 0),
    (2, 1, True, False, True): (0, 2, 0, 1),
    (2, 1, False, True, True): (0, 0, 2, 1),
    (2, 4, False, True, True): (2, 0, 0, 0),
    (1, 1, False, True, True): (0, 0, 0, 0),
    (2, 1, True, True, False): (0, 0, 2, 1),
    (1, 4, True, True, False): (0, 0, 0, 0),
    (3, 2, True, True, True): (2, 1, 0, 1),
}


def _plan_record(workers, batch, loaded, separable, precompute) -> tuple:
    """The record's (parts, team, lent, cap) from the policy's plan of a run (and, for a split
    run, the plan of its first twin's slice)."""
    onednn_runs = routing.predictor_uses_onednn(precompute, True, routing.Backends(onednn=loaded))
    splits = routing.splits_batches(workers, True, separable)
    plan = routing.run_plan(batch, workers, splits, onednn_runs)
    parts = 0
    if plan.mode is routing.RunMode.SPLIT:
        parts = plan.parts
        plan = routing.run_plan(batch // plan.parts, 1, False, onednn_runs)
    team = plan.team if plan.mode is routing.RunMode.ONEDNN else 0
    lent = plan.team if plan.mode is routing.RunMode.LENT_BLAS else 0
    cap = 1 if plan.mode in (routing.RunMode.ONEDNN, routing.RunMode.LENT_BLAS) else 0
    return parts, team, lent, cap


@pytest.mark.parametrize("key", list(RUN_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_the_policy_plans_the_recorded_runs(key):
    assert _plan_record(*key) == RUN_RECORD[key]


@observed
@pytest.mark.parametrize("key", list(RUN_RECORD), ids=lambda k: "-".join(map(str, k)))
def test_predictor_runs_follow_the_recorded_plan(key, monkeypatch):
    from framework.inference import Executor

    workers, batch, loaded, separable, precompute = key
    with _onednn_loaded(monkeypatch, loaded):
        executor = Executor(_small_graph(separable), workers=workers, precompute=precompute)
        plan = {"split": 0, "team": 0, "lent": 0, "cap": 0}
        real_split = Executor._run_split

        def split(self, inputs, *rest):
            plan["split"] = min(self.workers, len(inputs[0]))
            return real_split(self, inputs, *rest)  # the twins' plans are recorded

        monkeypatch.setattr(Executor, "_run_split", split)
        monkeypatch.setattr(library, "cores", _Recorder(library.cores, plan, "team"))
        monkeypatch.setattr(
            blas_threads, "lent_threads", _Recorder(blas_threads.lent_threads, plan, "lent")
        )
        monkeypatch.setattr(threads, "at_most", _Recorder(threads.at_most, plan, "cap"))
        x = RNG.standard_normal((batch, 4, 8, 8)).astype(np.float32)
        (y,) = executor.run([x])
    assert y.shape[1:] == (8, 8, 8)
    assert (plan["split"], plan["team"], plan["lent"], plan["cap"]) == RUN_RECORD[key]


class _Recorder:
    """Stands in for a context-manager class: records its first argument under `name`."""

    def __init__(self, real, plan: dict, name: str = "") -> None:
        self.real, self.plan, self.name = real, plan, name

    def __call__(self, count: int):
        if self.name and not self.plan[self.name]:
            self.plan[self.name] = count
        return self.real(count)
