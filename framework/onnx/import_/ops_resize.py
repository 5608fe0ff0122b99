"""ONNX Resize (opsets 10-19) and Upsample (7-9) with ONNX's own coordinate rules.

Each resized axis is one `AxisResample` (a few weighted taps per output position, with an
exact adjoint), so resizing is differentiable. The taps follow onnxruntime: the coordinate
transformation maps an output index to an input coordinate, then nearest rounds it
(`nearest_mode`), linear interpolates between the two neighbours (clamped to the edge) and
cubic uses Keys' kernel with `cubic_coeff_a` over four neighbours (edge-clamped, or renormalised
without the outside ones when `exclude_outside`).

Where those rules are one of Paddle's conventions, the resample also carries the equivalent
`ResampleSpec`, so an imported model with resizes can be traced (jit.save, the predictor).
"""

from __future__ import annotations

import numpy as np

from framework.onnx.import_.registry import imports, ints, text_attr, values
from framework.ops.nn.interpolate import AxisResample, ResampleSpec

_COORDINATES = {
    "half_pixel",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "half_pixel_symmetric",
}
_NEAREST = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}


def _resize_check(node, opset) -> str | None:
    mode = text_attr(node, "mode", "nearest")
    coord = text_attr(node, "coordinate_transformation_mode", "half_pixel")
    problems = []
    if mode not in ("nearest", "linear", "cubic", "bilinear", "trilinear"):
        problems.append(f"mode={mode}")
    if node.op_type == "Resize" and opset >= 11 and coord not in _COORDINATES:
        problems.append(f"coordinate_transformation_mode={coord}")
    if (nearest := text_attr(node, "nearest_mode", "round_prefer_floor")) not in _NEAREST:
        problems.append(f"nearest_mode={nearest}")
    if node.attrs.get("antialias", 0):
        problems.append("antialias=1")
    if (policy := text_attr(node, "keep_aspect_ratio_policy", "stretch")) != "stretch":
        problems.append(f"keep_aspect_ratio_policy={policy}")
    return f"{node.op_type}({', '.join(problems)})" if problems else None


@imports("Resize", "Upsample", static=(1, 2, 3), check=_resize_check)
def _resize(ctx, node, args):
    x = args[0]
    legacy = node.op_type == "Upsample" or ctx.opset < 11
    scales, sizes = _targets(ctx, node, args, legacy)
    axes = node.attrs.get("axes")
    axes = list(range(x.ndim)) if axes is None else [int(a) % x.ndim for a in axes]
    mode = text_attr(node, "mode", "nearest")
    mode = {"bilinear": "linear", "trilinear": "linear"}.get(mode, mode)
    if legacy:
        coord, nearest = "asymmetric", "legacy"
    else:
        coord = text_attr(node, "coordinate_transformation_mode", "half_pixel")
        nearest = text_attr(node, "nearest_mode", "round_prefer_floor")
    for i, axis in enumerate(axes):
        size = x.shape[axis]
        if sizes is not None:
            out = sizes[i]
            scale = out / size if size else 1.0
        else:
            scale = scales[i]
            out = int(np.float32(scale) * np.float32(size))  # as onnxruntime, in float32
        if out == size and scale == 1.0:
            continue
        source = _source_coordinates(coord, size, out, scale)
        index, weight = _taps(mode, nearest, source, size, scale, node)
        target = {"out_size": out} if sizes is not None else {"scale": float(scale)}
        spec = _paddle_spec(mode, coord, nearest, scale, node, target)
        x = AxisResample(axis, index, weight, size, spec).apply(x)
    return x


def _paddle_spec(mode, coord, nearest, scale, node, target) -> ResampleSpec | None:
    """The Paddle resize that samples exactly where these ONNX rules do, if there is one."""
    if "scale" in target and float(np.float32(target["scale"])) != target["scale"]:
        return None  # onnxruntime sizes the output in float32; Paddle in float64
    if mode == "nearest":
        floors = nearest == "floor" or (nearest == "legacy" and scale >= 1)
        if coord == "asymmetric" and floors:
            return ResampleSpec("nearest", **target)
        return None
    if mode == "linear":
        conventions = {"half_pixel": (False, 0), "asymmetric": (False, 1)}
        conventions["align_corners"] = (True, 0)
        if coord not in conventions:
            return None
        align_corners, align_mode = conventions[coord]
        return ResampleSpec("linear", align_corners, align_mode, **target)
    paddle_cubic = (
        float(node.attrs.get("cubic_coeff_a", -0.75)) == -0.75
        and not node.attrs.get("exclude_outside", 0)
        and coord in ("half_pixel", "align_corners")
    )
    if paddle_cubic:
        return ResampleSpec("cubic", coord == "align_corners", 0, **target)
    return None


def _targets(ctx, node, args, legacy: bool) -> tuple[list[float] | None, list[int] | None]:
    if node.op_type == "Upsample" and ctx.opset < 9:
        return [float(s) for s in node.attrs["scales"]], None
    if legacy:
        return [float(s) for s in values(args[1]).reshape(-1)], None
    scales = args[2] if len(args) > 2 else None
    sizes = args[3] if len(args) > 3 else None
    if sizes is not None and sizes.size:
        return None, ints(sizes)
    if scales is None or not scales.size:
        raise ValueError("ONNX Resize needs scales or sizes")
    return [float(s) for s in values(scales).reshape(-1)], None


def _source_coordinates(coord: str, size: int, out: int, scale: float) -> np.ndarray:
    o = np.arange(out, dtype=np.float64)
    if coord == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if coord == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if out > 1 else np.zeros(out)
    if coord == "align_corners":
        return o * (size - 1) / (out - 1) if out > 1 else np.zeros(out)
    if coord == "asymmetric":
        return o / scale
    if coord == "tf_half_pixel_for_nn":
        return (o + 0.5) / scale
    # half_pixel_symmetric (opset 19)
    adjustment = out / (scale * size)
    offset = size / 2 * (1 - adjustment)
    return offset + (o + 0.5) / scale - 0.5


def _taps(mode, nearest, source, size, scale, node) -> tuple[np.ndarray, np.ndarray]:
    last = size - 1
    if mode == "nearest":
        if nearest == "round_prefer_floor":
            index = np.ceil(source - 0.5)
        elif nearest == "round_prefer_ceil":
            index = np.floor(source + 0.5)
        elif nearest == "ceil" or (nearest == "legacy" and scale < 1):
            index = np.ceil(source)
        else:  # floor, and onnxruntime's rule for Upsample and opset-10 Resize when enlarging
            index = np.floor(source)
        index = np.clip(index, 0, last).astype(np.int64)
        return index[None], np.ones((1, index.size))
    if mode == "linear":
        source = np.clip(source, 0, last)
        low = np.floor(source)
        frac = source - low
        low = low.astype(np.int64)
        return np.stack([low, np.minimum(low + 1, last)]), np.stack([1.0 - frac, frac])
    a = float(node.attrs.get("cubic_coeff_a", -0.75))
    base = np.floor(source)
    t = source - base
    index = base.astype(np.int64) + np.arange(-1, 3)[:, None]
    weight = np.stack([_cubic(t + 1, a), _cubic(t, a), _cubic(1 - t, a), _cubic(2 - t, a)])
    if node.attrs.get("exclude_outside", 0):
        weight = np.where((index < 0) | (index > last), 0.0, weight)
        weight = weight / weight.sum(axis=0, keepdims=True)
    return np.clip(index, 0, last), weight


def _cubic(x: np.ndarray, a: float) -> np.ndarray:
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x <= 1, near, np.where(x < 2, far, 0.0))
