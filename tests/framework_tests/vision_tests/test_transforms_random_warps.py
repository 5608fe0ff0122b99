"""`RandomAffine`, `RandomPerspective` and `RandomErasing`: parameter ranges, seeded draws,
what each applies to PIL images, HWC arrays and CHW Tensors, and argument checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image

import framework
from framework.vision import transforms as T
from framework.vision.transforms import functional as F

HEIGHT, WIDTH = 40, 60


@pytest.fixture(scope="module")
def rgb() -> np.ndarray:
    return np.random.default_rng(0).integers(0, 256, (HEIGHT, WIDTH, 3)).astype(np.uint8)


def _draws(transform, image, n: int = 300) -> list:
    framework.seed(0)
    return [transform._get_params((image,)) for _ in range(n)]


# --- RandomAffine ------------------------------------------------------------------------------


def test_random_affine_draws_within_every_range(rgb):
    transform = T.RandomAffine(
        (-20, 35), translate=(0.1, 0.25), scale=(0.7, 1.2), shear=(-5, 5, 2, 8)
    )
    draws = _draws(transform, rgb)
    angles, translations, scales, shears = (np.array(column) for column in zip(*draws, strict=True))
    assert angles.min() >= -20 and angles.max() <= 35 and np.ptp(angles) > 40
    assert translations.dtype.kind == "i"
    assert np.abs(translations[:, 0]).max() <= 0.1 * WIDTH
    assert np.abs(translations[:, 1]).max() <= 0.25 * HEIGHT
    assert np.abs(translations[:, 1]).max() >= 8  # the range is used, not just 0
    assert scales.min() >= 0.7 and scales.max() <= 1.2
    assert shears[:, 0].min() >= -5 and shears[:, 0].max() <= 5
    assert shears[:, 1].min() >= 2 and shears[:, 1].max() <= 8


def test_random_affine_defaults_change_only_the_angle(rgb):
    for angle, translations, scale, shear in _draws(T.RandomAffine(10), rgb, 50):
        assert -10 <= angle <= 10
        assert translations == (0, 0) and scale == 1.0 and shear == (0.0, 0.0)
    assert _draws(T.RandomAffine(0, shear=4), rgb, 1)[0][3][1] == 0.0  # x shear only


def test_random_affine_applies_its_draw_with_functional_affine(rgb):
    transform = T.RandomAffine(30, translate=(0.2, 0.2), scale=(0.8, 1.1), shear=10, fill=5)
    framework.seed(3)
    out = transform(rgb)
    framework.seed(3)
    angle, translations, scale, shear = transform._get_params((rgb,))
    expected = F.affine(rgb, angle, translations, scale, shear, fill=5)
    assert out.shape == rgb.shape and out.dtype == np.uint8
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("kind", ["pil", "array", "tensor"], ids=["pil", "array", "tensor"])
def test_random_transforms_keep_the_kind_size_and_dtype(rgb, kind):
    image = {
        "pil": Image.fromarray(rgb),
        "array": rgb,
        "tensor": framework.to_tensor(rgb.transpose(2, 0, 1)),
    }[kind]
    for transform in (
        T.RandomAffine([-90, 90], translate=[0.2, 0.2], scale=[0.5, 0.5], shear=[-10, 10]),
        T.RandomPerspective(prob=1.0, distortion_scale=0.9),
        T.RandomErasing(prob=1.0, value="random"),
    ):
        out = transform(image)
        assert type(out) is type(image)
        if kind == "pil":
            assert out.size == image.size and out.mode == image.mode
        else:
            assert out.shape == image.shape and out.dtype == image.dtype


@pytest.mark.parametrize(
    "make",
    [
        lambda: T.RandomAffine(45, translate=(0.3, 0.3), shear=(-5, 5, -5, 5)),
        lambda: T.RandomPerspective(prob=1.0),
        lambda: T.RandomErasing(prob=1.0, value="random"),
    ],
)
def test_the_same_seed_gives_the_same_result(rgb, make):
    transform = make()
    framework.seed(11)
    first = transform(rgb)
    framework.seed(11)
    again = transform(rgb)
    framework.seed(12)
    other = transform(rgb)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"degrees": -3}, ValueError, "must be positive"),
        ({"degrees": (1, 2, 3)}, ValueError, "length 2"),
        ({"translate": (0.5, 1.5)}, ValueError, "between 0 and 1"),
        ({"translate": 0.5}, TypeError, "sequence"),
        ({"scale": (0, 1)}, ValueError, "positive"),
        ({"shear": (1, 2, 3)}, ValueError, "length 2 or 4"),
        ({"interpolation": "lanczos"}, ValueError, "interpolation"),
        ({"fill": {"r": 1}}, TypeError, "Fill"),
        ({"center": (1,)}, ValueError, "length 2"),
    ],
)
def test_random_affine_rejects_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        T.RandomAffine(**({"degrees": 10} | kwargs))


# --- RandomPerspective -------------------------------------------------------------------------


def test_random_perspective_moves_each_corner_inwards_within_the_distortion():
    transform = T.RandomPerspective(prob=1.0, distortion_scale=0.5)
    framework.seed(0)
    dx, dy = int(0.5 * (WIDTH // 2)), int(0.5 * (HEIGHT // 2))
    seen = set()
    for _ in range(300):
        start, end = transform.get_params(WIDTH, HEIGHT, 0.5)
        assert start == [[0, 0], [WIDTH - 1, 0], [WIDTH - 1, HEIGHT - 1], [0, HEIGHT - 1]]
        (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = end
        assert all(isinstance(v, int) for corner in end for v in corner)
        assert 0 <= tlx <= dx and 0 <= tly <= dy and 0 <= blx <= dx and 0 <= try_ <= dy
        assert WIDTH - dx - 1 <= trx < WIDTH and WIDTH - dx - 1 <= brx < WIDTH
        assert HEIGHT - dy - 1 <= bry < HEIGHT and HEIGHT - dy - 1 <= bly < HEIGHT
        seen.add(tlx)
    assert seen == set(range(dx + 1))


def test_random_perspective_applies_with_probability_prob(rgb):
    transform = T.RandomPerspective(prob=0.3)
    applied = [params is not None for params in _draws(transform, rgb, 2000)]
    assert np.mean(applied) == pytest.approx(0.3, abs=0.04)
    assert T.RandomPerspective(prob=0.0)(rgb) is rgb


def test_random_perspective_warps_with_functional_perspective(rgb):
    transform = T.RandomPerspective(prob=1.0, distortion_scale=0.8, interpolation="bilinear")
    framework.seed(5)
    out = transform(rgb)
    framework.seed(5)
    start, end = transform._get_params((rgb,))
    np.testing.assert_array_equal(out, F.perspective(rgb, start, end, "bilinear"))


@pytest.mark.parametrize(
    "kwargs",
    [{"prob": 1.5}, {"distortion_scale": -0.1}, {"interpolation": "box"}, {"fill": None}],
)
def test_random_perspective_rejects_bad_arguments(kwargs):
    with pytest.raises((ValueError, TypeError)):
        T.RandomPerspective(**kwargs)


# --- RandomErasing -----------------------------------------------------------------------------


def _erased_box(before: np.ndarray, after: np.ndarray) -> tuple[int, int, int, int]:
    rows, cols = np.nonzero((before != after).reshape(before.shape[0], before.shape[1], -1).any(2))
    return rows.min(), cols.min(), rows.max() - rows.min() + 1, cols.max() - cols.min() + 1


def test_random_erasing_draws_a_box_of_the_given_area_and_ratio(rgb):
    transform = T.RandomErasing(prob=1.0, scale=(0.05, 0.2), ratio=(0.5, 2.0))
    for top, left, h, w in _draws(transform, rgb):
        assert 0 <= top <= HEIGHT - h and 0 <= left <= WIDTH - w
        assert h < HEIGHT and w < WIDTH
        # the rounding of h and w to whole pixels moves area and ratio a little
        assert 0.05 * 0.6 <= h * w / (HEIGHT * WIDTH) <= 0.2 * 1.4
        assert 0.5 * 0.6 <= h / w <= 2.0 * 1.6


def test_random_erasing_fills_the_box_with_the_value(rgb):
    image = np.full((HEIGHT, WIDTH, 3), 128, np.uint8)
    framework.seed(0)
    out = T.RandomErasing(prob=1.0, value=(1, 2, 3))(image)
    framework.seed(0)
    top, left, h, w = T.RandomErasing(prob=1.0)._get_params((image,))
    expected = image.copy()
    expected[top : top + h, left : left + w] = [1, 2, 3]
    np.testing.assert_array_equal(out, expected)
    assert (image == 128).all()  # not in place by default


def test_random_erasing_on_a_tensor_zeroes_a_chw_box_in_place_when_asked():
    data = np.random.default_rng(0).random((1, 5, 5)).astype(np.float32) + 1
    x = framework.to_tensor(data)
    framework.seed(1)
    out = T.RandomErasing(prob=1.0, value=0, inplace=True)(x)
    assert out is x
    top, left, h, w = _erased_box(data.transpose(1, 2, 0), x.numpy().transpose(1, 2, 0))
    expected = data.copy()
    expected[:, top : top + h, left : left + w] = 0
    np.testing.assert_array_equal(x.numpy(), expected)


def test_random_erasing_random_values_follow_paddles_scales(rgb):
    framework.seed(0)
    tensor = framework.zeros([3, HEIGHT, WIDTH], dtype="float32")
    out = T.RandomErasing(prob=1.0, scale=(0.3, 0.3), ratio=(1, 1), value="random")(tensor)
    noise = out.numpy()[out.numpy() != 0]
    assert noise.size > 0.25 * tensor.size and abs(noise.std() - 1) < 0.1  # standard normal
    framework.seed(0)
    floats = np.zeros((HEIGHT, WIDTH, 3))
    noise = T.RandomErasing(prob=1.0, scale=(0.3, 0.3), ratio=(1, 1), value="random")(floats)
    assert abs(noise[noise != 0].std() - 255) < 25  # times 255 on arrays
    framework.seed(0)
    ints = T.RandomErasing(prob=1.0, value="random")(rgb)
    assert ints.dtype == np.uint8  # clipped into range, not wrapped


def test_random_erasing_skips_when_no_box_fits_or_prob_misses(rgb):
    assert T.RandomErasing(prob=1.0, scale=(1.0, 1.0), ratio=(1.0, 1.0))(rgb) is rgb
    assert T.RandomErasing(prob=0.0)(rgb) is rgb
    draws = _draws(T.RandomErasing(prob=0.4), rgb, 2000)
    assert np.mean([d is not None for d in draws]) == pytest.approx(0.4, abs=0.04)


def test_random_erasing_handles_single_channel_images(rgb):
    gray = rgb[:, :, 0].copy()
    for image in (gray, Image.fromarray(gray), framework.to_tensor(gray.astype(np.float32))):
        framework.seed(0)
        out = T.RandomErasing(prob=1.0, value=7)(image)
        values = np.asarray(out.numpy() if isinstance(out, framework.Tensor) else out)
        assert values.shape == gray.shape and (values == 7).sum() > 0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"scale": (0.5, 0.2)}, ValueError),
        ({"scale": 0.2}, TypeError),
        ({"ratio": (2.0, 1.0)}, ValueError),
        ({"prob": -0.1}, ValueError),
        ({"value": "noise"}, ValueError),
        ({"value": (1, 2)}, ValueError),
        ({"value": None}, TypeError),
    ],
)
def test_random_erasing_rejects_bad_arguments(kwargs, error):
    with pytest.raises(error):
        T.RandomErasing(**kwargs)


def test_the_transforms_are_in_paddles_namespaces():
    import framework.vision as vision

    for name in ("RandomAffine", "RandomPerspective", "RandomErasing"):
        assert getattr(vision, name) is getattr(T, name)
    assert math.isfinite(T.RandomAffine(5)._get_params((np.zeros((4, 4)),))[0])
