"""`roi_align` and `deform_conv2d` against ONNX's own node test cases for `RoiAlign` and
`DeformConv` (their inputs and stored expected outputs, and for RoiAlign ONNX's reference
evaluator too), called directly rather than through the ONNX importer, which maps neither yet.
ONNX's RoiAlign 'half_pixel' is `aligned=True`, 'output_half_pixel' `aligned=False`."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

import framework
from framework.vision import ops

onnx = pytest.importorskip("onnx")


@functools.cache
def cases() -> dict:
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = collect_testcases(None)
    return {
        c.name: c
        for c in found
        if c.name.startswith(("test_roialign", "test_basic_deform"))
        or c.name.startswith("test_deform_conv")
    }


def attributes(case) -> dict:
    node = case.model.graph.node[0]
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


@pytest.mark.parametrize(
    "name, aligned", [("test_roialign_aligned_true", True), ("test_roialign_aligned_false", False)]
)
def test_roi_align_matches_onnx(name, aligned) -> None:
    case = cases()[name]
    (x, rois, batch_indices), (want,) = case.data_sets[0]
    a = attributes(case)
    assert (np.diff(batch_indices) >= 0).all(), "boxes_num needs the RoIs grouped by image"
    num = np.bincount(batch_indices, minlength=x.shape[0]).astype(np.int32)
    got = ops.roi_align(
        framework.to_tensor(x),
        framework.to_tensor(rois),
        framework.to_tensor(num),
        (a["output_height"], a["output_width"]),
        a["spatial_scale"],
        a["sampling_ratio"],
        aligned,
    )
    # The stored expected values have 4 decimals and are up to 8.4e-5 off ONNX's own reference
    # evaluator, which ours matches to float32 rounding.
    np.testing.assert_allclose(got.numpy(), want, rtol=0, atol=1e-4)
    from onnx.reference import ReferenceEvaluator

    feeds = dict(
        zip([i.name for i in case.model.graph.input], (x, rois, batch_indices), strict=True)
    )
    (reference,) = ReferenceEvaluator(case.model).run(None, feeds)
    np.testing.assert_allclose(got.numpy(), reference, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    "name",
    [
        "test_basic_deform_conv_with_padding",
        "test_basic_deform_conv_without_padding",
        "test_deform_conv_with_mask_bias",
        "test_deform_conv_with_multiple_offset_groups",
    ],
)
def test_deform_conv2d_matches_onnx(name) -> None:
    case = cases()[name]
    inputs, (want,) = case.data_sets[0]
    x, weight, offset = inputs[:3]
    bias = inputs[3] if len(inputs) > 3 else None
    mask = inputs[4] if len(inputs) > 4 else None
    a = attributes(case)
    pads = a.get("pads", [0, 0, 0, 0])
    assert pads[:2] == pads[2:], "deform_conv2d pads both sides alike"
    got = ops.deform_conv2d(
        framework.to_tensor(x),
        framework.to_tensor(offset),
        framework.to_tensor(weight),
        None if bias is None else framework.to_tensor(bias),
        stride=a.get("strides", [1, 1]),
        padding=pads[:2],
        dilation=a.get("dilations", [1, 1]),
        deformable_groups=a.get("offset_group", 1),
        groups=a.get("group", 1),
        mask=None if mask is None else framework.to_tensor(mask),
    )
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
