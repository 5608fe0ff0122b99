"""`class_center_sample`: the class centres a PartialFC step trains on (Paddle's
`nn.functional.class_center_sample`, one card; `group` is accepted and must be None/False)."""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core.random import get_rng
from framework.core.tensor import Tensor


def class_center_sample(
    label: Tensor, num_classes: int, num_samples: int, group: object = None
) -> tuple[Tensor, Tensor]:
    """Keep every class present in `label` (the positives, ascending) and fill up to
    `num_samples` centres with negatives drawn at random without replacement from the other
    classes; remap `label` to positions among the kept centres.

    `label`: `[N]` int32/int64 in `[0, num_classes)`. Returns `(remapped_label [N],
    sampled_class_center [max(num_samples, #positives)])`, both in the dtype of `label`.
    Random through `framework.seed`.

        label = framework.to_tensor([5, 1, 5, 9, 3])
        remapped, centres = F.class_center_sample(label, num_classes=12, num_samples=6)
        # remapped: [2, 0, 2, 3, 1]; centres: [1, 3, 5, 9, <two of the others>]
    """
    if group not in (None, False):
        raise NotImplementedError("class_center_sample: model-parallel groups are not supported")
    if label.ndim != 1:
        raise ValueError(f"Expected label_dims == 1 (got label_dims: {label.ndim})")
    if label._data.dtype.kind not in "iu":
        raise TypeError(
            f"class_center_sample: label must be int32 or int64, got {label._data.dtype.name}"
        )
    if num_samples > num_classes:
        raise ValueError(
            f"Expected num_samples less than or equal to {num_classes}, got num_samples "
            f"{num_samples}"
        )
    labels = backend.to_numpy(label._data).astype(np.int64)
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise ValueError(
            f"class_center_sample: labels must lie in [0, {num_classes}), got "
            f"[{labels.min()}, {labels.max()}]"
        )
    positives, remapped = np.unique(labels, return_inverse=True)
    wanted = num_samples - positives.size
    if wanted > 0:
        others = np.setdiff1d(np.arange(num_classes), positives, assume_unique=True)
        negatives = get_rng().choice(others, size=wanted, replace=False)
        centres = np.concatenate([positives, negatives])
    else:
        centres = positives
    xp = backend.get_array_module(label._data)
    dtype = label._data.dtype
    return (
        Tensor._wrap(xp.asarray(remapped.reshape(-1).astype(dtype))),
        Tensor._wrap(xp.asarray(centres.astype(dtype))),
    )
