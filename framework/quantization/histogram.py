"""Histograms of |x| collected over calibration batches, and the two thresholds computed from
them: a percentile, and the KL-divergence (entropy) threshold of TensorRT / PaddleSlim.

`AbsHistogram` has a fixed number of equal, half-open bins over `[0, range)`. The range starts
just above the first batch's largest |x|; when a later batch reaches it the range doubles,
which merges pairs of bins exactly (no re-binning error), so the histogram of a stream of
batches is the histogram of their concatenation over the final range. At least half the bins
cover the data.
"""

from __future__ import annotations

import numpy as np


class AbsHistogram:
    def __init__(self, bins: int = 2048) -> None:
        if bins < 2 or bins % 2:
            raise ValueError(f"bins must be an even number >= 2, got {bins}")
        self.bins = bins
        self.counts: np.ndarray | None = None
        self.range = 0.0
        self._pending_zeros = 0  # all-zero batches seen before the range was known

    @property
    def width(self) -> float:
        return self.range / self.bins

    def add(self, magnitudes: np.ndarray, largest: float) -> None:
        """Count `magnitudes` (|x|, any shape) whose maximum is `largest`."""
        if magnitudes.size == 0:
            return
        if largest <= 0.0:
            if self.counts is None:
                self._pending_zeros += magnitudes.size
            else:
                self.counts[0] += magnitudes.size
            return
        if self.counts is None:
            self.counts = np.zeros(self.bins, dtype=np.float64)
            self.counts[0] = self._pending_zeros
            self.range = float(np.nextafter(largest, np.inf))
        while largest >= self.range:
            merged = self.counts.reshape(-1, 2).sum(axis=1)
            self.counts = np.concatenate([merged, np.zeros(self.bins // 2)])
            self.range *= 2.0
        counts, _ = np.histogram(magnitudes, bins=self.bins, range=(0.0, self.range))
        self.counts += counts

    def used(self) -> np.ndarray:
        """The counts up to the last non-empty bin."""
        if self.counts is None:
            return np.zeros(0)
        nonzero = np.flatnonzero(self.counts)
        return self.counts[: nonzero[-1] + 1] if nonzero.size else self.counts[:1]

    def percentile(self, q: float) -> float:
        """The value below which `q` percent of the counted magnitudes fall (linear within
        the bin that holds it)."""
        if self.counts is None:
            return 0.0
        cumulative = np.cumsum(self.counts)
        target = cumulative[-1] * q / 100.0
        k = int(np.searchsorted(cumulative, target))
        k = min(k, self.bins - 1)
        below = cumulative[k - 1] if k else 0.0
        fraction = (target - below) / self.counts[k] if self.counts[k] else 1.0
        return (k + min(max(fraction, 0.0), 1.0)) * self.width


def kl_threshold(hist: np.ndarray, bin_width: float, levels: int = 127) -> float:
    """The clipping threshold whose `levels`-level quantization of the histogram `hist` (of
    |x|, bins of `bin_width`) loses the least information: the KL divergence between the
    clipped reference distribution P (outliers added to its last bin) and its quantized
    expansion Q is minimised over thresholds from half the range up. The same search as
    PaddleSlim's `cal_kl_threshold` (TensorRT's entropy calibration), vectorised over the
    candidate thresholds; returns `(i + 0.5) * bin_width` for the best bin count i.
    """
    hist = np.asarray(hist, dtype=np.float64)
    n = hist.shape[0]
    start = int((n - 1) * 0.5)
    total = hist.sum()
    candidates = np.arange(max(start, 1), n)
    candidates = candidates[hist[candidates - 1] != 0]
    if candidates.size == 0 or total == 0:
        while start > 0 and hist[start] == 0:
            start -= 1
        return (start + 0.5) * bin_width
    cum = np.concatenate([[0.0], np.cumsum(hist)])
    nonzero = np.concatenate([[0], np.cumsum(hist > 0)])
    safe = np.where(hist > 0, hist, 1.0)
    h_log_h = np.concatenate([[0.0], np.cumsum(hist * np.log(safe))])

    i = candidates[:, None]  # [c, 1]
    merged = candidates[:, None] // levels
    group = np.arange(levels)[None, :]
    starts = group * merged
    ends = np.where(group == levels - 1, i, (group + 1) * merged)
    q_sums = cum[ends] - cum[starts]  # candidate Q, per group (no outliers)
    counts = nonzero[ends] - nonzero[starts]
    outliers = total - cum[candidates]
    p_sums = q_sums.copy()
    p_sums[:, -1] += outliers
    last = hist[candidates - 1] + outliers
    p_log_p = h_log_h[candidates - 1] + last * np.log(last)
    has = counts > 0
    q_level = np.where(has, q_sums / np.where(has, counts, 1), 1.0)
    cross = np.where(has & (p_sums > 0), p_sums * np.log(np.where(q_level > 0, q_level, 1.0)), 0.0)
    kl = p_log_p + total * np.log(cum[candidates]) - total * np.log(total) - cross.sum(axis=1)
    best = candidates[int(np.argmin(kl / total))]
    return (best + 0.5) * bin_width
