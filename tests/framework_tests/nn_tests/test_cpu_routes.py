"""The CPU routing policy (`framework.backends.cpu.routing`): tables of "these shapes and flags
pick this route", and a parity test that every route gives the same numbers.

`test_cpu_route_record` holds the routes recorded before the policy existed; these tables add
the edges: thresholds, fallbacks, forced plans. The parity tests force each convolution route
(forward, input gradient, weight gradient) and each product route on the same inputs and
compare them with a float64 NumPy reference.
"""

from __future__ import annotations

import numpy as np
import pytest

from framework.backends.cpu import routing
from framework.backends.cpu.onednn import library, primitives
from framework.backends.cpu.routing import (
    Backends,
    ConvCase,
    ConvRoute,
    ConvStep,
    MatmulRoute,
    Prepared,
    RunMode,
)
from framework.backends.cpu.tuning import TUNING
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels import conv_gemm, depthwise, winograd
from framework.inference.kernels.conv import gemm_matrix
from framework.ops.nn import conv_kernels, linear

R, S = ConvRoute, ConvStep  # short names for the tables
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
ONEDNN = Backends(onednn=True)
NONE = Backends()


def _geom(x_shape, w_shape, stride=1, pad=0, dilation=1, groups=1) -> ConvGeometry:
    return ConvGeometry.for_input(
        tuple(x_shape[2:]),
        tuple(w_shape[2:]),
        (stride, stride),
        ((pad, pad), (pad, pad)),
        (dilation, dilation),
        groups,
    )


def _conv(x_shape, w_shape, dtype=F32, **kwargs) -> ConvCase:
    options = {k: kwargs.pop(k) for k in ("numpy", "contiguous", "buffer") if k in kwargs}
    return ConvCase(x_shape, w_shape, _geom(x_shape, w_shape, **kwargs), dtype, **options)


PLAIN = ((2, 16, 16, 16), (32, 16, 3, 3))
STEM = ((2, 3, 32, 32), (16, 3, 3, 3))

# (case, step, backends, oneDNN refused) -> route
TRAINING_TABLE = [
    (_conv(*PLAIN, pad=1), S.FORWARD, ONEDNN, False, R.ONEDNN),
    (_conv(*PLAIN, pad=1), S.FORWARD, ONEDNN, True, R.IM2COL_GEMM),
    (_conv(*STEM, pad=1), S.FORWARD, ONEDNN, True, R.CHANNEL_FIRST),
    (_conv(*STEM, pad=1), S.WEIGHT_GRAD, ONEDNN, True, R.CHANNEL_FIRST),
    (_conv(*STEM, pad=1, buffer=True), S.FORWARD, ONEDNN, False, R.IM2COL_GEMM),
    (_conv(*STEM, pad=1, numpy=False), S.FORWARD, ONEDNN, False, R.CHANNEL_FIRST),
    (_conv(*PLAIN, dtype=None, pad=1), S.FORWARD, ONEDNN, False, R.IM2COL_GEMM),
    (_conv(*PLAIN, dtype=F64, pad=1), S.INPUT_GRAD, ONEDNN, False, R.IM2COL_GEMM),
    # the flipped input gradient reads h*w*O values; col2im writes ho*wo*C: 64 outputs, 8 inputs
    (_conv((2, 8, 8, 8), (64, 8, 3, 3), pad=1), S.INPUT_GRAD, NONE, False, R.COL2IM_GEMM),
    (_conv((2, 32, 8, 8), (64, 32, 3, 3), pad=1), S.INPUT_GRAD, NONE, False, R.IM2COL_GEMM),
    # padding wider than the kernel's reach: no flipped convolution
    (_conv((2, 16, 8, 8), (8, 16, 3, 3), pad=3), S.INPUT_GRAD, NONE, False, R.COL2IM_GEMM),
    (_conv((2, 8, 8, 8), (8, 8, 3, 3), stride=2, pad=1), S.INPUT_GRAD, NONE, False, R.COL2IM_GEMM),
    # few input channels against a wide output: the channel-first input gradient
    (_conv((2, 2, 16, 16), (8, 2, 3, 3), pad=1), S.INPUT_GRAD, NONE, False, R.CHANNEL_FIRST),
    (_conv((2, 16, 8, 8), (16, 1, 3, 3), pad=1, groups=16), S.INPUT_GRAD, NONE, False, R.DEPTHWISE),
    (_conv((2, 16, 8, 8), (32, 16, 1, 1)), S.WEIGHT_GRAD, NONE, False, R.POINTWISE_GEMM),
    (_conv((2, 16, 8, 8), (32, 16, 1, 1), pad=1), S.FORWARD, NONE, False, R.IM2COL_GEMM),
    (_conv((0, 16, 8, 8), (32, 16, 3, 3), pad=1), S.WEIGHT_GRAD, ONEDNN, False, R.EMPTY),
    (_conv((2, 16, 2, 2), (32, 16, 3, 3)), S.FORWARD, NONE, False, R.EMPTY),
    (_conv(*STEM, pad=1, contiguous=False), S.WEIGHT_GRAD, NONE, False, R.IM2COL_GEMM),
]


@pytest.mark.parametrize("case, step, backends, refused, route", TRAINING_TABLE)
def test_training_shapes_and_flags_pick_this_route(case, step, backends, refused, route):
    assert routing.conv_route(case, step, backends, onednn_refused=refused) is route


CONV_128 = _conv((2, 128, 8, 8), (128, 128, 3, 3), pad=1)
STATIC_GEMM = Prepared(static_weight=True, gemm=True)
TEAM = Backends(onednn=True, onednn_team=2)
DEPTHWISE = _conv((2, 16, 8, 8), (16, 1, 3, 3), pad=1, groups=16)
TAPS = Prepared(static_weight=True, taps=True)

# (case, prepared, backends, oneDNN refused) -> route
PREDICTOR_TABLE = [
    (CONV_128, STATIC_GEMM, TEAM, False, R.ONEDNN),
    (CONV_128, STATIC_GEMM, TEAM, True, R.WINOGRAD),
    (CONV_128, Prepared(static_weight=True, gemm=True, static_bias=False), TEAM, False, R.WINOGRAD),
    (
        CONV_128,
        Prepared(static_weight=True, gemm=True, whole_strides=False),
        TEAM,
        False,
        R.WINOGRAD,
    ),
    (CONV_128, STATIC_GEMM, Backends(onednn=True), False, R.WINOGRAD),
    (CONV_128, STATIC_GEMM, Backends(blas_lent=True), False, R.IM2COL_GEMM),
    (_conv((2, 127, 8, 8), (128, 127, 3, 3), pad=1), STATIC_GEMM, NONE, False, R.IM2COL_GEMM),
    # 4x4 outputs: 4 tiles per image, 16 from 4 images on
    (_conv((3, 128, 4, 4), (128, 128, 3, 3), pad=1), STATIC_GEMM, NONE, False, R.IM2COL_GEMM),
    (_conv((4, 128, 4, 4), (128, 128, 3, 3), pad=1), STATIC_GEMM, NONE, False, R.WINOGRAD),
    (
        _conv((4, 128, 16, 16), (128, 128, 3, 3), stride=2, pad=1),
        STATIC_GEMM,
        NONE,
        False,
        R.IM2COL_GEMM,
    ),
    (_conv((4, 128, 16, 16), (128, 128, 1, 1)), STATIC_GEMM, NONE, False, R.POINTWISE_GEMM),
    (DEPTHWISE, TAPS, NONE, False, R.DEPTHWISE),
    (DEPTHWISE, TAPS, TEAM, False, R.ONEDNN),
    (
        _conv((2, 16, 8, 8), (16, 1, 3, 3), dtype=F64, pad=1, groups=16),
        TAPS,
        TEAM,
        False,
        R.DEPTHWISE,
    ),
    (CONV_128, Prepared(), TEAM, False, R.TRAINING_KERNELS),
    (
        _conv((2, 16, 8, 8), (32, 4, 3, 3), pad=1, groups=4),
        Prepared(static_weight=True),
        NONE,
        False,
        R.TRAINING_KERNELS,
    ),
    (CONV_128, STATIC_GEMM, Backends(onednn=True, onednn_team=1), False, R.ONEDNN),
    (
        _conv((2, 128, 8, 8), (128, 128, 3, 3), numpy=False, pad=1),
        Prepared(static_weight=True),
        TEAM,
        False,
        R.TRAINING_KERNELS,
    ),
]


@pytest.mark.parametrize("case, prepared, backends, refused, route", PREDICTOR_TABLE)
def test_predictor_shapes_and_flags_pick_this_route(case, prepared, backends, refused, route):
    assert routing.predictor_conv_route(case, prepared, backends, refused) is route


def test_the_winograd_thresholds_are_the_tuning_tables(monkeypatch):
    few_channels = _conv((2, 16, 8, 8), (16, 16, 3, 3), pad=1)
    assert not routing.winograd_pays(few_channels)
    monkeypatch.setattr(TUNING, "winograd_min_channels", 16)
    assert routing.winograd_pays(few_channels)
    monkeypatch.setattr(TUNING, "winograd_min_tiles", 2 * 16 + 1)  # 16 tiles per 8x8 image
    assert not routing.winograd_pays(few_channels)


SAME = ((1, 1), (1, 1))


@pytest.mark.parametrize(
    "geom, applies",
    [
        (ConvGeometry.for_input((16, 16), (3, 3), (1, 1), SAME, (1, 1), 1), True),
        (ConvGeometry.for_input((16, 16), (3, 3), (2, 2), SAME, (1, 1), 1), False),  # strided
        (ConvGeometry.for_input((16, 16), (3, 3), (1, 1), ((2, 2), (2, 2)), (2, 2), 1), False),
        (ConvGeometry.for_input((16, 16), (5, 5), (1, 1), SAME, (1, 1), 1), False),  # 5x5
        (ConvGeometry.for_input((16, 16), (3, 3), (1, 1), SAME, (1, 1), 2), False),  # grouped
    ],
    ids=["3x3", "strided", "dilated", "5x5", "grouped"],
)
def test_winograd_applies_to_ungrouped_3x3_stride_1_only(geom, applies):
    assert routing.winograd_applies(geom) is applies


@pytest.mark.parametrize(
    "n, threshold, shares",
    [(8, 40_000_000, False), (8, 300_000, True), (2, 300_000, False), (4, 150_000, True)],
)
def test_channel_first_products_are_shared_out_from_the_threshold_on(
    n, threshold, shares, monkeypatch
):
    # LeNet's first convolution: 6*1*3*3 weights over 28x28 outputs, 42K multiply-adds an image
    monkeypatch.setattr(TUNING, "channel_first_share_macs", threshold)
    geom = _geom((n, 1, 28, 28), (6, 1, 3, 3), pad=1)
    assert routing.channel_first_shares(n, (6, 1, 3, 3), geom) is shares


SMALL = TUNING.small_gemm_macs
LIVE_TEAM = Backends(mkl_threaded=True, blas_switchable=True, workers=2)

# (m, k, n, NumPy arrays, backends) -> (route, team)
MATMUL_TABLE = [
    (SMALL // 256 // 256 - 1, 256, 256, True, LIVE_TEAM, MatmulRoute.ONE_THREAD, 1),
    (SMALL // 256 // 256, 256, 256, True, LIVE_TEAM, MatmulRoute.TEAM, 2),
    (SMALL // 256 // 256, 256, 256, False, LIVE_TEAM, MatmulRoute.NUMPY, 0),
    (64, 64, 64, False, LIVE_TEAM, MatmulRoute.NUMPY, 0),
    (512, 512, 512, True, Backends(mkl_threaded=True, workers=3), MatmulRoute.TEAM, 3),
    (
        512,
        512,
        512,
        True,
        Backends(mkl_threaded=True, in_parallel_work=True, workers=3),
        MatmulRoute.TEAM,
        1,
    ),
    (512, 512, 512, True, Backends(blas_switchable=True, workers=2), MatmulRoute.NUMPY, 0),
]


@pytest.mark.parametrize("m, k, n, numpy, backends, route, team", MATMUL_TABLE)
def test_product_shapes_and_flags_pick_this_route(m, k, n, numpy, backends, route, team):
    assert routing.matmul_route(m, k, n, numpy, backends) == routing.MatmulPlan(route, team)


@pytest.mark.parametrize(
    "in_parallel_work, workers, team", [(False, 2, 2), (True, 2, 1), (False, 1, 1), (False, 8, 8)]
)
def test_a_team_is_the_threads_cores_or_one_inside_shared_work(in_parallel_work, workers, team):
    assert routing.team_cores(in_parallel_work, workers) == team


# (batch, workers, splits batches, oneDNN runs, NumPy) -> plan
RUN_TABLE = [
    (4, 2, True, True, True, routing.RunPlan(RunMode.SPLIT, parts=2)),
    (3, 4, True, False, True, routing.RunPlan(RunMode.SPLIT, parts=3)),
    (1, 2, True, True, True, routing.RunPlan(RunMode.ONEDNN, team=2)),
    (4, 1, False, True, True, routing.RunPlan(RunMode.ONEDNN, team=1)),
    (4, 2, False, True, True, routing.RunPlan(RunMode.SHARED)),
    (1, 2, True, False, True, routing.RunPlan(RunMode.LENT_BLAS, team=2)),
    (1, 2, False, False, False, routing.RunPlan(RunMode.SHARED)),  # a GPU run
    (None, 2, True, True, True, routing.RunPlan(RunMode.SHARED)),  # no inputs, or a scalar
    (0, 2, True, False, True, routing.RunPlan(RunMode.SHARED)),
    (1, 1, False, False, True, routing.RunPlan(RunMode.SHARED)),
]


@pytest.mark.parametrize("batch, workers, splits, onednn, numpy, plan", RUN_TABLE)
def test_predictor_runs_get_this_plan(batch, workers, splits, onednn, numpy, plan):
    assert routing.run_plan(batch, workers, splits, onednn, numpy) == plan


@pytest.mark.parametrize(
    "workers, numpy, separable, splits",
    [
        (2, True, True, True),
        (1, True, True, False),
        (2, False, True, False),
        (2, True, False, False),
    ],
)
def test_batches_split_with_several_workers_on_separable_cpu_graphs(
    workers, numpy, separable, splits
):
    assert routing.splits_batches(workers, numpy, separable) is splits


@pytest.mark.parametrize(
    "precompute, numpy, loaded, uses", [(True, True, True, True), (False, True, True, False),
                                        (True, False, True, False), (True, True, False, False)]
)  # fmt: skip
def test_the_predictor_uses_onednn_for_fixed_weights_on_the_cpu(precompute, numpy, loaded, uses):
    assert routing.predictor_uses_onednn(precompute, numpy, Backends(onednn=loaded)) is uses


# ---- parity: every route gives the same numbers -----------------------------------------------


def _taps(padded, geom: ConvGeometry):
    """`(i, j, view)`: the input window of tap (i, j), `[N, C, Ho, Wo]`, of a padded input."""
    (kh, kw), (sh, sw), (dh, dw) = geom.kernel, geom.stride, geom.dilation
    ho, wo = geom.out_size
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + sh * (ho - 1) + 1, sh)
            cols = slice(j * dw, j * dw + sw * (wo - 1) + 1, sw)
            yield i, j, (rows, cols)


def _padded_shape(x_shape, geom):
    (top, bottom), (left, right) = geom.padding
    return (*x_shape[:2], x_shape[2] + top + bottom, x_shape[3] + left + right)


def _reference(x, w, gy, geom: ConvGeometry):
    """(forward, input gradient, weight gradient) in float64, tap by tap, per group."""
    x, w, gy = (a.astype(np.float64) for a in (x, w, gy))
    n, c, h, wd = x.shape
    o, cg = w.shape[:2]
    g = geom.groups
    (top, _), (left, _) = geom.padding
    padded = np.zeros(_padded_shape(x.shape, geom))
    padded[:, :, top : top + h, left : left + wd] = x
    wg = w.reshape(g, o // g, cg, *w.shape[2:])
    gyg = gy.reshape(n, g, o // g, *gy.shape[2:])
    y = np.zeros((n, g, o // g, *geom.out_size))
    gx = np.zeros(padded.shape)
    gw = np.zeros(wg.shape)
    for i, j, (rows, cols) in _taps(padded, geom):
        view = padded[:, :, rows, cols].reshape(n, g, cg, *geom.out_size)
        y += np.einsum("ngchw,goc->ngohw", view, wg[..., i, j])
        gx[:, :, rows, cols] += np.einsum("ngohw,goc->ngchw", gyg, wg[..., i, j]).reshape(
            n, c, *geom.out_size
        )
        gw[..., i, j] = np.einsum("ngohw,ngchw->goc", gyg, view)
    gx = gx[:, :, top : top + h, left : left + wd]
    return y.reshape(n, o, *geom.out_size), gx, gw.reshape(w.shape)


PARITY_CASES = {
    "stem": ((2, 3, 10, 10), (4, 3, 3, 3), {"pad": 1}),
    "strided": ((2, 6, 9, 9), (8, 6, 3, 3), {"stride": 2, "pad": 1}),
    "dilated": ((1, 4, 11, 11), (5, 4, 3, 3), {"pad": 2, "dilation": 2}),
    "pointwise": ((2, 8, 5, 5), (6, 8, 1, 1), {}),
    "pointwise_s2": ((2, 8, 6, 6), (6, 8, 1, 1), {"stride": 2}),
    "depthwise": ((2, 6, 7, 7), (6, 1, 3, 3), {"pad": 1, "groups": 6}),
    "grouped": ((2, 8, 6, 6), (6, 4, 3, 3), {"pad": 1, "groups": 2}),
}


def _routes_for(geom: ConvGeometry, x_shape, w_shape, step: ConvStep) -> list[ConvRoute]:
    """The training routes whose kernels compute this convolution step."""
    routes = [ConvRoute.IM2COL_GEMM]
    if step is ConvStep.INPUT_GRAD:
        routes = [ConvRoute.COL2IM_GEMM] + ([ConvRoute.IM2COL_GEMM] if geom.flipped() else [])
    if geom.groups == 1:
        routes.append(ConvRoute.CHANNEL_FIRST)
    if geom.is_depthwise(x_shape[1], w_shape[0]):
        routes.append(ConvRoute.DEPTHWISE)
    if geom.is_pointwise():
        routes.append(ConvRoute.POINTWISE_GEMM)
    if library.available():
        routes.append(ConvRoute.ONEDNN)
    return routes


def _parity_arrays(name: str):
    x_shape, w_shape, kwargs = PARITY_CASES[name]
    geom = _geom(x_shape, w_shape, **kwargs)
    rng = np.random.default_rng(len(name))
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    gy = rng.standard_normal((x_shape[0], w_shape[0], *geom.out_size)).astype(np.float32)
    return x, w, gy, geom


def _close(got, want) -> None:
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize("name", list(PARITY_CASES))
@pytest.mark.parametrize("step", list(ConvStep), ids=lambda s: s.value)
def test_every_training_route_gives_the_same_numbers(name, step):
    x, w, gy, geom = _parity_arrays(name)
    want = dict(zip(ConvStep, _reference(x, w, gy, geom), strict=True))[step]
    routes = _routes_for(geom, x.shape, w.shape, step)
    assert len(routes) >= 2
    for route in routes:
        if step is ConvStep.FORWARD:
            got = conv_kernels.conv_forward(x, w, None, geom, route=route)
        elif step is ConvStep.INPUT_GRAD:
            got = conv_kernels.conv_input_grad(gy, w, geom, route=route)
        else:
            got = conv_kernels.conv_weight_grad(x, gy, geom, w.shape, route=route)
        _close(np.asarray(got), want)


def _predictor_route(route: ConvRoute, x, w, bias, geom: ConvGeometry) -> np.ndarray:
    """The NCHW output of the predictor kernel of `route` (what `kernels.conv` runs for it)."""
    out = np.full((x.shape[0], *geom.out_size, w.shape[0]), np.nan, np.float32)  # NHWC
    xh = x.transpose(0, 2, 3, 1)

    def add_bias(rows) -> None:
        rows += bias

    if route is ConvRoute.ONEDNN:
        with library.cores(1):
            assert primitives.conv2d(x, w, bias, geom, out, {})
    elif route is ConvRoute.WINOGRAD:
        u = winograd.transformed_weight(w)
        winograd.conv_into(np, xh, u, geom, out, add_bias, 2)
    elif route in (ConvRoute.IM2COL_GEMM, ConvRoute.POINTWISE_GEMM):
        conv_gemm.conv_into(np, xh, gemm_matrix(np, w), geom, out, add_bias, 2)
    elif route is ConvRoute.DEPTHWISE:
        plan = depthwise.DepthwisePlan(np, depthwise.taps_of(np, w), bias, geom)
        depthwise.depthwise_into(np, xh, plan, out, None, 2)
    else:
        conv_kernels.conv_forward(x, w, bias, geom, out=out)
    return out.transpose(0, 3, 1, 2)


PREDICTOR_PARITY = {
    "3x3": (_geom((2, 8, 9, 7), (6, 8, 3, 3), pad=1), (2, 8, 9, 7), (6, 8, 3, 3)),
    "pointwise": (_geom((2, 8, 5, 5), (6, 8, 1, 1)), (2, 8, 5, 5), (6, 8, 1, 1)),
    "depthwise": (_geom((2, 6, 7, 7), (6, 1, 3, 3), pad=1, groups=6), (2, 6, 7, 7), (6, 1, 3, 3)),
    "grouped": (_geom((2, 8, 6, 6), (6, 4, 3, 3), pad=1, groups=2), (2, 8, 6, 6), (6, 4, 3, 3)),
}


@pytest.mark.parametrize("name", list(PREDICTOR_PARITY))
def test_every_predictor_route_gives_the_same_numbers(name):
    geom, x_shape, w_shape = PREDICTOR_PARITY[name]
    rng = np.random.default_rng(7)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    bias = rng.standard_normal(w_shape[0]).astype(np.float32)
    gy = np.zeros((x_shape[0], w_shape[0], *geom.out_size), np.float32)
    want = _reference(x, w, gy, geom)[0] + bias.reshape(-1, 1, 1)
    routes = [ConvRoute.TRAINING_KERNELS]
    if geom.groups == 1:
        routes.append(ConvRoute.POINTWISE_GEMM if geom.is_pointwise() else ConvRoute.IM2COL_GEMM)
    if routing.winograd_applies(geom):
        routes.append(ConvRoute.WINOGRAD)
    if geom.is_depthwise(x_shape[1], w_shape[0]):
        routes.append(ConvRoute.DEPTHWISE)
    if library.available():
        routes.append(ConvRoute.ONEDNN)
    assert len(routes) >= 2
    for route in routes:
        _close(_predictor_route(route, x, w, bias, geom), want)


@pytest.mark.parametrize("shape", [(64, 48, 32), (512, 256, 256)], ids=["small", "large"])
def test_every_product_route_gives_the_same_numbers(shape):
    m, k, n = shape
    rng = np.random.default_rng(m)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    want = a.astype(np.float64) @ b
    for plan in [
        routing.MatmulPlan(MatmulRoute.NUMPY),
        routing.MatmulPlan(MatmulRoute.ONE_THREAD, 1),
        routing.MatmulPlan(MatmulRoute.TEAM, 2),
        routing.MatmulPlan(MatmulRoute.TEAM, 1),
    ]:
        _close(linear._matmul(a, b, plan), want)
        _close(linear._matmul(b.T, a.T, plan), want.T)  # transposed views, read in place


@pytest.mark.parametrize(
    "rows_shape, dtype, numpy, backends, route",
    [
        ((288, 24), F32, True, ONEDNN, routing.NormRoute.ONEDNN),
        ((288, 24), F32, True, NONE, routing.NormRoute.NUMPY),
        ((288, 24), F64, True, ONEDNN, routing.NormRoute.NUMPY),
        ((288, 24), F32, False, ONEDNN, routing.NormRoute.NUMPY),  # a GPU array
        (None, F32, True, ONEDNN, routing.NormRoute.NUMPY),  # channel-first memory
        ((0, 24), F32, True, ONEDNN, routing.NormRoute.NUMPY),
    ],
)
def test_batch_norm_memory_and_dtype_pick_this_route(rows_shape, dtype, numpy, backends, route):
    assert routing.batch_norm_route(rows_shape, dtype, numpy, backends) is route
