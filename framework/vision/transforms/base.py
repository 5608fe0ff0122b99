"""`Compose` and `BaseTransform`, the shape every transform takes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class Compose:
    """Apply transforms in order, as `paddle.vision.transforms.Compose`.

    Apply transforms in order.

    Args:
        transforms (list|tuple): callables applied in order, each to the previous one's result.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The last transform's result.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> pipeline = T.Compose([T.Resize(32), T.CenterCrop(24), T.ToTensor()])
        >>> pipeline(np.zeros((40, 60, 3), 'uint8')).shape
        paddle.Size([3, 24, 24])
    """

    def __init__(self, transforms: Sequence[Callable[[Any], Any]]) -> None:
        self.transforms = transforms

    def __call__(self, data: Any) -> Any:
        for transform in self.transforms:
            try:
                data = transform(data)
            except Exception as error:
                error.add_note(f"(in transform {transform!r})")
                raise
        return data

    def __repr__(self) -> str:
        lines = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({lines}\n)"


class BaseTransform:
    """The base of the transforms, as `paddle.vision.transforms.BaseTransform`.

    `keys` names what each positional input is ('image', 'boxes', 'mask', 'coords'); a
    transform applies `_apply_<key>` to each and passes other inputs through. Random
    parameters are drawn once per call in `_get_params(inputs)`, so every input of one call
    sees the same draw.

    Args:
        keys (list|tuple, optional): the kind of each positional input; None is ('image',).
            Default: None.

    Returns:
        The transformed input; a tuple when several inputs are given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision.transforms import BaseTransform
        >>> class RandomInvert(BaseTransform):
        ...     def _get_params(self, inputs):
        ...         return paddle.core.random.get_rng().random() < 0.5
        ...     def _apply_image(self, image):
        ...         return 255 - np.asarray(image) if self.params else image
        ...
        >>> _ = paddle.seed(1)
        >>> [RandomInvert()(np.zeros((1, 1), 'uint8')).item() for _ in range(4)]
        [0, 0, 255, 0]
    """

    def __init__(self, keys: Sequence[str] | None = None) -> None:
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence) or isinstance(keys, str):
            raise ValueError(f"keys should be a sequence, but got keys={keys}")
        for key in keys:
            if self._get_apply(key) is None:
                raise NotImplementedError(f"{key} is unsupported data structure")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs: tuple) -> Any:
        return None

    def __call__(self, inputs: Any) -> Any:
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        outputs = [
            self._get_apply(key)(value) for key, value in zip(self.keys, inputs, strict=False)
        ]
        outputs.extend(inputs[len(self.keys) :])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key: str) -> Callable[[Any], Any] | None:
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image: Any) -> Any:
        raise NotImplementedError

    def _apply_boxes(self, boxes: Any) -> Any:
        raise NotImplementedError

    def _apply_mask(self, mask: Any) -> Any:
        raise NotImplementedError

    def _apply_coords(self, coords: Any) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        fields = {
            k: v for k, v in vars(self).items() if k not in ("keys", "params") and k[0] != "_"
        }
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in fields.items())})"
