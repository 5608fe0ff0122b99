"""Datasets, samplers and the DataLoader, as in `paddle.io`."""

from framework.io.batch_sampler import BatchSampler, DistributedBatchSampler
from framework.io.collate import default_collate_fn, default_convert_fn
from framework.io.dataloader import DataLoader
from framework.io.dataset import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from framework.io.sampler import (
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from framework.io.worker import WorkerInfo, get_worker_info

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
    "BatchSampler",
    "DistributedBatchSampler",
    "DataLoader",
    "default_collate_fn",
    "default_convert_fn",
    "get_worker_info",
    "WorkerInfo",
]
