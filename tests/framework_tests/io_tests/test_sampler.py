"""Samplers and batch samplers, including DistributedBatchSampler against Paddle's."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.io import (
    BatchSampler,
    DistributedBatchSampler,
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

DATA = list(range(10))


def test_sequence_sampler_visits_in_order():
    assert list(SequenceSampler(DATA)) == DATA
    assert len(SequenceSampler(DATA)) == 10


def test_base_sampler_must_be_subclassed():
    with pytest.raises(NotImplementedError):
        iter(Sampler(DATA))


def test_random_sampler_is_a_seeded_permutation():
    framework.seed(1)
    a = list(RandomSampler(DATA))
    framework.seed(1)
    b = list(RandomSampler(DATA))
    framework.seed(2)
    c = list(RandomSampler(DATA))
    assert sorted(a) == DATA
    assert a == b and a != c


def test_random_sampler_with_replacement_and_num_samples():
    sampler = RandomSampler(DATA, replacement=True, num_samples=50)
    drawn = list(sampler)
    assert len(sampler) == len(drawn) == 50
    assert all(0 <= i < 10 for i in drawn)
    assert len(set(drawn)) < 50  # with replacement, 50 draws from 10 repeat
    assert len(list(RandomSampler(DATA, num_samples=4))) == 4


def test_random_sampler_generator_forms():
    assert list(RandomSampler(DATA, num_samples=3, generator=iter([5, 1, 9, 2]))) == [5, 1, 9]
    a = list(RandomSampler(DATA, generator=np.random.default_rng(0)))
    b = list(RandomSampler(DATA, generator=np.random.default_rng(0)))
    assert a == b and sorted(a) == DATA


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"replacement": 1}, TypeError),
        ({"num_samples": 0}, ValueError),
        ({"num_samples": 11}, ValueError),
    ],
)
def test_random_sampler_rejects_bad_arguments(kwargs, error):
    with pytest.raises(error):
        RandomSampler(DATA, **kwargs)


def test_weighted_random_sampler_follows_the_weights():
    weights = [0.0, 0.0, 1.0, 3.0]
    drawn = np.array(list(WeightedRandomSampler(weights, 4000)))
    assert set(drawn.tolist()) <= {2, 3}
    assert abs((drawn == 3).mean() - 0.75) < 0.03
    unique = list(WeightedRandomSampler([1.0, 1.0, 1.0], 3, replacement=False))
    assert sorted(unique) == [0, 1, 2]
    two_rows = WeightedRandomSampler(np.ones((2, 5)), 3)
    assert len(two_rows) == len(list(two_rows)) == 6


def test_weighted_random_sampler_rejects_bad_weights():
    with pytest.raises(ValueError, match="non-negative"):
        list(WeightedRandomSampler([1.0, -1.0], 2))
    with pytest.raises(ValueError, match="num_samples"):
        list(WeightedRandomSampler([1.0, 0.0], 2, replacement=False))
    with pytest.raises(ValueError):
        WeightedRandomSampler([1.0], 0)


def test_subset_random_sampler_permutes_the_subset():
    indices = [3, 30, 300, 3000]
    drawn = list(SubsetRandomSampler(indices))
    assert sorted(drawn) == indices
    with pytest.raises(ValueError):
        SubsetRandomSampler([])


@pytest.mark.parametrize(
    ("batch_size", "drop_last"), [(3, False), (3, True), (5, False), (1, True)]
)
def test_batch_sampler_groups_indices(batch_size, drop_last):
    sampler = BatchSampler(dataset=DATA, batch_size=batch_size, drop_last=drop_last)
    batches = list(sampler)
    assert len(batches) == len(sampler)
    flat = [i for b in batches for i in b]
    expected_n = 10 - (10 % batch_size if drop_last else 0)
    assert flat == DATA[:expected_n]
    assert all(len(b) == batch_size for b in batches[:-1])


def test_batch_sampler_from_a_sampler_and_shuffle():
    batches = list(BatchSampler(sampler=SequenceSampler(DATA), batch_size=4))
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    shuffled = [i for b in BatchSampler(dataset=DATA, shuffle=True, batch_size=4) for i in b]
    assert sorted(shuffled) == DATA and shuffled != DATA


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"dataset": DATA, "sampler": SequenceSampler(DATA)},
        {"sampler": SequenceSampler(DATA), "shuffle": True},
        {"dataset": DATA, "batch_size": 0},
        {"dataset": DATA, "drop_last": 1},
    ],
)
def test_batch_sampler_rejects_bad_arguments(kwargs):
    with pytest.raises((ValueError, TypeError)):
        BatchSampler(**kwargs)


@pytest.mark.parametrize("n", [10, 11, 3])
@pytest.mark.parametrize("nranks", [1, 2, 3])
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("drop_last", [False, True])
def test_distributed_batch_sampler_matches_paddle(n, nranks, shuffle, drop_last):
    paddle_io = pytest.importorskip("paddle.io")
    data = list(range(n))
    for rank in range(nranks):
        ours = DistributedBatchSampler(data, 2, nranks, rank, shuffle, drop_last)
        theirs = paddle_io.DistributedBatchSampler(data, 2, nranks, rank, shuffle, drop_last)
        for epoch in (0, 3):
            ours.set_epoch(epoch)
            theirs.set_epoch(epoch)
            assert list(ours) == list(theirs)
            assert len(ours) == len(theirs)


def test_distributed_ranks_cover_the_dataset_once_per_epoch():
    data = list(range(12))
    seen = []
    for rank in range(3):
        sampler = DistributedBatchSampler(data, batch_size=2, num_replicas=3, rank=rank)
        seen += [i for b in sampler for i in b]
    assert sorted(seen) == data


def test_distributed_batch_sampler_rejects_a_bad_rank():
    with pytest.raises(ValueError, match="rank"):
        DistributedBatchSampler(DATA, 2, num_replicas=2, rank=2)
