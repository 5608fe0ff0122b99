"""How tensors print: `set_printoptions`, read by `Tensor.__repr__`."""

from __future__ import annotations

import numpy as np

_OPTIONS: dict[str, object] = {}


def set_printoptions(
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    sci_mode: bool | None = None,
    linewidth: int | None = None,
) -> None:
    """Set how tensors print: digits after the point (`precision`), the element count above
    which a tensor is summarised (`threshold`) with `edgeitems` per edge, scientific notation
    (`sci_mode`) and the line width. Options left as None keep their value.

        framework.set_printoptions(precision=2)
        framework.to_tensor([1.23456])   # ... [1.23]
    """
    for key, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("sci_mode", sci_mode),
        ("linewidth", linewidth),
    ):
        if value is not None:
            _OPTIONS[key] = value


def format_array(array: np.ndarray, prefix: str) -> str:
    """`array` as the body of a tensor's repr, under the options set."""
    options = {k: v for k, v in _OPTIONS.items() if k != "sci_mode"}
    sci_mode = _OPTIONS.get("sci_mode")
    if sci_mode is not None and array.dtype.kind == "f":
        if sci_mode:
            digits = int(options.get("precision", 8))
            options["formatter"] = {"float_kind": lambda v: f"{v:.{digits}e}"}
        else:
            options["suppress"] = True
    return np.array2string(array, separator=", ", prefix=prefix, **options)
