"""Functional `affine`, `perspective` and `erase`: PIL results against Pillow's own
`Image.transform` (what Paddle's PIL backend calls) and Paddle itself, the other image kinds
against PIL, and `erase` against NumPy slicing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image

import framework
from framework.vision.transforms import functional as F
from framework.vision.transforms.warp_matrices import (
    inverse_affine_matrix,
    perspective_coefficients,
)

START = [[0, 0], [52, 0], [52, 36], [0, 36]]
END = [[4, 2], [49, 1], [50, 33], [2, 35]]


@pytest.fixture(scope="module")
def rgb() -> np.ndarray:
    """37x53 (odd sizes catch rounding): smooth gradients plus noise, so warps show."""
    yy, xx = np.mgrid[0:37, 0:53]
    noise = np.random.default_rng(0).integers(0, 40, (37, 53, 3))
    image = np.stack([xx * 4, yy * 6, (xx + yy) * 2], axis=2) + noise
    return image.clip(0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def paddle_F():
    return pytest.importorskip("paddle.vision.transforms.functional")


def _forward_affine(center, angle, translate, scale, shear) -> np.ndarray:
    """T * C * R * SHy * SHx * S * C^-1 as a 3x3 matrix, built from the factors."""
    rot, sx, sy = (math.radians(v) for v in (angle, *shear))
    rotation = np.array([[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]])
    shear_y = np.array([[1.0, 0.0], [-math.tan(sy), 1.0]])
    shear_x = np.array([[1.0, -math.tan(sx)], [0.0, 1.0]])
    linear = np.eye(3)
    linear[:2, :2] = rotation @ shear_y @ shear_x * scale
    to_origin, back, shift = np.eye(3), np.eye(3), np.eye(3)
    to_origin[:2, 2] = [-center[0], -center[1]]
    back[:2, 2] = center
    shift[:2, 2] = translate
    return shift @ back @ linear @ to_origin


AFFINES = [
    (30.0, [5, -3], 0.8, [10.0, 5.0]),
    (-45.0, [0, 0], 1.3, [7.0, 0.0]),
    (90.0, [2, 2], 1.0, [0.0, 0.0]),
    (0.0, [0, 0], 0.6, [-20.0, 15.0]),
]


@pytest.mark.parametrize(("angle", "translate", "scale", "shear"), AFFINES)
def test_the_affine_matrix_inverts_the_composed_forward_map(angle, translate, scale, shear):
    center = (26.5, 18.5)
    coefficients = inverse_affine_matrix(center, angle, translate, scale, shear)
    inverse = np.vstack([np.reshape(coefficients, (2, 3)), [0, 0, 1]])
    forward = _forward_affine(center, angle, translate, scale, shear)
    np.testing.assert_allclose(inverse @ forward, np.eye(3), atol=1e-12)


@pytest.mark.parametrize(("angle", "translate", "scale", "shear"), AFFINES)
@pytest.mark.parametrize("interpolation", ["nearest", "bilinear", "bicubic"])
def test_pil_affine_is_image_transform_with_that_matrix(
    rgb, angle, translate, scale, shear, interpolation
):
    image = Image.fromarray(rgb)
    ours = F.affine(image, angle, translate, scale, shear, interpolation, fill=(9, 8, 7))
    matrix = inverse_affine_matrix((26.5, 18.5), angle, translate, scale, shear)
    mode = {"nearest": 0, "bilinear": 2, "bicubic": 3}[interpolation]
    expected = image.transform(
        image.size, Image.Transform.AFFINE, matrix, mode, fillcolor=(9, 8, 7)
    )
    assert isinstance(ours, Image.Image) and ours.size == image.size
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(expected))


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear", "bicubic"])
def test_pil_perspective_is_image_transform_with_the_solved_coefficients(rgb, interpolation):
    image = Image.fromarray(rgb)
    ours = F.perspective(image, START, END, interpolation, fill=200)
    coefficients = perspective_coefficients(START, END)
    mode = {"nearest": 0, "bilinear": 2, "bicubic": 3}[interpolation]
    expected = image.transform(
        image.size, Image.Transform.PERSPECTIVE, coefficients, mode, fillcolor=(200,) * 3
    )
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(expected))


def test_perspective_coefficients_send_each_endpoint_to_its_startpoint():
    a, b, c, d, e, f, g, h = perspective_coefficients(START, END)
    for (x, y), (u, v) in zip(END, START, strict=True):
        denominator = g * x + h * y + 1
        assert (a * x + b * y + c) / denominator == pytest.approx(u, abs=1e-9)
        assert (d * x + e * y + f) / denominator == pytest.approx(v, abs=1e-9)


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
def test_pil_results_equal_paddles(rgb, paddle_F, interpolation):
    # Paddle's PIL backend hands `fill` to Image.transform's unused `fill` argument, so its
    # outside area is always black: compare with fill 0.
    image = Image.fromarray(rgb)
    for args in AFFINES:
        ours = F.affine(image, *args, interpolation=interpolation)
        theirs = paddle_F.affine(image, *args, interpolation=interpolation)
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    ours = F.affine(image, 30, [5, -3], 0.8, 12, interpolation, center=(3, 4))
    theirs = paddle_F.affine(image, 30, [5, -3], 0.8, 12, interpolation, center=(3, 4))
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    ours = F.perspective(image, START, END, interpolation)
    theirs = paddle_F.perspective(image, START, END, interpolation)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))


WARPS = {
    "affine": lambda img, **kw: F.affine(img, 30, [5, -3], 0.8, [10, 5], **kw),
    "perspective": lambda img, **kw: F.perspective(img, START, END, **kw),
}


@pytest.mark.parametrize("warp", WARPS)
@pytest.mark.parametrize("channels", [None, 1, 3, 4])
def test_uint8_arrays_give_what_the_pil_image_gives(rgb, warp, channels):
    if channels is None:
        array = rgb[:, :, 0].copy()
    else:
        array = np.dstack([rgb, rgb[:, :, :1]])[:, :, :channels].copy()
    ours = WARPS[warp](array, interpolation="bilinear", fill=17)
    pil = np.asarray(
        WARPS[warp](Image.fromarray(np.squeeze(array)), interpolation="bilinear", fill=17)
    )
    assert isinstance(ours, np.ndarray) and ours.dtype == np.uint8 and ours.shape == array.shape
    np.testing.assert_array_equal(ours, pil.reshape(ours.shape))


@pytest.mark.parametrize("warp", WARPS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint16, np.int32])
def test_other_dtypes_keep_their_dtype_and_agree_with_uint8(rgb, warp, dtype):
    scale = 1 / 255 if np.issubdtype(dtype, np.floating) else 1
    ours = WARPS[warp](rgb.astype(dtype) * dtype(scale) if scale != 1 else rgb.astype(dtype))
    reference = WARPS[warp](rgb).astype(np.float64) * scale
    assert ours.dtype == dtype and ours.shape == rgb.shape
    np.testing.assert_allclose(ours, reference, atol=1e-6)  # nearest: the same pixels


@pytest.mark.parametrize("warp", WARPS)
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_chw_tensors_match_hwc_arrays(rgb, warp, dtype):
    image = rgb.astype(dtype)
    tensor = framework.to_tensor(image.transpose(2, 0, 1))
    out = WARPS[warp](tensor, interpolation="bilinear", fill=[1, 2, 3])
    assert isinstance(out, framework.Tensor) and out.dtype == np.dtype(dtype)
    expected = WARPS[warp](image, interpolation="bilinear", fill=[1, 2, 3]).transpose(2, 0, 1)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_the_fill_is_per_channel_and_an_identity_warp_changes_nothing(rgb):
    far = F.affine(rgb, 0, [200, 0], 1.0, 0, fill=(1, 2, 3))  # shifted out of view
    np.testing.assert_array_equal(far, np.broadcast_to(np.uint8([1, 2, 3]), rgb.shape))
    np.testing.assert_array_equal(F.affine(rgb, 0, [0, 0], 1.0, [0, 0]), rgb)
    np.testing.assert_array_equal(F.perspective(rgb, START, START), rgb)


def test_affine_accepts_paddles_shear_forms(rgb):
    one = F.affine(rgb, 10, [0, 0], 1.0, 8)
    np.testing.assert_array_equal(one, F.affine(rgb, 10, [0, 0], 1.0, [8, 0]))
    np.testing.assert_array_equal(
        F.affine(rgb, 10, [0, 0], 1.0, [8]), F.affine(rgb, 10, [0, 0], 1.0, [8, 8])
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"angle": "30"}, TypeError, "angle should be int or float"),
        ({"translate": 3}, TypeError, "translate should be a sequence"),
        ({"translate": [1, 2, 3]}, ValueError, "length 2"),
        ({"scale": 0}, ValueError, "scale should be positive"),
        ({"shear": [1, 2, 3]}, ValueError, "two values"),
        ({"shear": "x"}, TypeError, "Shear should be"),
        ({"center": 5}, TypeError, "center should be a sequence"),
        ({"interpolation": "lanczos"}, ValueError, "interpolation should be one of"),
    ],
)
def test_affine_rejects_what_paddle_rejects(rgb, kwargs, error, match):
    arguments = {"angle": 30, "translate": [0, 0], "scale": 1.0, "shear": 0} | kwargs
    with pytest.raises(error, match=match):
        F.affine(rgb, **arguments)


def test_perspective_needs_four_corners(rgb):
    with pytest.raises(ValueError, match="4 corners"):
        F.perspective(rgb, START[:3], END[:3])


# --- erase -------------------------------------------------------------------------------------


def test_erase_on_arrays_is_slice_assignment(rgb):
    value = np.array([[[10, 20, 30]]], np.uint8)
    out = F.erase(rgb, 3, 5, 10, 7, value)
    expected = rgb.copy()
    expected[3:13, 5:12] = value
    assert out is not rgb and out.dtype == np.uint8
    np.testing.assert_array_equal(out, expected)
    patch = np.random.default_rng(1).random((4, 6, 3)).astype(np.float32)
    floats = rgb.astype(np.float32)
    assert F.erase(floats, 0, 0, 4, 6, patch, inplace=True) is floats
    np.testing.assert_array_equal(floats[:4, :6], patch)


def test_erase_on_tensors_writes_the_chw_slice(rgb):
    data = rgb.transpose(2, 0, 1).astype(np.float32)
    x = framework.to_tensor(data)
    out = F.erase(x, 1, 2, 3, 4, framework.to_tensor([[[0.0]], [[1.0]], [[2.0]]]))
    expected = data.copy()
    expected[:, 1:4, 2:6] = np.float32([0, 1, 2])[:, None, None]
    assert out is not x and isinstance(out, framework.Tensor) and out.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(x.numpy(), data)  # a copy unless inplace
    assert F.erase(x, 0, 0, 2, 2, framework.to_tensor(5.0), inplace=True) is x
    assert (x.numpy()[:, :2, :2] == 5).all()


def test_erase_on_pil_images_copies_and_keeps_the_mode(rgb):
    for image in (Image.fromarray(rgb), Image.fromarray(rgb[:, :, 0])):
        value = np.uint8(99) if image.mode == "L" else np.uint8([[[1, 2, 3]]])
        out = F.erase(image, 2, 3, 5, 6, value, inplace=True)
        assert isinstance(out, Image.Image) and out is not image and out.mode == image.mode
        expected = np.array(image)
        expected[2:7, 3:9] = value
        np.testing.assert_array_equal(np.asarray(out), expected)
