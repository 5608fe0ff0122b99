"""Transform classes: deterministic ones against Paddle's, random ones seeded and in range."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import framework
from framework.vision import transforms as T
from framework.vision.transforms import functional as F

skdata = pytest.importorskip("skimage.data")


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return np.ascontiguousarray(skdata.astronaut()[::8, ::6])  # 64 x 86 x 3


@pytest.fixture(scope="module")
def paddle_T():
    return pytest.importorskip("paddle.vision.transforms")


def values(img) -> np.ndarray:
    return img.numpy() if isinstance(img, framework.Tensor) else np.asarray(img)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("Resize", {"size": 40}),
        ("Resize", {"size": (30, 50), "interpolation": "bicubic"}),
        ("CenterCrop", {"size": 33}),
        ("Pad", {"padding": [1, 2, 3, 4], "padding_mode": "reflect"}),
        ("Grayscale", {"num_output_channels": 3}),
        ("ToTensor", {}),
        ("ToTensor", {"data_format": "HWC"}),
        ("Transpose", {}),
        ("RandomHorizontalFlip", {"prob": 1.0}),
        ("RandomVerticalFlip", {"prob": 1.0}),
        ("RandomHorizontalFlip", {"prob": 0.0}),
    ],
)
def test_deterministic_transforms_match_paddle(photo, paddle_T, name, kwargs):
    ours = getattr(T, name)(**kwargs)(Image.fromarray(photo))
    theirs = getattr(paddle_T, name)(**kwargs)(Image.fromarray(photo))
    np.testing.assert_array_equal(values(ours), values(theirs))


def test_imagenet_pipeline_matches_paddle(photo, paddle_T):
    def pipeline(t):
        return t.Compose(
            [
                t.Resize(48),
                t.CenterCrop(40),
                t.ToTensor(),
                t.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
            ]
        )

    ours = pipeline(T)(Image.fromarray(photo))
    theirs = pipeline(paddle_T)(Image.fromarray(photo))
    assert isinstance(ours, framework.Tensor) and ours.shape == [3, 40, 40]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)


RANDOM = [
    T.RandomResizedCrop(24),
    T.RandomCrop(20, padding=2),
    T.RandomHorizontalFlip(),
    T.RandomVerticalFlip(),
    T.RandomRotation(40),
    T.ColorJitter(0.4, 0.4, 0.4, 0.1),
]


@pytest.mark.parametrize("transform", RANDOM, ids=lambda t: type(t).__name__)
@pytest.mark.parametrize("kind", ["pil", "numpy"])
def test_random_transforms_are_repeatable_with_a_seed(photo, transform, kind):
    image = Image.fromarray(photo) if kind == "pil" else photo

    def run(seed):
        framework.seed(seed)
        return [values(transform(image)) for _ in range(6)]

    first, again, other = run(1), run(1), run(2)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert any(
        a.shape != c.shape or not np.array_equal(a, c) for a, c in zip(first, other, strict=True)
    )
    assert any(not np.array_equal(first[0], f) for f in first[1:])  # draws vary between calls


@pytest.mark.parametrize("kind", ["pil", "numpy"])
def test_pil_and_numpy_inputs_give_the_same_random_output(photo, kind):
    pipeline = T.Compose(
        [T.RandomResizedCrop(32), T.RandomHorizontalFlip(), T.ColorJitter(0.3, 0.3, 0.3, 0.05)]
    )
    framework.seed(4)
    from_pil = [np.asarray(pipeline(Image.fromarray(photo))) for _ in range(4)]
    framework.seed(4)
    from_numpy = [pipeline(photo) for _ in range(4)]
    for a, b in zip(from_pil, from_numpy, strict=True):
        np.testing.assert_array_equal(a, b)


def test_random_resized_crop_respects_scale_and_ratio(photo):
    transform = T.RandomResizedCrop(16, scale=(0.2, 0.5), ratio=(0.5, 2.0))
    area = photo.shape[0] * photo.shape[1]
    for _ in range(200):
        top, left, h, w = transform._get_params((photo,))
        assert 0 <= top <= photo.shape[0] - h and 0 <= left <= photo.shape[1] - w
        assert 0.2 * area * 0.8 <= h * w <= 0.5 * area * 1.2  # rounding of h and w
        assert 0.5 / 1.3 <= w / h <= 2.0 * 1.3
    assert transform(photo).shape == (16, 16, 3)


def test_random_resized_crop_falls_back_to_a_central_crop(photo):
    # no crop of 100% of the area has aspect ratio 4..5, so after 10 tries: centre, ratio 4
    transform = T.RandomResizedCrop((8, 32), scale=(1.0, 1.0), ratio=(4.0, 5.0))
    top, left, h, w = transform._get_params((photo,))
    assert (w, h) == (86, round(86 / 4)) and top == (64 - h) // 2 and left == 0
    expected = F.resize(F.crop(photo, top, left, h, w), (8, 32))
    np.testing.assert_array_equal(transform(photo), expected)


def test_random_crop_padding_and_pad_if_needed(photo):
    framework.seed(0)
    out = T.RandomCrop(70, pad_if_needed=True, fill=5)(photo)
    assert out.shape == (70, 70, 3)
    framework.seed(0)
    same = T.RandomCrop((70, 70), pad_if_needed=True, fill=5)(Image.fromarray(photo))
    np.testing.assert_array_equal(out, np.asarray(same))
    with pytest.raises(ValueError, match="larger than the image"):
        T.RandomCrop(100)(photo)
    full = T.RandomCrop((64, 86))(photo)
    np.testing.assert_array_equal(full, photo)
    exact = T.RandomCrop((70, 92), padding=3, padding_mode="edge")(photo)  # the padded size
    np.testing.assert_array_equal(exact, F.pad(photo, 3, padding_mode="edge"))
    doubled = T.RandomCrop((80, 86), pad_if_needed=True)  # pads 16 rows on both sides
    assert doubled._padded_size(photo) == (86, 96)


def test_flip_probability(photo):
    framework.seed(0)
    flips = [np.array_equal(T.RandomHorizontalFlip(0.3)(photo), photo[:, ::-1]) for _ in range(400)]
    assert 0.22 < np.mean(flips) < 0.38


def test_random_rotation_draws_angles_in_range(photo):
    transform = T.RandomRotation((10, 20), interpolation="bilinear", fill=0)
    angles = [transform._get_params((photo,)) for _ in range(100)]
    assert 10 <= min(angles) and max(angles) <= 20
    framework.seed(3)
    out = transform(photo)
    framework.seed(3)
    angle = transform._get_params((photo,))
    np.testing.assert_array_equal(out, F.rotate(photo, angle, "bilinear", fill=0))
    with pytest.raises(ValueError):
        T.RandomRotation(-5)


def test_color_jitter_with_fixed_ranges_applies_exact_factors(photo):
    np.testing.assert_array_equal(T.ColorJitter()(photo), photo)
    np.testing.assert_array_equal(
        T.ColorJitter(brightness=(0.5, 0.5))(photo), F.adjust_brightness(photo, 0.5)
    )
    np.testing.assert_array_equal(T.HueTransform((0.25, 0.25))(photo), F.adjust_hue(photo, 0.25))
    with pytest.raises(ValueError):
        T.HueTransform((0.2, 0.7))
    with pytest.raises(TypeError):
        T.BrightnessTransform("a lot")


def test_a_random_draw_is_shared_by_every_key(photo):
    mask = photo[:, :, 0].copy()
    transform = T.RandomResizedCrop(20, keys=("image", "image"))
    for _ in range(5):
        image_out, mask_out = transform((photo, mask))
        np.testing.assert_array_equal(image_out[:, :, 0], mask_out)


def test_extra_inputs_pass_through_and_unknown_keys_are_rejected(photo):
    image, label = T.Resize(20)((photo, 7))
    assert image.shape[0] == 20 and label == 7
    with pytest.raises(NotImplementedError, match="unsupported"):
        T.Resize(20, keys=("depth",))


def test_compose_names_the_failing_transform(photo):
    with pytest.raises(ValueError) as info:
        T.Compose(
            [
                T.Resize(20),
                T.Pad(1, padding_mode="constant"),
                T.Normalize(0, 1, to_rgb=True, data_format="bad"),
            ]
        )(photo[:, :, :2])
    assert any("Normalize" in note for note in info.value.__notes__)


def test_normalize_and_to_tensor_classes(photo):
    tensor = T.ToTensor()(photo)
    out = T.Normalize(mean=0.5, std=0.25)(tensor)
    np.testing.assert_allclose(
        out.numpy(), (photo.transpose(2, 0, 1) / 255 - 0.5) / 0.25, atol=1e-6
    )
    assert "Normalize" in repr(T.Compose([T.Normalize()]))
