"""The Protocol Buffers wire format, just enough to read and write ONNX files without protobuf.

A message is a run of fields, each a key varint `(field_number << 3) | wire_type` and a payload:
a varint (type 0), 8 bytes (type 1), a length-prefixed byte string (type 2, also used for
sub-messages and packed repeated scalars) or 4 bytes (type 5). `Writer` appends fields;
`fields()` walks the fields of one message without copying payloads (a length-delimited field
comes back as `(start, end)` offsets into the buffer), so a 10 MB weights blob costs nothing
until it is wrapped with `numpy.frombuffer`.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

import numpy as np

from framework.onnx.errors import OnnxFormatError

VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5
_MASK64 = (1 << 64) - 1


# --- writing ------------------------------------------------------------------------------------
def encode_varint(value: int) -> bytes:
    """`value` as a varint; negative numbers take ten bytes (two's complement, as int64)."""
    value &= _MASK64
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class Writer:
    """Appends fields to a growing message: `Writer().varint(1, 8).string(2, "x").getvalue()`."""

    __slots__ = ("_parts",)

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def _key(self, field: int, wire_type: int) -> None:
        self._parts.append(encode_varint((field << 3) | wire_type))

    def varint(self, field: int, value: int) -> Writer:
        self._key(field, VARINT)
        self._parts.append(encode_varint(int(value)))
        return self

    def varints(self, field: int, values) -> Writer:
        """A repeated integer field, one entry per value (readable as proto2 and proto3)."""
        for value in values:
            self.varint(field, value)
        return self

    def float32(self, field: int, value: float) -> Writer:
        self._key(field, FIXED32)
        self._parts.append(struct.pack("<f", float(value)))
        return self

    def bytes(self, field: int, data: bytes | bytearray | memoryview) -> Writer:
        self._key(field, LENGTH)
        self._parts.append(encode_varint(len(data)))
        self._parts.append(bytes(data))
        return self

    def string(self, field: int, text: str) -> Writer:
        return self.bytes(field, text.encode("utf-8"))

    def message(self, field: int, sub: Writer) -> Writer:
        return self.bytes(field, sub.getvalue())

    def getvalue(self) -> bytes:
        return b"".join(self._parts)


# --- reading ------------------------------------------------------------------------------------
def read_varint(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    """(value, next position) of the varint at `pos`; raises OnnxFormatError past `end`."""
    result = 0
    shift = 0
    while True:
        if pos >= end:
            raise OnnxFormatError(f"truncated data: a number runs past the end (byte {pos})")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise OnnxFormatError(f"corrupt data: a number longer than 10 bytes at byte {pos}")


def fields(buf: bytes, start: int, end: int) -> Iterator[tuple[int, int, object]]:
    """Yield `(field_number, wire_type, payload)` for the message in `buf[start:end]`.

    The payload is an int (varint), `(start, end)` offsets (length-delimited) or the raw 4 or 8
    bytes (fixed32 / fixed64)."""
    pos = start
    while pos < end:
        key, pos = read_varint(buf, pos, end)
        field, wire_type = key >> 3, key & 7
        if field == 0:
            raise OnnxFormatError(f"corrupt data: field number 0 at byte {pos}")
        if wire_type == VARINT:
            value, pos = read_varint(buf, pos, end)
            yield field, wire_type, value
        elif wire_type == LENGTH:
            length, pos = read_varint(buf, pos, end)
            stop = pos + length
            if stop > end:
                raise OnnxFormatError(
                    f"truncated data: a {length}-byte field at byte {pos} runs past the end of "
                    f"its message (byte {end})"
                )
            yield field, wire_type, (pos, stop)
            pos = stop
        elif wire_type in (FIXED32, FIXED64):
            size = 4 if wire_type == FIXED32 else 8
            if pos + size > end:
                raise OnnxFormatError(f"truncated data: a {size}-byte number at byte {pos}")
            yield field, wire_type, buf[pos : pos + size]
            pos += size
        else:
            raise OnnxFormatError(f"corrupt data: unknown wire type {wire_type} at byte {pos}")


def as_signed(value: int) -> int:
    """A varint read as int64 (negative numbers were written as 64-bit two's complement)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def text(buf: bytes, span: tuple[int, int]) -> str:
    try:
        return bytes(buf[span[0] : span[1]]).decode("utf-8")
    except UnicodeDecodeError as error:
        raise OnnxFormatError(f"corrupt data: a string at byte {span[0]} is not UTF-8") from error


def packed_varints(buf: bytes, span: tuple[int, int]) -> np.ndarray:
    """The int64 values of a packed repeated varint field, decoded with vectorised NumPy."""
    data = np.frombuffer(buf, dtype=np.uint8, count=span[1] - span[0], offset=span[0])
    if data.size == 0:
        return np.zeros(0, dtype=np.int64)
    if data[-1] & 0x80:
        raise OnnxFormatError(f"truncated data: a packed number list at byte {span[0]}")
    ends = np.flatnonzero(data < 0x80)
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts + 1
    if lengths.max() > 10:
        raise OnnxFormatError(f"corrupt data: a number longer than 10 bytes at byte {span[0]}")
    position = np.arange(data.size) - np.repeat(starts, lengths)
    parts = (data & 0x7F).astype(np.uint64) << (7 * position).astype(np.uint64)
    return np.add.reduceat(parts, starts).view(np.int64)


def packed_fixed(buf: bytes, span: tuple[int, int], dtype: str) -> np.ndarray:
    """A packed repeated fixed-size field (`float`, `double`, ...) as a NumPy array view."""
    item = np.dtype(dtype)
    size = span[1] - span[0]
    if size % item.itemsize:
        raise OnnxFormatError(
            f"corrupt data: a packed {item.name} list of {size} bytes at byte {span[0]}"
        )
    return np.frombuffer(buf, dtype=item, count=size // item.itemsize, offset=span[0])
