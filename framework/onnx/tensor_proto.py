"""ONNX TensorProto <-> NumPy arrays, and the table of ONNX element types.

Arrays are written as little-endian `raw_data`. Reading accepts every storage ONNX allows
(raw_data, the typed `*_data` fields packed or not, and external data files next to the model);
raw data is wrapped with `numpy.frombuffer`, never converted value by value.
"""

from __future__ import annotations

import os

import numpy as np

from framework.onnx import wire
from framework.onnx.errors import OnnxFormatError

# TensorProto.DataType -> NumPy dtype (little-endian). 16 (bfloat16) is widened to float32.
ONNX_TO_NUMPY: dict[int, np.dtype] = {
    1: np.dtype("<f4"),
    2: np.dtype("u1"),
    3: np.dtype("i1"),
    4: np.dtype("<u2"),
    5: np.dtype("<i2"),
    6: np.dtype("<i4"),
    7: np.dtype("<i8"),
    9: np.dtype("bool"),
    10: np.dtype("<f2"),
    11: np.dtype("<f8"),
    12: np.dtype("<u4"),
    13: np.dtype("<u8"),
    14: np.dtype("<c8"),
    15: np.dtype("<c16"),
}
NUMPY_TO_ONNX: dict[str, int] = {dtype.name: code for code, dtype in ONNX_TO_NUMPY.items()}
BFLOAT16 = 16
_STRING = 8


def round_to_bfloat16(xp, values):
    """float32 `values` rounded to the nearest bfloat16 (ties to even), still held as float32.

    NaN stays NaN; values past bfloat16's range round to +-inf, as a real cast does.
    """
    values = xp.ascontiguousarray(values, dtype=np.float32)
    bits = values.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return xp.where(xp.isnan(values), values, rounded.view(np.float32))


def onnx_type(dtype: object) -> int:
    """The TensorProto.DataType code of a NumPy dtype."""
    name = np.dtype(dtype).name
    if name not in NUMPY_TO_ONNX:
        raise TypeError(f"ONNX has no element type for {name}")
    return NUMPY_TO_ONNX[name]


def numpy_type(code: int) -> np.dtype:
    if code == BFLOAT16:
        return np.dtype("float32")
    if code not in ONNX_TO_NUMPY:
        raise OnnxFormatError(f"unsupported tensor element type {code}")
    return ONNX_TO_NUMPY[code]


def encode_tensor(array: np.ndarray, name: str = "") -> wire.Writer:
    array = np.asarray(array)
    code = onnx_type(array.dtype)
    out = wire.Writer().varints(1, array.shape).varint(2, code)
    if name:
        out.string(8, name)
    data = np.ascontiguousarray(array, dtype=ONNX_TO_NUMPY[code])
    return out.bytes(9, data.tobytes())


def decode_tensor(
    buf: bytes, span: tuple[int, int], base_dir: str | None
) -> tuple[str, np.ndarray]:
    """(name, array) of the TensorProto at `span`; the array may be a read-only view of `buf`."""
    dims: list[int] = []
    code = 0
    name = ""
    raw: tuple[int, int] | None = None
    typed: dict[int, list] = {}
    external: dict[str, str] = {}
    location = 0
    for number, wire_type, value in wire.fields(buf, *span):
        if number == 1:
            if wire_type == wire.LENGTH:
                dims.extend(int(v) for v in wire.packed_varints(buf, value))
            else:
                dims.append(wire.as_signed(value))
        elif number == 2 and wire_type == wire.VARINT:
            code = int(value)
        elif number == 8 and wire_type == wire.LENGTH:
            name = wire.text(buf, value)
        elif number == 9 and wire_type == wire.LENGTH:
            raw = value
        elif number in (4, 5, 7, 10, 11):
            typed.setdefault(number, []).append(_typed_chunk(buf, number, wire_type, value))
        elif number == 6:
            raise OnnxFormatError(f"tensor {name!r}: string tensors are not supported")
        elif number == 13 and wire_type == wire.LENGTH:
            key, text = "", ""
            for n, t, v in wire.fields(buf, *value):
                if t == wire.LENGTH:
                    if n == 1:
                        key = wire.text(buf, v)
                    elif n == 2:
                        text = wire.text(buf, v)
            external[key] = text
        elif number == 14 and wire_type == wire.VARINT:
            location = int(value)
    if code == _STRING:
        raise OnnxFormatError(f"tensor {name!r}: string tensors are not supported")
    count = int(np.prod(dims, dtype=np.int64)) if dims else 1
    if any(d < 0 for d in dims):
        raise OnnxFormatError(f"tensor {name!r} has negative dims {dims}")
    if location == 1:
        values = _external(name, external, base_dir, code)
    elif raw is not None:
        values = _raw(buf, raw, code, name)
    else:
        values = _from_typed(typed, code, name)
    if values.size != count:
        raise OnnxFormatError(
            f"tensor {name!r} holds {values.size} values, its dims {dims} need {count}"
        )
    return name, values.reshape(dims)


def _typed_chunk(buf: bytes, number: int, wire_type: int, value) -> np.ndarray:
    if number in (4, 10):  # float_data (fixed32), double_data (fixed64)
        dtype = "<f4" if number == 4 else "<f8"
        if wire_type == wire.LENGTH:
            return wire.packed_fixed(buf, value, dtype)
        return np.frombuffer(value, dtype)
    if wire_type == wire.LENGTH:  # int32_data, int64_data, uint64_data (varints)
        return wire.packed_varints(buf, value)
    return np.array([wire.as_signed(value)], dtype=np.int64)


def _raw(buf: bytes, span: tuple[int, int], code: int, name: str) -> np.ndarray:
    size = span[1] - span[0]
    if code == BFLOAT16:
        if size % 2:
            raise OnnxFormatError(f"tensor {name!r}: odd-sized bfloat16 data")
        bits = np.frombuffer(buf, "<u2", size // 2, span[0]).astype(np.uint32) << 16
        return bits.view(np.float32)
    dtype = numpy_type(code)
    if size % dtype.itemsize:
        raise OnnxFormatError(
            f"tensor {name!r}: {size} bytes of raw data is not a whole number of {dtype.name}"
        )
    return np.frombuffer(buf, dtype, size // dtype.itemsize, span[0])


def _from_typed(typed: dict[int, list], code: int, name: str) -> np.ndarray:
    def joined(number: int) -> np.ndarray:
        chunks = typed.get(number, [])
        return np.concatenate(chunks) if chunks else np.zeros(0)

    dtype = numpy_type(code)
    if code in (1, 14):  # float, complex64
        values = joined(4).astype(np.float32)
        return values.view(np.complex64) if code == 14 else values
    if code in (11, 15):
        values = joined(10).astype(np.float64)
        return values.view(np.complex128) if code == 15 else values
    if code == 7:
        return joined(7).astype(np.int64)
    if code in (12, 13):
        return joined(11).astype(np.int64).view(np.uint64).astype(dtype)
    if code in (10, BFLOAT16):  # half-precision bits stored in int32_data
        bits = joined(5).astype(np.uint16)
        if code == 10:
            return bits.view(np.float16)
        return (bits.astype(np.uint32) << 16).view(np.float32)
    if code in (2, 3, 4, 5, 6, 9):
        return joined(5).astype(np.int64).astype(dtype)
    raise OnnxFormatError(f"tensor {name!r}: unsupported element type {code}")


def _external(name: str, info: dict[str, str], base_dir: str | None, code: int) -> np.ndarray:
    location = info.get("location", "")
    if base_dir is None or not location:
        raise OnnxFormatError(f"tensor {name!r} is stored in an external file that is not given")
    path = os.path.normpath(os.path.join(base_dir, location))
    if os.path.isabs(location) or not path.startswith(os.path.normpath(base_dir) + os.sep):
        raise OnnxFormatError(
            f"tensor {name!r}: external data location {location!r} leaves the model's folder"
        )
    offset = int(info.get("offset", 0) or 0)
    length = info.get("length")
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            data = handle.read(int(length)) if length else handle.read()
    except OSError as error:
        raise OnnxFormatError(f"tensor {name!r}: cannot read external data: {error}") from error
    return _raw(data, (0, len(data)), code, name)
