"""Collation: turn a list of samples into one batch.

`default_collate_fn` stacks fields of the same structure: NumPy arrays, Python numbers and
Tensors become one batched Tensor per field; dicts, lists and tuples are collated field by
field; strings and bytes are kept as lists.

    samples = [(np.zeros((3, 4), "float32"), 0), (np.ones((3, 4), "float32"), 1)]
    images, labels = default_collate_fn(samples)
    images.shape, labels.shape   # [2, 3, 4], [2]
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from framework.core import backend
from framework.core.tensor import Tensor


def collate_arrays(batch: Sequence[Any], stack: Callable[[list], Any] | None = None) -> Any:
    """Like `default_collate_fn` but leaves the stacked fields as NumPy arrays.

    DataLoader workers collate with this, so batches cross processes as plain arrays and
    become Tensors only in the main process. `stack(list_of_arrays)` replaces `np.stack` for
    array and Tensor fields (workers defer it, to stack straight into shared memory).
    """
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0) if stack is None else stack(list(batch))
    if isinstance(sample, Tensor):
        arrays = [t._data for t in batch]
        if stack is not None:
            return stack(arrays)
        return backend.get_array_module(sample._data).stack(arrays, axis=0)
    if isinstance(sample, numbers.Number | np.generic):
        return np.array(batch)
    if isinstance(sample, str | bytes):
        return list(batch)
    if isinstance(sample, Mapping):
        return {key: collate_arrays([d[key] for d in batch], stack) for key in sample}
    if isinstance(sample, Sequence):
        width = len(sample)
        if any(len(s) != width for s in batch):
            raise RuntimeError("fields number not same among samples in a batch")
        return [collate_arrays(list(fields), stack) for fields in zip(*batch, strict=True)]
    raise TypeError(
        "batch data can only contain: Tensor, numpy.ndarray, dict, list, tuple, number, str, "
        f"bytes, but got {type(sample)}"
    )


def default_collate_fn(batch: Sequence[Any]) -> Any:
    """Stack samples into a batch of Tensors, as `paddle.io.dataloader.collate.default_collate_fn`.

    Stack a list of samples into a batch of Tensors (see the module docstring).

    Args:
        batch (list): samples of one structure: arrays, Tensors, numbers, or tuples, lists and dicts
            of them.

    Returns:
        The batch, the samples' structure with each field stacked into a Tensor `[len(batch), ...]`.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import default_collate_fn
        >>> batch = default_collate_fn([(np.ones(2, 'float32'), 0), (np.zeros(2, 'float32'), 1)])
        >>> print(batch[0])
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1., 1.],
                [0., 0.]])
        >>> print(batch[1])
        Tensor(shape=[2], dtype=int64, place=Place(cpu), stop_gradient=True,
               [0, 1])
    """
    return arrays_to_tensors(collate_arrays(batch))


def default_convert_fn(batch: Any) -> Any:
    """Turn one sample's arrays into Tensors, as `paddle.io.dataloader.collate.default_convert_fn`.

    Used when `batch_size=None`: each sample is returned alone, its arrays as Tensors.

    Args:
        batch (Any): one sample: an array, a Tensor, a number, or tuples, lists and dicts of them.

    Returns:
        The sample, its NumPy arrays turned into Tensors.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import default_convert_fn
        >>> print(default_convert_fn({'x': np.array([1.0, 2.0])}))
        {'x': Tensor(shape=[2], dtype=float64, place=Place(cpu), stop_gradient=True,
               [1., 2.])}
    """
    return arrays_to_tensors(batch)


def arrays_to_tensors(data: Any, place: backend.Place | None = None) -> Any:
    """Replace every array leaf of a nested structure by a Tensor (on `place`, default the
    current device). Sequences become lists, as in Paddle."""
    if isinstance(data, Tensor):
        return data if place is None or data.place == place else Tensor(data, place=place)
    if isinstance(data, np.ndarray) or backend.is_gpu_array(data):
        return Tensor(data, place=place)
    if isinstance(data, str | bytes):
        return data
    if isinstance(data, Mapping):
        return {key: arrays_to_tensors(value, place) for key, value in data.items()}
    if isinstance(data, Sequence):
        return [arrays_to_tensors(value, place) for value in data]
    return data
