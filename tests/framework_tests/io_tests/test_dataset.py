"""Datasets: TensorDataset, ComposeDataset, ChainDataset, ConcatDataset, Subset, random_split."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.io import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)


class Range(Dataset):
    def __init__(self, n: int, offset: int = 0) -> None:
        self.n = n
        self.offset = offset

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if not 0 <= i < self.n:
            raise IndexError(i)
        return i + self.offset


class Stream(IterableDataset):
    def __init__(self, values: list[int]) -> None:
        self.values = values

    def __iter__(self):
        yield from self.values


def test_base_dataset_methods_say_what_is_missing():
    with pytest.raises(NotImplementedError, match="__getitem__"):
        Dataset()[0]
    with pytest.raises(NotImplementedError, match="__len__"):
        len(Dataset())
    with pytest.raises(NotImplementedError, match="__iter__"):
        iter(IterableDataset())


@pytest.mark.parametrize("use_tensors", [True, False])
def test_tensor_dataset_returns_rows_of_every_tensor(use_tensors):
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.arange(4, dtype=np.int64)
    tensors = [framework.to_tensor(x), framework.to_tensor(y)] if use_tensors else [x, y]
    ds = TensorDataset(tensors)
    assert len(ds) == 4
    row_x, row_y = ds[2]
    assert isinstance(row_x, framework.Tensor) == use_tensors
    np.testing.assert_array_equal(np.asarray(row_x), x[2])
    assert int(np.asarray(row_y)) == 2


def test_tensor_dataset_rejects_mismatched_first_dimensions():
    with pytest.raises(ValueError, match="first dimension"):
        TensorDataset([np.zeros((3, 2)), np.zeros((4,))])


def test_compose_dataset_concatenates_fields():
    ds = ComposeDataset([TensorDataset([np.arange(3), np.arange(3) * 10]), Range(3, 100)])
    assert len(ds) == 3
    assert [int(v) for v in ds[1]] == [1, 10, 101]
    with pytest.raises(ValueError, match="lengths"):
        ComposeDataset([Range(3), Range(4)])
    with pytest.raises(TypeError):
        ComposeDataset([Stream([1])])


def test_chain_and_concat_datasets():
    assert list(ChainDataset([Stream([1, 2]), Stream([3])])) == [1, 2, 3]
    with pytest.raises(TypeError):
        ChainDataset([Range(2)])
    cat = ConcatDataset([Range(2), Range(3, 10)])
    assert len(cat) == 5
    assert [cat[i] for i in range(5)] == [0, 1, 10, 11, 12]
    assert cat[-1] == 12


def test_subset_maps_indices():
    sub = Subset(Range(10), [7, 2, 5])
    assert len(sub) == 3
    assert [sub[i] for i in range(3)] == [7, 2, 5]


@pytest.mark.parametrize("lengths", [[7, 3], [0.5, 0.3, 0.2], [1.0], [0.34, 0.33, 0.33]])
def test_random_split_partitions_the_dataset(lengths):
    parts = random_split(Range(10), lengths)
    values = sorted(v for part in parts for v in (part[i] for i in range(len(part))))
    assert values == list(range(10))
    if isinstance(lengths[0], int):
        assert [len(p) for p in parts] == lengths


def test_random_split_deals_fraction_remainders_like_paddle():
    # 10 * [0.34, 0.33, 0.33] floors to [3, 3, 3]; the 1 left goes to the first split.
    assert [len(p) for p in random_split(Range(10), [0.34, 0.33, 0.33])] == [4, 3, 3]


def test_random_split_is_repeatable_with_framework_seed_and_with_a_generator():
    framework.seed(3)
    a = random_split(Range(20), [10, 10])[0].indices
    framework.seed(3)
    b = random_split(Range(20), [10, 10])[0].indices
    framework.seed(4)
    c = random_split(Range(20), [10, 10])[0].indices
    assert a == b and a != c
    g1 = random_split(Range(20), [10, 10], generator=np.random.default_rng(5))[0].indices
    g2 = random_split(Range(20), [10, 10], generator=5)[0].indices
    assert g1 == g2


def test_random_split_rejects_wrong_lengths():
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(Range(10), [3, 3])
