"""The CPU backend's one routing policy: which kernel a convolution or a product runs, and how
the predictor spends its cores on a run.

Each decision is a small pure function of the shapes, the dtype and the backends in force
(`Backends`): `conv_route` (training's three convolution passes), `predictor_conv_route` (the
predictor's convolution kernel), `batch_norm_route` (training's batch norm), `matmul_route`
(`Linear`'s products), `run_plan` (an executor run) and `wait_policy` (how a process's OpenMP
threads wait). They return plain values that the kernels dispatch on. `team_cores` is the one
rule for how many cores an OpenMP team gets. Their thresholds are in the one tuning table,
`tuning.TUNING`, each with the benchmark that set it.

`Backends` is what is loaded and allowed here: `live()` reads it from the backend modules
(whose libraries read their `SAMPAN_*` switches once, through `switches.flag`, when they load),
lazily, so that a decision asks only about the backends it needs; tests pass a `Backends` of
their own.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from framework.backends.cpu import blas_threads, gemm, threads
from framework.backends.cpu.onednn import library as onednn
from framework.backends.cpu.tuning import TUNING
from framework.core.conv_geometry import ConvGeometry


@dataclass(frozen=True)
class Backends:
    """What is loaded and allowed on this thread now. Fields left at their defaults are "no"."""

    onednn: bool = False  # oneDNN is loaded and may run here (`onednn.library.available`)
    onednn_team: int = 0  # cores this thread's oneDNN calls may use now (0 where not loaded)
    mkl_threaded: bool = False  # MKL runs OpenMP teams here (`gemm.threaded`)
    blas_switchable: bool = False  # BLAS's thread count can be switched (`blas_threads`)
    blas_lent: bool = False  # BLAS has threads lent to a single sample now
    in_parallel_work: bool = False  # this thread runs a share of a `parallel_for`
    workers: int = 1  # cores work started on this thread may use (`threads.workers`)


class _Live:
    """The `Backends` fields read from the backend modules, each when it is asked for."""

    @property
    def onednn(self) -> bool:
        return onednn.available()

    @property
    def onednn_team(self) -> int:
        return onednn.given()

    @property
    def mkl_threaded(self) -> bool:
        return gemm.threaded()

    @property
    def blas_switchable(self) -> bool:
        return blas_threads.available()

    @property
    def blas_lent(self) -> bool:
        return blas_threads.lent()

    @property
    def in_parallel_work(self) -> bool:
        return threads.in_parallel_work()

    @property
    def workers(self) -> int:
        return threads.workers()


_LIVE = _Live()


def live() -> Backends:
    """The backends in force now, read as each decision asks (typed as `Backends`)."""
    return _LIVE  # type: ignore[return-value]


def team_cores(in_parallel_work: bool, workers: int) -> int:
    """The OpenMP team of a training op (oneDNN's, or MKL's for a large product or an
    optimizer's scal/axpy): the thread's cores, one inside shared-out work (whose other shares
    hold the other cores). A predictor run's team is `run_plan`'s."""
    return 1 if in_parallel_work else workers


def one_dtype(*arrays) -> np.dtype | None:
    """The dtype these arrays (None ones skipped) share, or None where they differ."""
    dtypes = {np.dtype(a.dtype) for a in arrays if a is not None}
    return dtypes.pop() if len(dtypes) == 1 else None


# ---- convolutions -------------------------------------------------------------------------


class ConvRoute(enum.Enum):
    ONEDNN = "onednn"  # oneDNN's JIT kernels
    CHANNEL_FIRST = "channel_first"  # few input channels: NCHW columns (`conv_channel_first`)
    DEPTHWISE = "depthwise"  # groups == channels: sums over window views
    POINTWISE_GEMM = "pointwise_gemm"  # 1x1, no padding: a GEMM over pixels
    IM2COL_GEMM = "im2col_gemm"  # chunked im2col + GEMM (the input gradient: flipped kernel)
    COL2IM_GEMM = "col2im_gemm"  # the input gradient as a GEMM, then col2im adds
    WINOGRAD = "winograd"  # the predictor's F(2x2, 3x3)
    TRAINING_KERNELS = "training_kernels"  # the predictor hands it to `conv_kernels`
    EMPTY = "empty"  # nothing to compute (an empty batch or output)


class ConvStep(enum.Enum):
    FORWARD = "forward"
    INPUT_GRAD = "input_grad"
    WEIGHT_GRAD = "weight_grad"


@dataclass(frozen=True)
class ConvCase:
    """One convolution call. `x_shape` is the input's `[N, C, H, W]` (also for the input
    gradient), the output's is `[N, O, *geom.out_size]`. `dtype` is the one dtype of the
    step's arrays (None: they differ). `contiguous`: the NCHW input (and, for the weight
    gradient, gy) is C-contiguous. `buffer`: the caller passes the output buffer."""

    x_shape: tuple[int, ...]
    weight_shape: tuple[int, ...]
    geom: ConvGeometry
    dtype: np.dtype | None
    numpy: bool = True
    contiguous: bool = True
    buffer: bool = False

    @property
    def out_shape(self) -> tuple[int, ...]:
        return (self.x_shape[0], self.weight_shape[0], *self.geom.out_size)


def channel_first_suits(x_shape, weight_shape, geom: ConvGeometry) -> bool:
    """Whether a channel-first window row (`Wo` numbers) beats a channel-last one (`kw*C`)."""
    return geom.groups == 1 and weight_shape[3] * x_shape[1] < geom.out_size[1]


def channel_first_shares(n: int, weight_shape, geom: ConvGeometry) -> bool:
    """Whether `n` images' channel-first products are worth sharing out over the cores."""
    macs = n * math.prod(weight_shape) * math.prod(geom.out_size)
    return macs >= TUNING.channel_first_share_macs


def _onednn_takes(case: ConvCase, step: ConvStep, backends: Backends) -> bool:
    """Training's oneDNN route: loaded, NumPy float32 and nothing empty (a shape oneDNN has
    only reference loops for falls back: see `conv_route(..., onednn_refused=True)`)."""
    if case.buffer or not case.numpy or case.dtype != np.float32:
        return False
    sizes = {
        ConvStep.FORWARD: (case.x_shape, case.weight_shape),
        ConvStep.INPUT_GRAD: (case.out_shape, case.weight_shape),
        ConvStep.WEIGHT_GRAD: (case.x_shape, case.out_shape),
    }[step]
    return all(math.prod(shape) > 0 for shape in sizes) and backends.onednn


def conv_route(
    case: ConvCase, step: ConvStep, backends: Backends, onednn_refused: bool = False
) -> ConvRoute:
    """The kernel of one training convolution step (`framework.ops.nn.conv_kernels`)."""
    if not onednn_refused and _onednn_takes(case, step, backends):
        return ConvRoute.ONEDNN
    n, c = case.x_shape[:2]
    o = case.weight_shape[0]
    geom = case.geom
    empty = not (n and geom.out_size[0] and geom.out_size[1])
    suits = channel_first_suits(case.x_shape, case.weight_shape, geom)
    if step is ConvStep.FORWARD:
        if not case.buffer and n and case.contiguous and suits:
            return ConvRoute.CHANNEL_FIRST
        if empty:
            return ConvRoute.EMPTY
    elif step is ConvStep.INPUT_GRAD:
        if empty:
            return ConvRoute.EMPTY
        if not geom.is_depthwise(c, o) and not geom.is_pointwise():
            if geom.groups == 1 and c < geom.out_size[1]:
                # Few input channels: col2im adds whole output rows instead of c-long runs.
                return ConvRoute.CHANNEL_FIRST
            return _input_grad_gemm(case)
    else:
        if empty:
            return ConvRoute.EMPTY
        if case.contiguous and suits:
            return ConvRoute.CHANNEL_FIRST
    if geom.is_depthwise(c, o):
        return ConvRoute.DEPTHWISE
    return ConvRoute.POINTWISE_GEMM if geom.is_pointwise() else ConvRoute.IM2COL_GEMM


def _input_grad_gemm(case: ConvCase) -> ConvRoute:
    """The flipped convolution reads kh*kw*O values per input pixel; col2im writes kh*kw*C per
    output pixel and adds them back. Take the flipped one unless it is clearly bigger."""
    (_, c, h, w), o = case.x_shape, case.weight_shape[0]
    ho, wo = case.geom.out_size
    reads, writes = h * w * o, ho * wo * c
    if case.geom.flipped() is not None and reads <= TUNING.flipped_input_grad_ratio * writes:
        return ConvRoute.IM2COL_GEMM
    return ConvRoute.COL2IM_GEMM


@dataclass(frozen=True)
class Prepared:
    """What the predictor knows of a convolution's weight: whether it is fixed (an
    initializer), and what it prepared from it on the CPU: the GEMM matrix (ungrouped) or the
    depthwise taps (groups == O, one input channel each)."""

    static_weight: bool = False
    gemm: bool = False
    taps: bool = False
    static_bias: bool = True  # the bias is the graph's own (not one passed to this run)
    whole_strides: bool = True  # the input's strides are positive whole elements


def predictor_conv_route(
    case: ConvCase, prepared: Prepared, backends: Backends, onednn_refused: bool = False
) -> ConvRoute:
    """The kernel of one predictor convolution (`framework.inference.kernels.conv`). oneDNN
    runs it on the run's team when the executor opened one (`run_plan`)."""
    if (
        not onednn_refused
        and prepared.static_weight
        and prepared.static_bias
        and backends.onednn_team > 0
        and case.numpy
        and case.dtype == np.float32
        and prepared.whole_strides
    ):
        return ConvRoute.ONEDNN
    if prepared.taps and case.x_shape[1] == case.geom.groups:
        return ConvRoute.DEPTHWISE
    if prepared.gemm:
        if winograd_pays(case) and not backends.blas_lent:
            # While BLAS has lent threads (a single sample) its GEMMs spread over the cores
            # and Winograd's transforms would run on one.
            return ConvRoute.WINOGRAD
        return ConvRoute.POINTWISE_GEMM if case.geom.is_pointwise() else ConvRoute.IM2COL_GEMM
    return ConvRoute.TRAINING_KERNELS


def winograd_applies(geom: ConvGeometry) -> bool:
    """Whether Winograd F(2x2, 3x3) computes this convolution: 3x3, stride 1, no dilation."""
    return (
        geom.kernel == (3, 3) and geom.stride == (1, 1) and geom.dilation == (1, 1)
        and geom.groups == 1
    )  # fmt: skip


def winograd_pays(case: ConvCase) -> bool:
    """Whether Winograd applies and has enough tiles and channels to beat the im2col GEMM
    (with few tiles the GEMMs only stream its 16/9 larger weight past)."""
    geom = case.geom
    if not winograd_applies(geom):
        return False
    ho, wo = geom.out_size
    tiles = case.x_shape[0] * -(-ho // 2) * -(-wo // 2)
    channels = min(case.weight_shape[:2])
    return tiles >= TUNING.winograd_min_tiles and channels >= TUNING.winograd_min_channels


# ---- batch norm ---------------------------------------------------------------------------


class NormRoute(enum.Enum):
    ONEDNN = "onednn"  # oneDNN's training batch norm on `[rows, channels]` memory
    NUMPY = "numpy"  # our NumPy passes (`framework.ops.nn.batch_norm_kernels`)


def batch_norm_route(
    rows_shape: tuple[int, ...] | None, dtype, numpy: bool, backends: Backends
) -> NormRoute:
    """The route of a training-mode batch norm whose activations are `rows_shape`, C-contiguous
    `[rows, channels]` (channel-last memory), or None (other memory: oneDNN's kernel for
    channel-first memory is no faster than our passes, `benchmarks/layer_ops.py`)."""
    if rows_shape is None or not numpy or dtype != np.float32 or math.prod(rows_shape) == 0:
        return NormRoute.NUMPY
    return NormRoute.ONEDNN if backends.onednn else NormRoute.NUMPY


# ---- products -----------------------------------------------------------------------------


class MatmulRoute(enum.Enum):
    NUMPY = "numpy"  # `a @ b`, BLAS as it is
    ONE_THREAD = "one_thread"  # one BLAS thread (MKL's sequential GEMM where loaded)
    TEAM = "team"  # MKL on an OpenMP team of `team` threads


@dataclass(frozen=True)
class MatmulPlan:
    route: MatmulRoute
    team: int = 0


def matmul_route(m: int, k: int, n: int, numpy: bool, backends: Backends) -> MatmulPlan:
    """The route of `Linear`'s `[m, k] @ [k, n]`: small CPU products on one BLAS thread, large
    ones on MKL's team (when MKL runs teams here), the rest left to NumPy."""
    if not numpy:
        return MatmulPlan(MatmulRoute.NUMPY)
    if m * k * n < TUNING.small_gemm_macs:
        if not backends.blas_switchable:
            return MatmulPlan(MatmulRoute.NUMPY)
        return MatmulPlan(MatmulRoute.ONE_THREAD, 1)
    if not backends.mkl_threaded:
        return MatmulPlan(MatmulRoute.NUMPY)
    return MatmulPlan(MatmulRoute.TEAM, team_cores(backends.in_parallel_work, backends.workers))


# ---- predictor runs -----------------------------------------------------------------------


class RunMode(enum.Enum):
    SPLIT = "split"  # one slice of the batch per core, each on a one-thread twin executor
    ONEDNN = "onednn"  # every op on this thread, convolutions on oneDNN's team of `team`
    LENT_BLAS = "lent_blas"  # every op on this thread, BLAS lent `team` threads
    SHARED = "shared"  # the kernels share their chunks out over the executor's workers


@dataclass(frozen=True)
class RunPlan:
    mode: RunMode
    team: int = 0  # oneDNN's OpenMP team, or BLAS threads lent
    parts: int = 0  # slices of the batch (SPLIT)


def splits_batches(workers: int, numpy: bool, batch_separable: bool) -> bool:
    """Whether an executor runs a batch as one slice per core: several workers, NumPy, and a
    graph whose every op treats the samples independently."""
    return workers > 1 and numpy and batch_separable


def predictor_uses_onednn(precompute: bool, numpy: bool, backends: Backends) -> bool:
    """Whether an executor runs its convolutions on oneDNN where a run allows it (`run_plan`):
    its weights are prepared (fixed), it is on the CPU and oneDNN is loaded."""
    return precompute and numpy and backends.onednn


def run_plan(
    batch: int | None, workers: int, splits: bool, onednn: bool, numpy: bool = True
) -> RunPlan:
    """How an executor spends its `workers` cores on a run whose first input's leading size is
    `batch` (None: no inputs, or a scalar). A single sample is too small to cut into chunks for
    the workers (each hand-off wakes a sleeping thread): its cores go to one team instead,
    oneDNN's OpenMP team where oneDNN runs (never beside BLAS's threads: the two pools would
    fight), else BLAS's."""
    if splits and batch is not None and batch > 1:
        return RunPlan(RunMode.SPLIT, parts=min(workers, batch))
    one_sample = numpy and batch == 1
    if onednn and (workers == 1 or one_sample):
        return RunPlan(RunMode.ONEDNN, team=workers if one_sample else 1)
    if workers > 1 and one_sample:
        return RunPlan(RunMode.LENT_BLAS, team=workers)
    return RunPlan(RunMode.SHARED)


class WaitPolicy(enum.Enum):
    SPIN = "spin"  # idle OpenMP threads spin `TUNING.openmp_spin_rounds` rounds, then sleep
    PASSIVE = "passive"  # idle OpenMP threads sleep at once (`OMP_WAIT_POLICY=PASSIVE`)


def wait_policy(predictor_team: int) -> WaitPolicy:
    """How this process's idle OpenMP threads wait, which GNU OpenMP fixes when it loads
    (`openmp.spin_limit`; a wait policy the user set wins). `predictor_team` is the team of a
    single-sample run of the CPU predictor that is about to load it (`run_plan` gives such a
    run all the predictor's workers), 0 when training or anything else loads it first.

    A serving predictor runs a team per convolution: sleeping at once costs each barrier a
    wake-up, spinning costs the cores the team waits for when other processes want them too
    (a web server's workers, a busy host). Training runs its teams back to back with NumPy
    work in between and keeps spinning, which passive waiting slows.

        >>> wait_policy(2), wait_policy(1), wait_policy(0)
        (<WaitPolicy.PASSIVE: 'passive'>, <WaitPolicy.SPIN: 'spin'>, <WaitPolicy.SPIN: 'spin'>)
    """
    return WaitPolicy.PASSIVE if predictor_team >= TUNING.passive_wait_min_team else WaitPolicy.SPIN
