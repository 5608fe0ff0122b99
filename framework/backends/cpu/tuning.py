"""The CPU backend's tuning table: every threshold and chunk size that its routing policy
(`routing`) and its kernels use, each with the benchmark in `benchmarks/` that set it. The
measurements, dated, are in `benchmarks/README.md` ("Recorded: CPU tuning table").

`TUNING` is read at call time, so a test may set one entry for a while (`monkeypatch.setattr`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Tuning:
    """The CPU backend's tuning constants. Each names the benchmark (in `benchmarks/`) that set
    it; the measurements are in `benchmarks/README.md`, "Recorded: CPU tuning table"."""

    # Multiply-adds below which `Linear`'s GEMM runs on one BLAS thread: a multi-threaded call
    # leaves OpenBLAS's workers spinning afterwards, taking cores from the next convolution
    # (`linear_products.py`, `train_step.py`).
    small_gemm_macs: int = 1 << 24
    # Multiply-adds below which a ctypes call into MKL costs more than MKL saves (`gemm.py`).
    mkl_min_macs: int = 1 << 21
    # Multiply-adds from which a channel-first convolution's forward and weight-gradient
    # products are shared out over the cores (`conv_ops.py`).
    channel_first_share_macs: int = 40_000_000
    # The input gradient runs the flipped convolution unless it reads more than this many
    # times the values col2im writes (`conv_ops.py`).
    flipped_input_grad_ratio: int = 2
    # Winograd F(2x2, 3x3) in the predictor from this many 2x2 tiles per call and this many
    # input and output channels (`predictor.py`).
    winograd_min_tiles: int = 16
    winograd_min_channels: int = 128
    # im2col columns plus output rows per GEMM call in the predictor (`predictor.py`).
    predictor_chunk_bytes: int = 8 << 20
    # A predictor GEMM with at most 1/this many rows per output channel multiplies the weight
    # first (`weight_t @ rows.T`): the GEMM is the weight streaming past (`predictor.py`).
    weight_first_ratio: int = 2
    # Output pixels per core below which a predictor GEMM splits its output channels over the
    # cores instead of its pixels (`predictor.py`).
    predictor_min_pixels_per_core: int = 64
    # Training's im2col columns per chunk: what the last-level cache keeps hot for the GEMM
    # (`train_step.py`, `conv_ops.py`).
    im2col_chunk_bytes: int = 16 << 20
    # Training's depthwise convolution, output bytes per chunk (`conv_ops.py`).
    depthwise_chunk_bytes: int = 1 << 20
    # The predictor's depthwise kernel, output bytes per band (`predictor.py`, MobileNetV2).
    depthwise_band_bytes: int = 1 << 20
    # The predictor's fused inverted-residual block, expanded input rows plus depthwise rows
    # per band (`predictor.py`, MobileNetV2).
    inverted_residual_band_bytes: int = 2 << 20
    # The predictor's max pooling, input bytes per chunk (`predictor.py`).
    predictor_pool_chunk_bytes: int = 2 << 20
    # The predictor's conv epilogue tiles the bias to about this many values, so that adding
    # it is one long inner loop rather than one O-long loop per pixel (`predictor.py`).
    bias_run: int = 4096
    # Rows per block of the cache-blocked weight transposes of the conv kernels (`conv_ops.py`).
    transpose_block: int = 32
    # Training batch norm's NumPy passes: elements per block on one core (a block and its
    # temporaries stay in L2) and shared over the cores (fewer GIL hand-offs) (`layer_ops.py`).
    batch_norm_block_elements: int = 1 << 16
    batch_norm_shared_block_elements: int = 1 << 18
    # Pooling outputs from which max pooling is shared over the cores (`layer_ops.py`).
    pool_share_min_elements: int = 1 << 15
    # Elements from which the optimizers' updates go through BLAS scal/axpy (`layer_ops.py`).
    vector_blas_min_size: int = 1 << 17
    # The most cores work is shared out over, whatever the machine has. Set with the first
    # conv kernels and not measured beyond 2 cores yet (`train_step.py` with `--threads`).
    max_cpu_workers: int = 8
    # Rounds a GNU OpenMP thread spins before it sleeps (`GOMP_SPINCOUNT`, unless the user set a
    # wait policy): the default, about a millisecond, took cores from the next op
    # (`train_step.py`, `predictor.py`).
    openmp_spin_rounds: int = 20_000
    # A process whose OpenMP runtime a CPU predictor loads, with single-sample runs on a team of
    # at least this many cores, lets idle threads sleep at once (`OMP_WAIT_POLICY=PASSIVE`):
    # each convolution's team barrier then wakes sleeping threads instead of spinning ones
    # that, on a busy machine, hold the cores the team is waiting for. Training keeps
    # `openmp_spin_rounds` (`predictor.py` against `predictor+GOMP_SPINCOUNT=20000`;
    # `train_step.py` against `ours+OMP_WAIT_POLICY=PASSIVE`).
    passive_wait_min_team: int = 2
    # oneDNN training primitives kept, the most recently used: convolutions (each holds its
    # weight in three layouts) and batch norm shapes (`train_step.py`, ResNet-18 and
    # MobileNetV2 use fewer).
    onednn_training_convs_kept: int = 128
    onednn_batch_norms_kept: int = 64


TUNING = Tuning()
