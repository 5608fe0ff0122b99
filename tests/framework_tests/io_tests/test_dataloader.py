"""DataLoader in the main process: ordering, shuffling, drop_last, samplers, collate, errors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.io import (
    BatchSampler,
    DataLoader,
    Dataset,
    DistributedBatchSampler,
    IterableDataset,
    SequenceSampler,
    TensorDataset,
)


class Numbered(Dataset):
    """Sample i is (an image filled with i, label i)."""

    def __init__(self, n: int = 10) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return np.full((2, 3), i, np.float32), np.int64(i)


class Counting(IterableDataset):
    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield np.array([i], np.int64)


def labels_of(loader) -> list[list[int]]:
    return [batch[1].numpy().tolist() for batch in loader]


def test_batches_come_in_order_as_tensors():
    loader = DataLoader(Numbered(10), batch_size=4)
    assert len(loader) == 3
    batches = list(loader)
    images, labels = batches[0]
    assert isinstance(images, framework.Tensor)
    assert images.shape == [4, 2, 3] and images.dtype == np.float32
    assert labels.dtype == np.int64
    assert labels_of(loader) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    np.testing.assert_array_equal(batches[2][0].numpy()[:, 0, 0], [8, 9])


@pytest.mark.parametrize(("n", "batch_size"), [(10, 4), (8, 4), (3, 5)])
def test_drop_last_drops_only_a_partial_batch(n, batch_size):
    loader = DataLoader(Numbered(n), batch_size=batch_size, drop_last=True)
    batches = labels_of(loader)
    assert len(batches) == len(loader) == n // batch_size
    assert all(len(b) == batch_size for b in batches)


def test_shuffle_is_a_seeded_permutation_per_epoch():
    loader = DataLoader(Numbered(20), batch_size=5, shuffle=True)
    framework.seed(10)
    first = sum(labels_of(loader), [])
    second = sum(labels_of(loader), [])
    framework.seed(10)
    again = sum(labels_of(loader), [])
    assert sorted(first) == list(range(20))
    assert first != list(range(20))
    assert first != second  # each epoch draws a new order
    assert first == again


def test_batch_sampler_variants():
    ds = Numbered(7)
    custom = DataLoader(ds, batch_sampler=[[6, 0], [3]])
    assert labels_of(custom) == [[6, 0], [3]]
    sampler = BatchSampler(sampler=SequenceSampler(ds), batch_size=3, drop_last=True)
    assert labels_of(DataLoader(ds, batch_sampler=sampler)) == [[0, 1, 2], [3, 4, 5]]
    dist = DistributedBatchSampler(ds, batch_size=2, num_replicas=2, rank=1)
    assert labels_of(DataLoader(ds, batch_sampler=dist)) == [[2, 3], [6, 0]]  # padded with index 0


def test_batch_size_none_returns_samples_one_by_one():
    samples = list(DataLoader(Numbered(3), batch_size=None))
    assert len(samples) == 3
    image, label = samples[2]
    assert image.shape == [2, 3] and int(label.item()) == 2


def test_custom_collate_fn_output_becomes_tensors():
    def collate(samples):
        return {"sum": np.sum([s[0] for s in samples], axis=0), "n": len(samples)}

    batch = next(iter(DataLoader(Numbered(4), batch_size=4, collate_fn=collate)))
    assert isinstance(batch["sum"], framework.Tensor)
    np.testing.assert_array_equal(batch["sum"].numpy(), np.full((2, 3), 6.0))
    assert batch["n"] == 4


def test_tensor_dataset_round_trips():
    x = np.random.rand(9, 3).astype(np.float32)
    y = np.arange(9)
    loader = DataLoader(
        TensorDataset([framework.to_tensor(x), framework.to_tensor(y)]), batch_size=4
    )
    out = list(loader)
    np.testing.assert_array_equal(np.concatenate([b[0].numpy() for b in out]), x)


@pytest.mark.parametrize(("batch_size", "drop_last", "expected"), [(4, False, 3), (4, True, 2)])
def test_iterable_dataset_batches(batch_size, drop_last, expected):
    loader = DataLoader(Counting(10), batch_size=batch_size, drop_last=drop_last)
    batches = [b.numpy().ravel().tolist() for b in loader]
    assert len(batches) == expected
    assert batches[0] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="length"):
        len(loader)


def test_argument_checks_match_paddle():
    with pytest.raises(ValueError, match="shuffle"):
        DataLoader(Counting(3), shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler"):
        DataLoader(Counting(3), batch_sampler=[[0]])
    with pytest.raises(ValueError, match="should not be set"):
        DataLoader(Numbered(3), batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="num_workers"):
        DataLoader(Numbered(3), num_workers=-1)


def test_places_puts_batches_on_that_device():
    batch = next(iter(DataLoader(Numbered(2), batch_size=2, places="cpu")))
    assert batch[0].place == framework.CPUPlace()


class Faulty(Numbered):
    def __getitem__(self, i: int):
        if i == 5:
            raise ValueError("corrupt sample")
        return super().__getitem__(i)


def test_a_bad_sample_raises_its_own_error_naming_the_index():
    with pytest.raises(ValueError, match="corrupt sample") as info:
        list(DataLoader(Faulty(8), batch_size=3))
    assert "sample index 5" in "".join(info.value.__notes__)
    assert info.value.sample_index == 5
