"""How tensors print, character for character as Paddle 3 prints them.

Paddle does not use NumPy's `array2string`: every float gets `precision` digits after the point
(`0.92106104`, not `0.921061`), an integer-valued float prints as `2.` and `inf.`, every element
is padded on the right to the widest one (booleans too: `[True , False]`), a leading space
stands in for the sign when some element is negative (for complex, NumPy's lexicographic
`z < 0`, as Paddle asks), and the widest element is measured on the summarised tensor (the
`edgeitems` at each end of every axis) even when all of it prints. Complex elements print as
`(1.00000000+2.00000000j)`, both parts with `precision` digits.
A tensor with more than `threshold` elements prints only those edges, with `...` between.
Lines wrap after as many elements as fit `linewidth`, counted from the indent.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_FLOAT_DTYPES = (np.dtype("float16"), np.dtype("float32"), np.dtype("float64"))


@dataclass
class PrintOptions:
    """Paddle's defaults; `set_printoptions` changes them for the whole process."""

    precision: int = 8
    threshold: int = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool = False


_OPTIONS = PrintOptions()


def set_printoptions(
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    sci_mode: bool | None = None,
    linewidth: int | None = None,
) -> None:
    """Set how tensors print, for the whole process (Paddle's defaults in brackets): digits after
    the point (`precision`, 8), the element count above which a tensor is summarised
    (`threshold`, 1000) to `edgeitems` (3) at each end of every axis, scientific notation
    (`sci_mode`, False) and the characters per line (`linewidth`, 80). Options left as None
    keep their value; a value of the wrong type raises TypeError.

        framework.set_printoptions(precision=2)
        print(framework.to_tensor([1.23456]))   # ... [1.23]
    """
    for name, value, kind in (
        ("precision", precision, int),
        ("threshold", threshold, int),
        ("edgeitems", edgeitems, int),
        ("linewidth", linewidth, int),
        ("sci_mode", sci_mode, bool),
    ):
        if value is None:
            continue
        if not isinstance(value, kind):
            raise TypeError(
                f"The type of '{name}' in set_printoptions must be {kind}, "
                f"but received {type(value)}."
            )
        setattr(_OPTIONS, name, value)


def _reset_printoptions() -> None:
    """Back to Paddle's defaults (Paddle has no public way; tests and the doc-example runner
    need one, since the options are process-wide)."""
    global _OPTIONS
    _OPTIONS = PrintOptions()


def tensor_to_string(
    array: np.ndarray, dtype_name: str, place: object, stop_gradient: bool, prefix: str = "Tensor"
) -> str:
    """A tensor's `repr`, as Paddle's: a header line, then the values indented under it.

    `array` is the tensor's data on the host (any shape, 0-d and empty included).

        tensor_to_string(np.array([1.5, -2.0], "float32"), "float32", "Place(cpu)", True)
        # Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
        #        [ 1.50000000, -2.        ])
    """
    indent = len(prefix) + 1
    return (
        f"{prefix}(shape={list(array.shape)}, dtype={dtype_name}, place={place}, "
        f"stop_gradient={stop_gradient},\n{' ' * indent}{format_array(array, indent)})"
    )


def format_array(array: np.ndarray, indent: int) -> str:
    """The values of `array` as Paddle prints them, for a first line that starts `indent`
    characters in (later lines are indented to match)."""
    summary = int(np.prod(array.shape, dtype=np.int64)) > _OPTIONS.threshold
    width, signed = _widest(_edges(array))
    return _format(array, summary, indent, width, signed)


def _edges(array: np.ndarray) -> np.ndarray:
    """The `edgeitems` first and last entries of every axis longer than twice that (Paddle
    measures the width on these alone, summarised or not)."""
    edge = _OPTIONS.edgeitems
    if array.size == 0:
        return np.array([])
    if array.ndim == 0:
        return array
    # `[-0:]` is the whole axis, so edgeitems=0 keeps everything, as in Paddle.
    rows = list(array[:edge]) + list(array[-edge:]) if len(array) > 2 * edge else list(array)
    if array.ndim == 1:
        return np.array(rows, dtype=array.dtype)
    return np.stack([_edges(row) for row in rows])


def _item(value: np.generic | np.ndarray, width: int = 0, signed: bool = False) -> str:
    """One element, padded on the right to `width`, with a space for the sign if `signed`."""
    if value.dtype in _FLOAT_DTYPES:
        number = float(value)
        if _OPTIONS.sci_mode:
            text = f"{number:.{_OPTIONS.precision}e}"
        elif number == np.ceil(number):  # integer-valued, or +-inf (nan is not equal to itself)
            text = f"{number:.0f}."
        else:
            text = f"{number:.{_OPTIONS.precision}f}"
    elif value.dtype.kind == "c":
        text = _complex_item(complex(value))
    else:
        text = f"{value}"
    if width <= len(text):
        return text
    if signed and not value < 0:
        return " " + text.ljust(width - 1)
    return text.ljust(width)


def _complex_item(number: complex) -> str:
    """`(re+imj)`, both parts with `precision` digits (no `2.` shortening, unlike real floats).

    Paddle writes the `+` only when the imaginary part is >= 0, so a nan one reads `-infnanj`.
    """
    form = "e" if _OPTIONS.sci_mode else "f"
    re = f"{number.real:.{_OPTIONS.precision}{form}}"
    im = f"{number.imag:.{_OPTIONS.precision}{form}}"
    return f"({re}+{im}j)" if number.imag >= 0 else f"({re}{im}j)"


def _widest(array: np.ndarray) -> tuple[int, bool]:
    """(width of the widest element unpadded, whether any element is negative)."""
    width, signed = 0, False
    for value in array.flatten():
        signed = signed or bool(value < 0)
        width = max(width, len(_item(value)))
    return width, signed


def _format(array: np.ndarray, summary: bool, indent: int, width: int, signed: bool) -> str:
    edge, length = _OPTIONS.edgeitems, len(array) if array.ndim else 0
    if array.ndim == 0:
        return _item(array, width, signed)
    shown = range(length)
    if summary and length > 2 * edge:
        shown = [*range(edge), None, *range(length - edge, length)]
    if array.ndim == 1:
        items = ["..." if i is None else _item(array[i], width, signed) for i in shown]
        per_line = max(1, (_OPTIONS.linewidth - indent) // (width + 2))
        lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = [
        "..." if i is None else _format(array[i], summary, indent + 1, width, signed) for i in shown
    ]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(rows) + "]"
