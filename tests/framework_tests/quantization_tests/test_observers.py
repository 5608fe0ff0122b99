"""Observers and weight quantization against reference values: abs-max, percentiles of known
distributions, the KL threshold against PaddleSlim's algorithm, per-channel error bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from framework.quantization import (
    AbsHistogram,
    AbsmaxObserver,
    KLObserver,
    PercentileObserver,
    PerChannelAbsmaxObserver,
    kl_threshold,
)


def test_absmax_observer_keeps_the_largest_magnitude_over_batches() -> None:
    observer = AbsmaxObserver()
    observer.observe(np.array([[0.5, -3.0], [1.0, 2.0]]))
    observer.observe(np.array([2.5, -1.0]))
    assert observer.threshold() == 3.0
    scale, zero = observer.quant_params()
    assert scale.dtype == np.float32 and zero.dtype == np.int8
    assert float(scale) == pytest.approx(3.0 / 127) and int(zero) == 0


def test_non_negative_tensors_get_all_256_levels() -> None:
    observer = AbsmaxObserver()
    observer(np.array([0.0, 0.25, 5.1]))
    scale, zero = observer.quant_params()
    assert float(scale) == pytest.approx(5.1 / 255) and int(zero) == -128


@pytest.mark.parametrize("percentile", [99.0, 99.9, 99.99])
@pytest.mark.parametrize("dist", ["normal", "laplace", "relu"])
def test_percentile_observer_matches_numpy_within_a_bin(percentile, dist) -> None:
    rng = np.random.default_rng(1)
    batches = []
    for k in range(4):  # growing ranges: the histogram doubles its range on the way
        x = {"normal": rng.normal, "laplace": rng.laplace}.get(dist, rng.normal)(size=40_000)
        x = np.maximum(x, 0) if dist == "relu" else x
        batches.append(x * (1.0 + k))
    observer = PercentileObserver(percentile)
    for x in batches:
        observer.observe(x.astype(np.float32))
    exact = np.percentile(np.abs(np.concatenate(batches)), percentile)
    width = observer.histogram.width
    assert observer.histogram.range >= np.abs(np.concatenate(batches)).max()
    assert abs(observer.threshold() - exact) <= width, (observer.threshold(), exact, width)


def test_streamed_histogram_equals_the_histogram_of_all_data() -> None:
    rng = np.random.default_rng(2)
    batches = [np.abs(rng.normal(size=5000)) * s for s in (1.0, 3.0, 0.5, 9.0)]
    histogram = AbsHistogram(256)
    for x in batches:
        histogram.add(x, float(x.max()))
    everything, _ = np.histogram(np.concatenate(batches), bins=256, range=(0, histogram.range))
    np.testing.assert_array_equal(histogram.counts, everything)


def _kl_reference(hist: np.ndarray, bin_width: float, bits: int) -> float:
    """PaddleSlim's `cal_kl_threshold` (paddle/static/quantization/cal_kl_threshold.py),
    transliterated loop for loop: the independent reference for the vectorised search."""
    hist_bins = hist.shape[0]
    starting_iter = int((hist_bins - 1) * 0.5)
    quant_range = 2 ** (bits - 1) - 1
    p_sum = float(np.sum(hist))
    best, best_index = None, 0
    for i in range(starting_iter, hist_bins):
        reference = hist[0:i].tolist()
        if reference[i - 1] == 0:
            continue
        reference[i - 1] += float(sum(hist[i:]))
        candidate = hist[0:i].tolist()
        merged = int(i / quant_range)
        quantized = [0.0] * quant_range
        for idx in range(quant_range):
            start = idx * merged
            end = i if idx == quant_range - 1 else start + merged
            quantized[idx] = sum(candidate[start:end])
        expanded = [0.0] * i
        for idx in range(quant_range):
            start = idx * merged
            end = i if idx == quant_range - 1 else start + merged
            nonzero = sum(1 for v in reference[start:end] if v != 0)
            for k in range(start, end):
                expanded[k] = quantized[idx] / nonzero if reference[k] != 0 else 0.0
        q_sum = sum(expanded)
        kl = sum(
            p * (math.log(q_sum * p) - math.log(p_sum * q))
            for p, q in zip(reference, expanded, strict=True)
            if p != 0
        )
        kl /= p_sum
        if best is None or kl < best:
            best, best_index = kl, i
    return (best_index + 0.5) * bin_width


@pytest.mark.parametrize("dist", ["normal", "laplace", "uniform", "bimodal"])
@pytest.mark.parametrize("bits", [8, 9])
def test_kl_threshold_equals_paddleslims_search(dist, bits) -> None:
    rng = np.random.default_rng(3)
    samples = {
        "normal": lambda: rng.normal(size=50_000),
        "laplace": lambda: rng.laplace(size=50_000),
        "uniform": lambda: rng.uniform(-1, 1, size=50_000),
        "bimodal": lambda: np.concatenate([rng.normal(size=40_000), 6 + rng.normal(size=800)]),
    }[dist]()
    magnitudes = np.abs(samples)
    hist, _ = np.histogram(magnitudes, bins=512, range=(0, magnitudes.max()))
    width = magnitudes.max() / 512
    ours = kl_threshold(hist, width, 2 ** (bits - 1) - 1)
    assert ours == pytest.approx(_kl_reference(hist.astype(np.float64), width, bits), rel=1e-12)


# What PaddlePaddle 3.3's `paddle.static.quantization.cal_kl_threshold(hist, width, bits)`
# returns for these deterministic 2048-bin histograms (recorded: importing paddle takes ~30 s).
_CENTRES = np.arange(2048) + 0.5
_PADDLE_KL = [
    ("gauss", np.rint(1e7 * np.exp(-0.5 * (_CENTRES * 6 / 2048) ** 2)), 6 / 2048, 8, 4.83544921875),
    ("gauss", np.rint(1e7 * np.exp(-0.5 * (_CENTRES * 6 / 2048) ** 2)), 6 / 2048, 9, 5.02001953125),
    ("laplace", np.rint(1e7 * np.exp(-_CENTRES * 12 / 2048)), 12 / 2048, 8, 11.1591796875),
    ("laplace", np.rint(1e7 * np.exp(-_CENTRES * 12 / 2048)), 12 / 2048, 9, 11.9501953125),
    ("uniform", np.full(2048, 1000.0), 1 / 2048, 8, 0.999755859375),
]


@pytest.mark.parametrize("name, hist, width, bits, expected", _PADDLE_KL, ids=lambda v: str(v)[:8])
def test_kl_threshold_reproduces_paddles_values(name, hist, width, bits, expected) -> None:
    assert kl_threshold(hist, width, 2 ** (bits - 1) - 1) == expected


def test_kl_threshold_clips_the_tails_of_a_gaussian_but_not_a_uniform() -> None:
    rng = np.random.default_rng(4)
    gaussian = KLObserver()
    gaussian.observe(rng.normal(size=200_000))
    assert 2.5 < gaussian.threshold() < 0.95 * gaussian.abs_max
    uniform = KLObserver()
    uniform.observe(rng.uniform(-1, 1, size=200_000))
    assert uniform.threshold() > 0.99 * uniform.abs_max


def test_kl_observer_over_one_batch_searches_numpys_histogram() -> None:
    x = np.random.default_rng(5).laplace(size=30_000)
    observer = KLObserver(bins=1024)
    observer.observe(x)
    width = observer.histogram.width
    hist, _ = np.histogram(np.abs(x), bins=1024, range=(0, observer.histogram.range))
    assert observer.threshold() == kl_threshold(hist, width, 127)


@pytest.mark.parametrize("shape, axis", [((16, 3, 3, 3), 0), ((120, 84), 1), ((5, 7), 0)])
def test_per_channel_weights_round_to_within_half_a_step(shape, axis) -> None:
    rng = np.random.default_rng(6)
    weight = rng.normal(size=shape) * rng.uniform(0.01, 2.0, size=shape[axis]).reshape(
        [-1 if i == axis else 1 for i in range(len(shape))]
    )
    q, scale = PerChannelAbsmaxObserver().quantize_weight(weight.astype(np.float32), axis)
    assert q.dtype == np.int8 and q.shape == shape and scale.shape == (shape[axis],)
    others = tuple(i for i in range(len(shape)) if i != axis)
    np.testing.assert_allclose(scale, np.abs(weight).max(axis=others) / 127, rtol=1e-6)
    steps = np.reshape(scale, [-1 if i == axis else 1 for i in range(len(shape))])
    error = np.abs(weight - q * steps)
    assert np.all(error <= steps / 2 * (1 + 1e-5))
    assert np.all(np.abs(q).max(axis=others) == 127)  # every channel uses the full range
    # per-tensor scales are never finer, and much coarser for the small channels
    q_t, scale_t = AbsmaxObserver().quantize_weight(weight.astype(np.float32), axis)
    assert scale_t.shape == (1,) and np.all(scale <= scale_t[0] * (1 + 1e-6))
    assert error.max(axis=others).mean() < np.abs(weight - q_t * scale_t).max(axis=others).mean()


def test_all_zero_channels_quantize_to_zero() -> None:
    weight = np.zeros((3, 4), np.float32)
    weight[1] = [0.5, -1.0, 0.25, 0.0]
    q, scale = PerChannelAbsmaxObserver().quantize_weight(weight, 0)
    assert np.all(q[[0, 2]] == 0) and np.all(scale > 0)
    assert q[1].tolist() == [64, -127, 32, 0]  # 63.5 rounds half to even


def test_observers_refuse_other_bit_widths_and_empty_statistics() -> None:
    with pytest.raises(ValueError, match="8-bit"):
        AbsmaxObserver(quant_bits=4)
    with pytest.raises(ValueError, match="percentile"):
        PercentileObserver(percentile=0.0)
    with pytest.raises(RuntimeError, match="calibration"):
        PercentileObserver().quant_params()


def test_fresh_keeps_settings_and_drops_statistics() -> None:
    prototype = PercentileObserver(99.9, bins=512)
    prototype.observe(np.ones(4))
    copy = prototype.fresh()
    assert repr(copy) == "PercentileObserver(percentile=99.9, quant_bits=8, bins=512)"
    assert copy.count == 0 and copy.histogram.counts is None
