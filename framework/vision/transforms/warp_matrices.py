"""The coefficients of affine and perspective warps, in the form `PIL.Image.transform` takes:
the inverse map, from each output pixel back to where it samples the input. Every backend of
`functional.affine` / `functional.perspective` warps with these, so they agree."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def inverse_affine_matrix(
    center: Sequence[float],
    angle: float,
    translate: Sequence[float],
    scale: float,
    shear: Sequence[float],
) -> list[float]:
    """The 6 coefficients (a, b, c, d, e, f) mapping an output pixel (x, y) to the input pixel
    (a x + b y + c, d x + e y + f), for a rotation by `angle` degrees clockwise about `center`,
    shears of `shear` = (x, y) degrees, scaling by `scale` and a shift by `translate` pixels.

    The forward map is T * C * RotateScaleShear * C^-1 (C moves the centre to the origin, T
    translates), so this is C * RotateScaleShear^-1 * C^-1 * T^-1, as Paddle computes it.
    """
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    # rotation then shear, without scale; its determinant is 1
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    cx, cy = center
    tx, ty = translate
    matrix = [value / scale for value in (d, -b, 0.0, -c, a, 0.0)]
    matrix[2] += matrix[0] * (-cx - tx) + matrix[1] * (-cy - ty) + cx
    matrix[5] += matrix[3] * (-cx - tx) + matrix[4] * (-cy - ty) + cy
    return matrix


def perspective_coefficients(
    startpoints: Sequence[Sequence[float]], endpoints: Sequence[Sequence[float]]
) -> list[float]:
    """The 8 coefficients (a, b, c, d, e, f, g, h) mapping an output pixel (x, y) to the input
    pixel ((a x + b y + c) / (g x + h y + 1), (d x + e y + f) / (g x + h y + 1)), so that each
    of the four `endpoints` samples the matching one of `startpoints` (both ordered top-left,
    top-right, bottom-right, bottom-left); a least-squares solve, as Paddle's.
    """
    if len(startpoints) != 4 or len(endpoints) != 4:
        raise ValueError(
            "startpoints and endpoints should each list the 4 corners [top-left, top-right, "
            f"bottom-right, bottom-left], got {len(startpoints)} and {len(endpoints)} points"
        )
    system = np.zeros((8, 8))
    for row, ((x, y), (u, v)) in enumerate(zip(endpoints, startpoints, strict=True)):
        system[2 * row] = [x, y, 1, 0, 0, 0, -u * x, -u * y]
        system[2 * row + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y]
    target = np.asarray(startpoints, dtype=np.float64).reshape(8)
    return np.linalg.lstsq(system, target, rcond=None)[0].tolist()
