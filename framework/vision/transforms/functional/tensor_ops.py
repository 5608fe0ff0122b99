"""Conversion to a Tensor, normalisation and erasing, as in
`paddle.vision.transforms.functional`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image

from framework.core import backend
from framework.core.tensor import Tensor
from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil
from framework.vision.transforms.functional.image_kinds import (
    _dispatch,
    _is_numpy_image,
    _is_pil_image,
    _is_tensor_image,
)


def to_tensor(pic: Image.Image | np.ndarray | Tensor, data_format: str = "CHW") -> Tensor:
    """An image to a Tensor, as `paddle.vision.transforms.to_tensor`.

    HWC image -> Tensor laid out as `data_format`; uint8 becomes float32 in [0, 1], other
    dtypes are kept. A Tensor is assumed CHW already.

    Args:
        pic (PIL.Image|numpy.ndarray|Tensor): an HWC image; a Tensor is taken as CHW already.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: uint8 becomes float32 in [0, 1], other dtypes are kept; laid out as `data_format`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> t = F.to_tensor(np.full((2, 4, 3), 255, 'uint8'))
        >>> t.shape, float(t.max())
        (paddle.Size([3, 2, 4]), 1.0)
    """
    if _is_pil_image(pic):
        return F_pil.to_tensor(pic, data_format)
    if _is_numpy_image(pic):
        return F_np.to_tensor(pic, data_format)
    if _is_tensor_image(pic):
        if data_format.upper() == "CHW":
            return pic
        xp = backend.get_array_module(pic._data)
        return Tensor(xp.ascontiguousarray(xp.moveaxis(pic._data, 0, -1)))
    raise TypeError(
        f"pic should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. Got {type(pic)}"
    )


def erase(img: Any, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Any:
    """Set a rectangle to a value, as `paddle.vision.transforms.erase`.

    Set rows `i:i+h`, columns `j:j+w` to `v` (broadcast: a number, one value per channel,
    or a whole patch); returns the same kind of image.

    A CHW Tensor takes `v` as a Tensor or array shaped for `img[..., i:i+h, j:j+w]` (e.g.
    `[C, 1, 1]`); an HWC array or a PIL image takes an array shaped for `img[i:i+h, j:j+w]`
    (e.g. `[1, 1, C]`). With `inplace` a Tensor or an array is changed and returned; a PIL
    image is always copied.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        i (int): the first row erased.
        j (int): the first column erased.
        h (int): rows erased.
        w (int): columns erased.
        v (number|numpy.ndarray|Tensor): the value, broadcast to the erased patch.
        inplace (bool, optional): change a Tensor or array in place. Default: False.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import framework as paddle
        >>> import framework.vision.transforms.functional as F
        >>> x = paddle.ones([1, 2, 3])
        >>> print(F.erase(x, 0, 1, 1, 2, paddle.zeros([1, 1, 1])))
        Tensor(shape=[1, 2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[1., 0., 0.],
                 [1., 1., 1.]]])
    """
    if _is_tensor_image(img):
        out = img if inplace else img.clone()
        out[..., i : i + h, j : j + w] = v
        return out
    if isinstance(v, Tensor):
        v = v.numpy()
    return _dispatch(img, F_pil.erase, F_np.erase, i, j, h, w, v, inplace)


def normalize(
    img: Any,
    mean: float | Sequence[float],
    std: float | Sequence[float],
    data_format: str = "CHW",
    to_rgb: bool = False,
) -> Any:
    """Normalise per channel, as `paddle.vision.transforms.normalize`.

    `(img - mean) / std` per channel, in float32. A Tensor gives a Tensor (on its device);
    a PIL image or an array gives an array. `to_rgb` reverses the channel order first.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        mean (float|list|tuple): per channel, or one for all.
        std (float|list|tuple): per channel, or one for all.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.
        to_rgb (bool, optional): reverse the channel order first. Default: False.

    Returns:
        float32: a Tensor for a Tensor, else an array.

    Examples:
        >>> import framework as paddle
        >>> import framework.vision.transforms.functional as F
        >>> x = paddle.to_tensor([[[0.5]], [[1.0]], [[0.0]]])
        >>> print(F.normalize(x, mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5]).flatten())
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [ 0.,  1., -1.])
    """
    if _is_tensor_image(img):
        xp = backend.get_array_module(img._data)
        shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
        mean = xp.asarray(mean, dtype=np.float32).reshape(shape)
        std = xp.asarray(std, dtype=np.float32).reshape(shape)
        data = img._data
        if to_rgb:
            data = xp.flip(data, axis=0 if data_format == "CHW" else -1)
        out = data.astype(np.float32, copy=False) - mean
        out /= std  # in place: one image-sized allocation per call, not two
        return Tensor(out)
    if _is_pil_image(img):
        img = np.asarray(img, np.float32)
    return F_np.normalize(img, mean, std, data_format, to_rgb)
