"""bincount, histogram, histogram_bin_edges, histogramdd, bucketize, isin: NumPy reference,
PaddlePaddle parity (dtypes especially), bad input. Counts carry no gradient."""

from __future__ import annotations

import numpy as np
import pytest

import framework

RNG = np.random.default_rng(0)
V = RNG.standard_normal(50).astype(np.float32)
PTS = RNG.standard_normal((20, 2)).astype(np.float32)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


@pytest.mark.parametrize(
    "values,minlength", [([1, 1, 3], 0), ([1, 1, 3], 6), ([], 0), ([], 3), ([0, 4, 4, 2], 2)]
)
def test_bincount_matches_numpy(values, minlength):
    x = np.array(values, dtype=np.int64)
    got = framework.bincount(_t(x), minlength=minlength)
    np.testing.assert_array_equal(got.numpy(), np.bincount(x, minlength=minlength))
    assert got.dtype == np.int64
    w = np.linspace(0.5, 2.0, len(values))
    got = framework.bincount(_t(x), _t(w), minlength=minlength)
    np.testing.assert_allclose(got.numpy(), np.bincount(x, w, minlength))
    assert got.dtype == np.float64
    assert framework.bincount(_t(x, "int32"), _t(w, "float32")).dtype == np.float32
    assert framework.bincount(_t(x), _t(np.arange(len(values)))).dtype == np.float64


@pytest.mark.parametrize("bins,low,high", [(5, 0, 0), (4, -1, 1), (3, 0.5, 0.5), (1, -5, 5)])
def test_histogram_and_edges_match_numpy(bins, low, high):
    data = V.reshape(5, 10)
    lo, hi = (V.min(), V.max()) if low == high == 0 else (low, high)
    lo, hi = (lo - 1, hi + 1) if lo == hi else (lo, hi)
    counts, edges = np.histogram(V, bins, (lo, hi))
    got = framework.histogram(_t(data), bins=bins, min=low, max=high)
    np.testing.assert_array_equal(got.numpy(), counts)
    assert got.dtype == np.int64
    got_edges = framework.histogram_bin_edges(_t(data), bins=bins, min=low, max=high)
    np.testing.assert_allclose(got_edges.numpy(), edges, rtol=1e-6)
    assert got_edges.dtype == np.float32
    w = np.abs(V)
    got = framework.histogram(_t(V), bins=bins, min=low, max=high, weight=_t(w))
    np.testing.assert_allclose(
        got.numpy(), np.histogram(V, bins, (lo, hi), weights=w)[0], rtol=1e-5
    )
    got = framework.histogram(_t(V), bins=bins, min=low, max=high, density=True)
    np.testing.assert_allclose(
        got.numpy(), np.histogram(V, bins, (lo, hi), density=True)[0], rtol=1e-5
    )
    assert got.dtype == np.float32


@pytest.mark.parametrize("bins", [3, [2, 3]])
@pytest.mark.parametrize("density", [False, True])
def test_histogramdd_matches_numpy(bins, density):
    w = np.abs(PTS[:, 0])
    for ranges in (None, [-1.0, 1.0, -2.0, 2.0]):
        pairs = None if ranges is None else [(-1.0, 1.0), (-2.0, 2.0)]
        counts, edges = framework.histogramdd(_t(PTS), bins, ranges, density, _t(w))
        want, want_edges = np.histogramdd(PTS, bins, pairs, density=density, weights=w)
        np.testing.assert_allclose(counts.numpy(), want, rtol=1e-5)
        assert counts.dtype == np.float32
        for e, we in zip(edges, want_edges, strict=True):
            np.testing.assert_allclose(e.numpy(), we, rtol=1e-6)
    batched, _ = framework.histogramdd(_t(PTS.reshape(2, 10, 2)), 2)
    np.testing.assert_array_equal(batched.numpy(), np.histogramdd(PTS, 2)[0])
    edges_given = [_t([-2.0, 0.0, 2.0], "float32"), _t([-1.0, 1.0], "float32")]
    counts, _ = framework.histogramdd(_t(PTS), edges_given)
    np.testing.assert_array_equal(
        counts.numpy(), np.histogramdd(PTS, [[-2.0, 0.0, 2.0], [-1.0, 1.0]])[0]
    )


def test_bucketize_and_isin_match_numpy():
    seq = np.array([1.0, 3.0, 5.0, 7.0])
    x = np.array([[1.0, 5.0], [3.0, 9.0], [0.0, 4.0]])
    for right in (False, True):
        got = framework.bucketize(_t(x), _t(seq), right=right)
        np.testing.assert_array_equal(
            got.numpy(), np.searchsorted(seq, x, "right" if right else "left")
        )
        assert got.dtype == np.int64
    assert framework.bucketize(_t(x), _t(seq), out_int32=True).dtype == np.int32
    a, b = np.array([[1, 2], [3, 4]]), np.array([2, 4, 6])
    for invert in (False, True):
        got = framework.isin(_t(a), _t(b), invert=invert)
        np.testing.assert_array_equal(got.numpy(), np.isin(a, b, invert=invert))
        assert got.dtype == np.bool_
    assert framework.isin(_t(np.zeros((0, 2))), _t([2.0])).shape == [0, 2]


def test_counts_carry_no_gradient():
    x = framework.to_tensor(V, stop_gradient=False)
    assert framework.histogram(x, bins=3, weight=x).stop_gradient
    assert framework.histogramdd(framework.to_tensor(PTS, stop_gradient=False))[0].stop_gradient


PARITY = {
    "bincount_minlength": lambda m: m.bincount(m.to_tensor([1, 1, 3]), minlength=6),
    "bincount_float32_weights": lambda m: m.bincount(
        m.to_tensor([1, 1, 3]), m.to_tensor(np.array([0.5, 1.0, 2.0], np.float32))
    ),
    "bincount_int_weights": lambda m: m.bincount(m.to_tensor([1, 1, 3]), m.to_tensor([1, 2, 3])),
    "bincount_empty": lambda m: m.bincount(m.to_tensor(np.array([], np.int64)), minlength=3),
    "histogram_data_range": lambda m: m.histogram(m.to_tensor(V), bins=5),
    "histogram_ints": lambda m: m.histogram(m.to_tensor([1, 2, 1]), bins=4, min=0, max=3),
    "histogram_one_value": lambda m: m.histogram(m.to_tensor([1.0, 1.0]), bins=4),
    "histogram_float64_density": lambda m: m.histogram(
        m.to_tensor(V.astype(np.float64)), bins=3, density=True
    ),
    "histogram_weight": lambda m: m.histogram(
        m.to_tensor(V), bins=5, weight=m.to_tensor(V * 0 + 2)
    ),
    "histogram_bin_edges_float64": lambda m: m.histogram_bin_edges(
        m.to_tensor(V.astype(np.float64)), bins=4
    ),
    "histogram_bin_edges_ints": lambda m: m.histogram_bin_edges(m.to_tensor([1, 2, 5]), bins=4),
    "bucketize_right_int32": lambda m: m.bucketize(
        m.to_tensor([1.0, 5.0, 3.0]), m.to_tensor([1.0, 3.0, 5.0, 7.0]), True, True
    ),
    "isin_invert": lambda m: m.isin(
        m.to_tensor([[1, 2], [3, 4]]), m.to_tensor([2, 4]), invert=True
    ),
}
for _name, _kw in {
    "": {},
    "_density": {"density": True},
    "_ranges": {"ranges": [-1.0, 1, -2, 2]},
    "_weights": {"weights": "w"},
    "_batched": {"batched": True},
}.items():

    def _case(m, kw=_kw):
        kw = dict(kw)
        pts = PTS.reshape(2, 10, 2) if kw.pop("batched", False) else PTS
        if kw.get("weights"):
            kw["weights"] = m.to_tensor(np.abs(PTS[:, 0]))
        counts, edges = m.histogramdd(m.to_tensor(pts), bins=[2, 3], **kw)
        return [counts, *edges]

    PARITY["histogramdd" + _name] = _case


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    ours = ours if isinstance(ours, list) else [ours]
    theirs = theirs if isinstance(theirs, list) else [theirs]
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == list(b.shape)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match="integer tensor"):
        framework.bincount(_t([1.0, 2.0]))
    with pytest.raises(ValueError, match="1-D"):
        framework.bincount(_t([[1, 2]]))
    with pytest.raises(ValueError, match="non-negative"):
        framework.bincount(_t([-1, 2]))
    with pytest.raises(ValueError, match="weights must be"):
        framework.bincount(_t([1, 2]), _t([1.0]))
    with pytest.raises(ValueError, match="bins must be positive"):
        framework.histogram(_t(V), bins=0)
    with pytest.raises(ValueError, match="bins must be positive"):
        framework.histogram_bin_edges(_t(V), bins=0)
    with pytest.raises(ValueError, match="must not exceed"):
        framework.histogram(_t(V), min=2, max=1)
    with pytest.raises(ValueError, match="weight must have"):
        framework.histogram(_t(V), weight=_t([1.0]))
    with pytest.raises(ValueError, match="at least 2-D"):
        framework.histogramdd(_t(V))
    with pytest.raises(ValueError, match="ranges needs 4"):
        framework.histogramdd(_t(PTS), ranges=[0.0, 1.0])
    with pytest.raises(ValueError, match="weights must be"):
        framework.histogramdd(_t(PTS), weights=_t([1.0]))
    with pytest.raises(ValueError, match="1-D"):
        framework.bucketize(_t([1.0]), _t([[1.0, 2.0]]))
    with pytest.raises(TypeError, match="both be int or float"):
        framework.isin(_t([1, 2]), _t([2.0]))
