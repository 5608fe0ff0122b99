"""Shape ops: reshape, squeeze/unsqueeze, flatten, transpose, concat/stack/split, broadcasting,
tile, flip/roll, triangles and diagonals, casts and copies."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


def _rand(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _torch_parity(ours, theirs, *arrays, rtol=1e-5, atol=1e-6):
    """Forward and input gradients of `ours` and `theirs` (PyTorch) agree in float32."""
    torch = pytest.importorskip("torch")
    arrays = [a.astype(np.float32) for a in arrays]
    xs = [framework.to_tensor(a, stop_gradient=False) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    y, yt = ours(*xs), theirs(*ts)
    g = np.random.default_rng(7).standard_normal(y.shape).astype(np.float32)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=rtol, atol=atol)
    for x, t in zip(xs, ts, strict=True):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=rtol, atol=atol)


# --- reshape family ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,target,expected",
    [
        ((2, 3, 4), [0, -1], (2, 12)),
        ((2, 3, 4), [-1], (24,)),
        ((2, 3, 4), (4, 0, 2), (4, 3, 2)),
        ((6,), [2, 3], (2, 3)),
        ((0, 3), [-1, 3], (0, 3)),
        ((1,), [], ()),
    ],
)
def test_reshape_follows_paddle_rules(shape, target, expected):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = framework.reshape(framework.to_tensor(x), target)
    assert tuple(got.shape) == expected
    np.testing.assert_array_equal(got.numpy(), x.reshape(expected))


def test_reshape_accepts_a_shape_tensor_and_the_method_form():
    x = framework.to_tensor(np.arange(6.0))
    assert framework.reshape(x, framework.to_tensor([3, 2])).shape == [3, 2]
    assert x.reshape([2, framework.to_tensor(3)]).shape == [2, 3]


def test_reshape_errors_name_both_shapes():
    x = framework.ones([2, 3])
    with pytest.raises(ValueError, match=r"shape \[2, 3\] \(6 elements\) to \[4\]"):
        framework.reshape(x, [4])
    with pytest.raises(ValueError, match="only one -1"):
        framework.reshape(x, [-1, -1])


def test_reshape_gradients():
    check_backward(lambda x: framework.reshape(x, [3, -1]), [_rand(2, 3)])
    check_double_backward(lambda x: framework.reshape(x * x, [-1]), [_rand(2, 3)])


def test_reshape_in_place_rebinds_and_refuses_leaves():
    w = framework.to_tensor(_rand(2, 3), stop_gradient=False)
    x = w * 2.0
    framework.reshape_(x, [3, 2])
    assert x.shape == [3, 2]
    x.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full((2, 3), 2.0))
    with pytest.raises(RuntimeError, match="inplace"):
        w.reshape_([6])
    c = framework.ones([2, 2])
    c.unsqueeze_(0)
    c.squeeze_()
    c.flatten_()
    assert c.shape == [4]


@pytest.mark.parametrize(
    "axis,expected",
    [(None, (3, 4)), (1, (3, 4, 1)), (-1, (3, 1, 4)), ([0, 1], (3, 4, 1)), (2, (3, 1, 4, 1))],
)
def test_squeeze_drops_only_size_one_dims(axis, expected):
    x = framework.ones([3, 1, 4, 1])
    assert tuple(framework.squeeze(x, axis).shape) == expected


@pytest.mark.parametrize(
    "axis,expected",
    [(0, (1, 3, 4)), (-1, (3, 4, 1)), ([0, 2], (1, 3, 1, 4)), ([2, 0], (1, 3, 4, 1))],
)
def test_unsqueeze_inserts_one_after_another_like_paddle(axis, expected):
    assert tuple(framework.unsqueeze(framework.ones([3, 4]), axis).shape) == expected


@pytest.mark.parametrize(
    "shape,start,stop,expected",
    [((2, 3, 4, 5), 1, -1, (2, 60)), ((2, 3, 4), 0, 1, (6, 4)), ((), 0, -1, (1,))],
)
def test_flatten(shape, start, stop, expected):
    assert tuple(framework.flatten(framework.ones(list(shape)), start, stop).shape) == expected


def test_squeeze_unsqueeze_flatten_gradients():
    check_backward(lambda x: framework.squeeze(framework.unsqueeze(x, [0, 3]), 0), [_rand(2, 3)])
    check_backward(lambda x: framework.flatten(x, 1), [_rand(2, 2, 2)])


# --- transpose family --------------------------------------------------------------------------


@pytest.mark.parametrize("perm", [[1, 0, 2], [2, 0, 1], [0, 1, 2], [-1, 0, 1]])
def test_transpose_matches_numpy_and_torch(perm):
    x = _rand(2, 3, 4)
    got = framework.transpose(framework.to_tensor(x), perm)
    np.testing.assert_array_equal(got.numpy(), np.transpose(x, [p % 3 for p in perm]))
    check_backward(lambda t: framework.transpose(t, perm), [_rand(2, 3, 2)])
    _torch_parity(
        lambda t: framework.transpose(t, perm),
        lambda t: t.permute(*[p % 3 for p in perm]),
        x,
    )


def test_transpose_rejects_a_bad_permutation():
    with pytest.raises(ValueError, match="not a permutation"):
        framework.transpose(framework.ones([2, 3]), [0, 0])


def test_t_T_mT_and_moveaxis():
    x = framework.to_tensor(_rand(2, 3, 4))
    assert x.T.shape == [4, 3, 2]
    assert x.mT.shape == [2, 4, 3]
    assert framework.t(framework.ones([2, 3])).shape == [3, 2]
    assert framework.t(framework.ones([3])).shape == [3]
    with pytest.raises(ValueError):
        framework.t(x)
    np.testing.assert_array_equal(
        framework.moveaxis(x, [0, 1], [2, 0]).numpy(), np.moveaxis(x.numpy(), [0, 1], [2, 0])
    )
    check_backward(lambda t: framework.moveaxis(t, 0, -1), [_rand(2, 3, 2)])


# --- join and split ----------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_forward_backward_and_torch(axis):
    a, b = _rand(2, 3), _rand(2, 3, seed=1)
    got = framework.concat([framework.to_tensor(a), framework.to_tensor(b)], axis=axis)
    np.testing.assert_array_equal(got.numpy(), np.concatenate([a, b], axis=axis))
    check_backward(lambda x, y: framework.concat([x, y, x], axis=axis), [a, b])
    check_double_backward(lambda x, y: framework.concat([x * y, y], axis=axis), [a, b])
    _torch_parity(
        lambda x, y: framework.concat([x, y], axis),
        lambda x, y: __import__("torch").cat([x, y], axis),
        a,
        b,
    )


def test_concat_with_an_empty_part_and_a_frozen_part():
    a = framework.to_tensor(_rand(0, 3), stop_gradient=False)
    b = framework.to_tensor(_rand(2, 3), stop_gradient=False)
    c = framework.to_tensor(_rand(1, 3))
    out = framework.concat([a, b, c])
    assert out.shape == [3, 3]
    out.sum().backward()
    assert a.grad.shape == [0, 3] and b.grad.numpy().sum() == 6.0 and c.grad is None


def test_concat_errors_name_the_shapes_and_dtypes():
    with pytest.raises(ValueError, match=r"\[2, 3\] and \[2, 4\] differ outside axis 0"):
        framework.concat([framework.ones([2, 3]), framework.ones([2, 4])])
    with pytest.raises(TypeError, match="same dtype"):
        framework.concat([framework.ones([2]), framework.ones([2], dtype="int64")])


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack_and_unbind(axis):
    a, b = _rand(2, 3), _rand(2, 3, seed=1)
    got = framework.stack([framework.to_tensor(a), framework.to_tensor(b)], axis=axis)
    np.testing.assert_array_equal(got.numpy(), np.stack([a, b], axis=axis))
    parts = framework.unbind(got, axis=axis)
    np.testing.assert_array_equal(parts[1].numpy(), b)
    check_backward(lambda x, y: framework.stack([x, y], axis=axis), [a, b])
    check_backward(lambda x: framework.unbind(x, axis=axis % 2)[1], [a])
    check_double_backward(lambda x: framework.stack([x * x, x], axis=axis), [a])


@pytest.mark.parametrize(
    "sections,expected",
    [(3, [2, 2, 2]), ([1, 5], [1, 5]), ([2, -1, 1], [2, 3, 1]), ([6], [6]), ([0, 6], [0, 6])],
)
def test_split_sizes(sections, expected):
    parts = framework.split(framework.ones([6, 2]), sections)
    assert [p.shape[0] for p in parts] == expected


def test_split_and_chunk_gradients_and_torch():
    x = _rand(4, 6)
    check_backward(lambda t: framework.split(t, [1, -1, 2], axis=1), [x])
    check_backward(lambda t: framework.chunk(t, 2, axis=0)[1], [x])
    check_double_backward(lambda t: framework.split(t * t, 3, axis=1), [x])
    _torch_parity(
        lambda t: framework.split(t, [1, 3, 2], axis=1)[1] * 2.0,
        lambda t: t.split([1, 3, 2], dim=1)[1] * 2.0,
        x,
    )


def test_split_errors():
    with pytest.raises(ValueError, match="evenly divisible"):
        framework.split(framework.ones([7, 2]), 3)
    with pytest.raises(ValueError, match="sum to 5"):
        framework.split(framework.ones([7, 2]), [2, 3])


# --- broadcasting helpers ----------------------------------------------------------------------


def test_expand_as_broadcast_tensors_meshgrid():
    x = framework.to_tensor(_rand(3, 1), stop_gradient=False)
    y = framework.ones([2, 3, 4])
    assert framework.expand_as(x, y).shape == [2, 3, 4]
    a, b = framework.broadcast_tensors([x, framework.ones([4])])
    assert a.shape == b.shape == [3, 4]
    g1, g2 = framework.meshgrid(framework.arange(2), framework.arange(3))
    e1, e2 = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
    np.testing.assert_array_equal(g1.numpy(), e1)
    np.testing.assert_array_equal(g2.numpy(), e2)
    assert [t.shape for t in framework.meshgrid([framework.ones([2]), framework.ones([5])])] == [
        [2, 5],
        [2, 5],
    ]
    check_backward(lambda t: framework.expand_as(t, y), [_rand(3, 1)])
    check_backward(
        lambda p, q: framework.meshgrid(p, q)[0] * framework.meshgrid(p, q)[1], [_rand(2), _rand(3)]
    )


# --- tile and repeat_interleave ----------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,reps", [((2, 3), [2, 1]), ((3,), [2, 2]), ((2, 1, 2), [3]), ((0, 2), [2, 2])]
)
def test_tile(shape, reps):
    x = _rand(*shape)
    got = framework.tile(framework.to_tensor(x), reps)
    np.testing.assert_array_equal(got.numpy(), np.tile(x, reps))
    if x.size:
        check_backward(lambda t: framework.tile(t, reps), [x])
        check_double_backward(lambda t: framework.tile(t * t, reps), [x])
        _torch_parity(lambda t: framework.tile(t, reps), lambda t: t.tile(reps), x)


@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (2, -1), ([1, 0, 2], 1)])
def test_repeat_interleave(repeats, axis):
    x = _rand(2, 3)
    r = framework.to_tensor(repeats) if isinstance(repeats, list) else repeats
    got = framework.repeat_interleave(framework.to_tensor(x), r, axis)
    np.testing.assert_array_equal(got.numpy(), np.repeat(x, repeats, axis))
    check_backward(lambda t: framework.repeat_interleave(t, r, axis), [x])
    torch = pytest.importorskip("torch")
    rt = torch.tensor(repeats) if isinstance(repeats, list) else repeats
    _torch_parity(
        lambda t: framework.repeat_interleave(t, r, axis),
        lambda t: t.repeat_interleave(rt, dim=axis),
        x,
    )


# --- flip, roll --------------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, [0, 1], -1])
def test_flip(axis):
    x = _rand(2, 3)
    np.testing.assert_array_equal(
        framework.flip(framework.to_tensor(x), axis).numpy(), np.flip(x, axis)
    )
    check_backward(lambda t: framework.flip(t, axis), [x])
    dims = [axis] if isinstance(axis, int) else axis
    _torch_parity(lambda t: framework.flip(t, axis), lambda t: t.flip(dims), x)


@pytest.mark.parametrize("shifts,axis", [(1, None), (-2, 0), ([1, 2], [0, 1]), (5, 1)])
def test_roll(shifts, axis):
    x = _rand(3, 4)
    np.testing.assert_array_equal(
        framework.roll(framework.to_tensor(x), shifts, axis).numpy(), np.roll(x, shifts, axis)
    )
    check_backward(lambda t: framework.roll(t, shifts, axis), [x])
    _torch_parity(lambda t: framework.roll(t, shifts, axis), lambda t: t.roll(shifts, axis), x)


# --- triangles and diagonals -------------------------------------------------------------------


@pytest.mark.parametrize("diagonal", [0, 1, -1])
@pytest.mark.parametrize("upper", [False, True])
def test_tril_triu(diagonal, upper):
    x = _rand(2, 3, 4)
    ours = framework.triu if upper else framework.tril
    ref = np.triu if upper else np.tril
    np.testing.assert_array_equal(ours(framework.to_tensor(x), diagonal).numpy(), ref(x, diagonal))
    check_backward(lambda t: ours(t, diagonal), [x])
    name = "triu" if upper else "tril"
    _torch_parity(lambda t: ours(t, diagonal), lambda t: getattr(t, name)(diagonal), x)


@pytest.mark.parametrize("offset", [0, 1, -2])
def test_diag_both_ways(offset):
    v = _rand(3)
    got = framework.diag(framework.to_tensor(v), offset=offset, padding_value=9.0)
    expected = np.diag(v, offset)
    expected[expected == 0] = 9.0
    np.testing.assert_array_equal(got.numpy(), expected)
    m = _rand(3, 4)
    np.testing.assert_array_equal(
        framework.diag(framework.to_tensor(m), offset).numpy(), np.diag(m, offset)
    )
    check_backward(lambda t: framework.diag(t, offset), [v])
    check_backward(lambda t: framework.diag(t, offset), [m])
    check_double_backward(lambda t: framework.diag(t * t, offset), [m])
    torch = pytest.importorskip("torch")
    _torch_parity(lambda t: framework.diag(t, offset), lambda t: torch.diag(t, offset), m)


# --- casts and copies --------------------------------------------------------------------------


def test_cast_between_floats_is_differentiable_and_to_int_is_not():
    x = framework.to_tensor([1.7, -2.2], stop_gradient=False)
    y = framework.cast(x, "float64")
    assert y.dtype == np.float64
    (y * y).sum().backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_allclose(x.grad.numpy(), [3.4, -4.4], rtol=1e-6)
    i = x.astype("int32")
    assert i.dtype == np.int32 and i.stop_gradient and i.numpy().tolist() == [1, -2]
    assert x.cast(framework.float32) is x
    check_double_backward(lambda t: framework.cast(t, "float32") * 1.0, [_rand(3)], atol=1e-3)


def test_clone_copies_memory_and_passes_gradients():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    c = x.clone()
    assert c._data is not x._data and not np.shares_memory(c._data, x._data)
    (c * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_numel_is_an_int64_tensor():
    n = framework.numel(framework.ones([2, 3]))
    assert n.dtype == np.int64 and n.shape == [] and n.item() == 6


def test_to_place_is_identity_on_the_same_device_and_cpu_works():
    x = framework.to_tensor([1.0], stop_gradient=False)
    assert x.cpu() is x
    assert framework.ops.manipulation.to_place(x, "cpu") is x


@pytest.mark.gpu
def test_to_place_round_trip_carries_gradients():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x.cuda()
    assert y.place.is_gpu_place()
    (y.cpu() * 2.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
