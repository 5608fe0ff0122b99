"""Functional transforms: PIL results against Paddle's PIL functions, NumPy uint8 results
against PIL, float NumPy and CHW Tensor results against NumPy references."""

from __future__ import annotations

import colorsys

import numpy as np
import pytest
from PIL import Image

import framework
from framework.vision.transforms import functional as F

skdata = pytest.importorskip("skimage.data")


@pytest.fixture(scope="module")
def rgb() -> np.ndarray:
    # a 37x53 patch of a photo: odd sizes catch rounding in crops and resizes
    return np.ascontiguousarray(skdata.coffee()[100:137, 200:253])


@pytest.fixture(scope="module")
def gray() -> np.ndarray:
    return np.ascontiguousarray(skdata.camera()[200:231, 150:193])


@pytest.fixture(scope="module")
def paddle_F():
    return pytest.importorskip("paddle.vision.transforms.functional")


def as_array(img) -> np.ndarray:
    if isinstance(img, framework.Tensor):
        return img.numpy()
    return np.asarray(img)


CASES = [
    ("resize", (20,), {}),
    ("resize", (60,), {"interpolation": "bicubic"}),
    ("resize", ((17, 29),), {"interpolation": "nearest"}),
    ("resize", ((40, 80),), {"interpolation": "lanczos"}),
    ("pad", (3,), {}),
    ("pad", ((2, 5),), {"fill": (9, 9, 9)}),
    ("pad", ((1, 2, 3, 4),), {"padding_mode": "reflect"}),
    ("pad", ((4, 1),), {"padding_mode": "edge"}),
    ("pad", (2,), {"padding_mode": "symmetric"}),
    ("crop", (3, 5, 20, 11), {}),
    ("center_crop", (15,), {}),
    ("center_crop", ((20, 9),), {}),
    ("hflip", (), {}),
    ("vflip", (), {}),
    ("adjust_brightness", (0.4,), {}),
    ("adjust_brightness", (1.7,), {}),
    ("adjust_contrast", (0.3,), {}),
    ("adjust_contrast", (1.9,), {}),
    ("adjust_saturation", (0.0,), {}),
    ("adjust_saturation", (2.2,), {}),
    ("adjust_hue", (0.2,), {}),
    ("adjust_hue", (-0.45,), {}),
    ("rotate", (30,), {}),
    ("rotate", (-75,), {"interpolation": "bilinear", "expand": True}),
    ("rotate", (10,), {"center": (3, 4), "fill": 200}),
    ("to_grayscale", (), {}),
    ("to_grayscale", (3,), {}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), CASES)
def test_pil_images_match_paddle(rgb, paddle_F, name, args, kwargs):
    ours = getattr(F, name)(Image.fromarray(rgb), *args, **kwargs)
    theirs = getattr(paddle_F, name)(Image.fromarray(rgb), *args, **kwargs)
    assert isinstance(ours, Image.Image)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))


@pytest.mark.parametrize(("name", "args", "kwargs"), CASES)
@pytest.mark.parametrize("image", ["rgb", "gray", "gray_hw1"])
def test_uint8_arrays_match_pil_images(request, name, args, kwargs, image):
    array = request.getfixturevalue("gray" if image.startswith("gray") else "rgb")
    if image == "gray_hw1":
        array = array[:, :, None]
    ours = getattr(F, name)(array, *args, **kwargs)
    pil = as_array(getattr(F, name)(Image.fromarray(np.squeeze(array)), *args, **kwargs))
    assert isinstance(ours, np.ndarray) and ours.dtype == np.uint8
    if name == "to_grayscale" or array.ndim == 3 and pil.ndim == 2:
        pil = pil.reshape(ours.shape)
    np.testing.assert_array_equal(ours, pil)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("resize", (20,)),
        ("resize", ((17, 29),)),
        ("pad", ((1, 2, 3, 4),)),
        ("crop", (3, 5, 20, 11)),
        ("center_crop", (15,)),
        ("hflip", ()),
        ("vflip", ()),
        ("adjust_brightness", (0.4,)),
        ("adjust_contrast", (1.9,)),
        ("adjust_saturation", (0.5,)),
        ("rotate", (30,)),
        ("to_grayscale", ()),
    ],
)
def test_float_arrays_agree_with_uint8_within_rounding(rgb, name, args):
    ours = getattr(F, name)(rgb.astype(np.float32) / 255, *args)
    reference = getattr(F, name)(rgb, *args).astype(np.float32) / 255
    assert ours.dtype == np.float32 and ours.shape == reference.shape
    # PIL truncates blends and greys to integers; resampling rounds
    np.testing.assert_allclose(ours, reference, atol=2.01 / 255)


def test_an_int_fill_fills_every_channel(rgb):
    for image in (rgb, Image.fromarray(rgb)):
        out = np.asarray(F.pad(image, 1, fill=9))
        np.testing.assert_array_equal(out[0, 0], [9, 9, 9])


def test_float_hue_matches_colorsys(rgb):
    image = rgb[:6, :7].astype(np.float32) / 255
    out = F.adjust_hue(image, 0.3)
    expected = np.empty_like(image)
    for i, j in np.ndindex(image.shape[:2]):
        h, s, v = colorsys.rgb_to_hsv(*image[i, j])
        expected[i, j] = colorsys.hsv_to_rgb((h + 0.3) % 1.0, s, v)
    np.testing.assert_allclose(out, expected, atol=1e-5)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("resize", (20,)),
        ("pad", (2,)),
        ("center_crop", (15,)),
        ("hflip", ()),
        ("vflip", ()),
        ("rotate", (45,)),
        ("adjust_brightness", (1.3,)),
        ("to_grayscale", (3,)),
    ],
)
def test_chw_tensors_match_hwc_arrays(rgb, name, args):
    image = rgb.astype(np.float32) / 255
    tensor = framework.to_tensor(image.transpose(2, 0, 1))
    out = getattr(F, name)(tensor, *args)
    assert isinstance(out, framework.Tensor)
    expected = getattr(F, name)(image, *args).transpose(2, 0, 1)
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("data_format", ["CHW", "HWC"])
def test_to_tensor_scales_uint8_and_lays_out_channels(rgb, paddle_F, data_format):
    expected = rgb.astype(np.float32) / np.float32(255)
    if data_format == "CHW":
        expected = expected.transpose(2, 0, 1)
    for image in (rgb, Image.fromarray(rgb)):
        out = F.to_tensor(image, data_format)
        assert isinstance(out, framework.Tensor) and out.dtype == np.float32
        np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(
        F.to_tensor(Image.fromarray(rgb), data_format).numpy(),
        paddle_F.to_tensor(Image.fromarray(rgb), data_format).numpy(),
    )


def test_to_tensor_on_a_chw_tensor_only_changes_the_layout(rgb):
    chw = F.to_tensor(rgb)
    assert F.to_tensor(chw) is chw
    np.testing.assert_array_equal(F.to_tensor(chw, "HWC").numpy(), rgb / np.float32(255))


def test_to_tensor_keeps_non_uint8_and_adds_a_channel(gray):
    out = F.to_tensor(gray.astype(np.float64))
    assert out.dtype == np.float64 and out.shape == [1, *gray.shape]
    assert F.to_tensor(Image.fromarray(gray)).shape == [1, *gray.shape]
    with pytest.raises(ValueError, match="data_format"):
        F.to_tensor(gray, "NCHW")


def test_normalize_on_tensors_arrays_and_pil(rgb, paddle_F):
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    chw = F.to_tensor(rgb)
    ours = F.normalize(chw, mean, std)
    assert isinstance(ours, framework.Tensor) and ours.dtype == np.float32
    theirs = paddle_F.normalize(paddle_F.to_tensor(Image.fromarray(rgb)), mean, std)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)
    hwc = F.normalize(rgb, [10, 20, 30], [2, 4, 8], data_format="HWC")
    np.testing.assert_allclose(hwc, (rgb - np.float32([10, 20, 30])) / np.float32([2, 4, 8]))
    from_pil = F.normalize(Image.fromarray(rgb), [10, 20, 30], [2, 4, 8], data_format="HWC")
    np.testing.assert_array_equal(from_pil, hwc)
    bgr = F.normalize(rgb[:, :, ::-1], 0, 1, data_format="HWC", to_rgb=True)
    np.testing.assert_array_equal(bgr, rgb.astype(np.float32))


def test_it_rejects_bad_arguments(rgb):
    with pytest.raises(TypeError, match="img should be"):
        F.hflip([[1, 2]])
    with pytest.raises(ValueError, match="hue_factor"):
        F.adjust_hue(rgb, 0.7)
    with pytest.raises(ValueError, match="interpolation"):
        F.resize(rgb, 10, "cubic-ish")
    with pytest.raises(ValueError, match="padding_mode"):
        F.pad(rgb, 1, padding_mode="wrap")
    with pytest.raises(ValueError, match="num_output_channels"):
        F.to_grayscale(rgb, 2)


@pytest.mark.parametrize("dtype", [np.uint16, np.int32, np.float64])
def test_resize_keeps_other_dtypes(gray, dtype):
    image = gray.astype(dtype) * (3 if dtype != np.float64 else 1 / 255)
    out = F.resize(image, (10, 12))
    assert out.dtype == dtype and out.shape == (10, 12)
    reference = np.asarray(Image.fromarray(image.astype(np.float32)).resize((12, 10), 2))
    np.testing.assert_allclose(
        out, reference.astype(dtype), atol=1 if dtype != np.float64 else 1e-6
    )
