"""Reading image files into tensors (Paddle's `paddle.vision.ops.read_file` and
`decode_jpeg`): the raw bytes as a uint8 tensor, and a JPEG decoded to CHW uint8.

Paddle decodes with nvJPEG, on the GPU only; here PIL (libjpeg) decodes on the host, on any
device, so pixel values can differ from Paddle's by the rounding of the two decoders' IDCTs.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image

from framework.core.backend import get_array_module, to_numpy
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor

_MODES = {"unchanged": None, "gray": "L", "rgb": "RGB"}


def read_file(filename: str | Path, name: str | None = None) -> Tensor:
    """The bytes of a file as a 1-D uint8 tensor.

    Args:
        filename: path of the file.

    Returns:
        Tensor: the file's bytes, a 1-D uint8 Tensor of shape `[size]`.

    Examples:
        >>> import framework as paddle
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from PIL import Image
        >>> from framework.vision.ops import decode_jpeg, read_file
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = str(Path(tmp.name, "photo.jpg"))
        >>> Image.fromarray(np.zeros((4, 6, 3), "uint8")).save(path)
        >>> data = read_file(path)
        >>> data.dtype == paddle.uint8, data.ndim
        (True, 1)
        >>> tmp.cleanup()
    """
    data = Path(filename).read_bytes()
    return Tensor._wrap(np.frombuffer(data, dtype=np.uint8).copy())


def decode_jpeg(
    x: Tensor, mode: Literal["unchanged", "gray", "rgb"] = "unchanged", name: str | None = None
) -> Tensor:
    """Decode a JPEG held as bytes into a `[C, H, W]` uint8 image.

    Args:
        x: 1-D uint8 tensor of the file's bytes (as `read_file` gives).
        mode: "unchanged" keeps the file's channels (1 for grayscale, 3 for color), "gray"
            gives 1 channel, "rgb" 3.

    Returns:
        `[C, H, W]` uint8 tensor, on the device of `x`.

    Examples:
        >>> import framework as paddle
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from PIL import Image
        >>> from framework.vision.ops import decode_jpeg, read_file
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = str(Path(tmp.name, "photo.jpg"))
        >>> Image.fromarray(np.zeros((4, 6, 3), "uint8")).save(path)
        >>> decode_jpeg(read_file(path), mode="rgb").shape
        paddle.Size([3, 4, 6])
        >>> decode_jpeg(read_file(path), mode="gray").shape
        paddle.Size([1, 4, 6])
        >>> tmp.cleanup()
    """
    if mode not in _MODES:
        raise ValueError(f"decode_jpeg: mode must be one of {sorted(_MODES)}, got {mode!r}")
    data = as_tensor(x)._data
    if data.dtype != np.uint8 or data.ndim != 1:
        raise ValueError(f"decode_jpeg needs a 1-D uint8 tensor of bytes, got {data.dtype}")
    with Image.open(io.BytesIO(to_numpy(data).tobytes())) as image:
        if image.format != "JPEG":
            raise ValueError(f"decode_jpeg: the bytes hold a {image.format} image, not a JPEG")
        target = _MODES[mode] or ("L" if image.mode in ("L", "1") else "RGB")
        pixels = np.asarray(image.convert(target))
    chw = pixels[None] if pixels.ndim == 2 else pixels.transpose(2, 0, 1)
    xp = get_array_module(data)
    return Tensor._wrap(xp.asarray(np.ascontiguousarray(chw)))
