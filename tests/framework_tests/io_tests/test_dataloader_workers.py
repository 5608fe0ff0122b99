"""DataLoader with worker processes: same batches as num_workers=0, seeding, sharding,
errors that name the sample, dead workers, timeouts and clean shutdown."""

from __future__ import annotations

import gc
import glob
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import framework
from framework.core.random import get_rng
from framework.io import (
    DataLoader,
    Dataset,
    IterableDataset,
    TensorDataset,
    dataloader_iter,
    get_worker_info,
)

pytestmark = pytest.mark.timeout(60)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(framework.__file__)))


class Numbered(Dataset):
    def __init__(self, n: int = 23, size: int = 8) -> None:
        self.n = n
        self.size = size

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        image = np.full((3, self.size, self.size), i, np.float32)
        return {"image": image, "label": np.int64(i), "name": f"s{i}"}


class Augmented(Dataset):
    """Every generator a transform may use, drawn once per sample."""

    def __len__(self) -> int:
        return 12

    def __getitem__(self, i: int):
        return np.array(
            [get_rng().random(), np.random.random(), random.random(), float(i)], np.float64
        )


class Sharded(IterableDataset):
    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            yield np.int64(i)


class Faulty(Numbered):
    def __getitem__(self, i: int):
        if i == 13:
            raise ValueError("corrupt JPEG header")
        return super().__getitem__(i)


class MissingKey(Numbered):
    def __getitem__(self, i: int):
        return {}["no-such-field"] if i == 2 else super().__getitem__(i)


class OddError(Exception):
    def __init__(self, code: int, detail: str) -> None:
        super().__init__(code, detail)


class OddFaulty(Numbered):
    def __getitem__(self, i: int):
        if i == 4:
            raise OddError(7, "custom constructor")
        return super().__getitem__(i)


class Dying(Numbered):
    def __getitem__(self, i: int):
        if i == 9 and get_worker_info() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().__getitem__(i)


class Slow(Numbered):
    def __getitem__(self, i: int):
        time.sleep(3 if i >= 2 else 0)
        return super().__getitem__(i)


def as_numpy(batches):
    return [
        (b["image"].numpy().copy(), b["label"].numpy().copy(), list(b["name"])) for b in batches
    ]


def assert_same_batches(a, b):
    assert len(a) == len(b)
    for (ia, la, na), (ib, lb, nb) in zip(a, b, strict=True):
        np.testing.assert_array_equal(ia, ib)
        np.testing.assert_array_equal(la, lb)
        assert na == nb


def shm_files(loader_iter=None) -> list[str]:
    return glob.glob(f"/dev/shm/framework-dl-{os.getpid()}-*")


@pytest.mark.parametrize("num_workers", [1, 2, 3])
@pytest.mark.parametrize("use_shared_memory", [True, False])
def test_workers_return_the_same_batches_as_the_main_process(num_workers, use_shared_memory):
    ds = Numbered(23, size=96)  # 3*96*96*4 bytes/sample: batches go through shared memory
    expected = as_numpy(DataLoader(ds, batch_size=4))
    loader = DataLoader(
        ds, batch_size=4, num_workers=num_workers, use_shared_memory=use_shared_memory
    )
    assert_same_batches(as_numpy(loader), expected)
    assert shm_files() == []


def tensor_collate(samples):
    images = framework.to_tensor(np.stack([s["image"] for s in samples]))
    return {"images": images, "count": len(samples), "first": samples[0]["name"]}


@pytest.mark.parametrize("batch_size", [None, 3])
def test_workers_handle_custom_collate_and_unbatched_samples(batch_size):
    collate = tensor_collate if batch_size else None
    kwargs = {"batch_size": batch_size, "collate_fn": collate}
    serial = list(DataLoader(Numbered(7, size=64), **kwargs))
    parallel = list(DataLoader(Numbered(7, size=64), num_workers=2, **kwargs))
    assert len(serial) == len(parallel) == (3 if batch_size else 7)
    for a, b in zip(serial, parallel, strict=True):
        assert set(a) == set(b)
        for key in a:
            if isinstance(a[key], framework.Tensor):
                assert isinstance(b[key], framework.Tensor)
                np.testing.assert_array_equal(a[key].numpy(), b[key].numpy())
            else:
                assert a[key] == b[key]


def test_workers_follow_a_seeded_shuffle_and_drop_last():
    ds = Numbered(23)
    framework.seed(5)
    expected = as_numpy(DataLoader(ds, batch_size=5, shuffle=True, drop_last=True))
    framework.seed(5)
    got = as_numpy(DataLoader(ds, batch_size=5, shuffle=True, drop_last=True, num_workers=2))
    assert_same_batches(got, expected)
    assert len(got) == 4


def test_prefetch_factor_bounds_tasks_in_flight():
    it = iter(DataLoader(Numbered(40), batch_size=2, num_workers=2, prefetch_factor=3))
    assert it._send_idx == 6
    next(it)
    assert it._send_idx - it._rcvd_idx == 6
    del it


def test_augmentation_is_repeatable_and_differs_between_workers():
    loader = DataLoader(Augmented(), batch_size=2, num_workers=2)
    framework.seed(11)
    a = np.concatenate([b.numpy() for b in loader])
    framework.seed(11)
    b = np.concatenate([b.numpy() for b in loader])
    framework.seed(12)
    c = np.concatenate([b.numpy() for b in loader])
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a[:, :3], c[:, :3])
    # batch 0 ran on worker 0 and batch 1 on worker 1: their draws must differ
    assert not np.array_equal(a[0:2, :3], a[2:4, :3])
    np.testing.assert_array_equal(a[:, 3], np.arange(12))


def test_worker_info_and_worker_init_fn():
    class Report(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            info = get_worker_info()
            return np.array([info.id, info.num_workers, os.environ["INIT_BY"] == str(info.id)])

    def init(worker_id):
        os.environ["INIT_BY"] = str(worker_id)

    batches = [
        b.numpy() for b in DataLoader(Report(), batch_size=1, num_workers=2, worker_init_fn=init)
    ]
    assert [b[0].tolist() for b in batches] == [[0, 2, 1], [1, 2, 1], [0, 2, 1], [1, 2, 1]]
    assert get_worker_info() is None


@pytest.mark.parametrize("num_workers", [1, 2, 3])
def test_sharded_iterable_dataset_yields_every_sample_once(num_workers):
    loader = DataLoader(Sharded(17), batch_size=3, num_workers=num_workers)
    values = sorted(v for b in loader for v in b.numpy().tolist())
    assert values == list(range(17))


def test_iterable_drop_last_applies_per_worker():
    batches = [
        b.numpy().tolist()
        for b in DataLoader(Sharded(10), batch_size=3, num_workers=2, drop_last=True)
    ]
    # worker 0 streams 0,2,4,6,8 and worker 1 streams 1,3,5,7,9: one full batch each
    assert batches == [[0, 2, 4], [1, 3, 5]]


def test_a_bad_sample_raises_in_the_main_process_with_index_and_traceback():
    loader = DataLoader(Faulty(20), batch_size=4, num_workers=2)
    seen = []
    with pytest.raises(ValueError) as info:
        for batch in loader:
            seen.append(batch["label"].numpy().tolist())
    message = str(info.value)
    assert "sample index 13" in message
    assert "corrupt JPEG header" in message
    assert "Traceback (most recent call last)" in message
    assert "in __getitem__" in message
    assert info.value.sample_index == 13
    assert seen == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]  # earlier batches delivered
    assert shm_files() == []


def test_exception_types_survive_the_trip():
    with pytest.raises(KeyError, match="sample index 2"):
        list(DataLoader(MissingKey(), batch_size=2, num_workers=1))
    with pytest.raises(Exception, match="custom constructor") as info:
        list(DataLoader(OddFaulty(), batch_size=2, num_workers=1))
    assert "sample index 4" in str(info.value)


def test_errors_in_collate_fn_and_worker_init_fn_are_reported():
    def bad_collate(samples):
        raise TypeError("cannot collate these")

    with pytest.raises(TypeError, match=r"collating batch 0 \(sample indices \[0, 1\]\)"):
        list(DataLoader(Numbered(4), batch_size=2, num_workers=1, collate_fn=bad_collate))

    def bad_init(worker_id):
        raise OSError("no such mount")

    with pytest.raises(OSError, match="worker_init_fn"):
        list(DataLoader(Numbered(4), batch_size=2, num_workers=2, worker_init_fn=bad_init))


class Ragged(Numbered):
    def __getitem__(self, i: int):
        return np.zeros((3, 64 + i % 2, 64), np.float32)


@pytest.mark.parametrize("use_shared_memory", [True, False])
def test_samples_that_cannot_be_stacked_name_the_batch(use_shared_memory):
    loader = DataLoader(Ragged(4), batch_size=2, num_workers=1, use_shared_memory=use_shared_memory)
    with pytest.raises(ValueError, match=r"collating batch 0 \(sample indices \[0, 1\]\)"):
        list(loader)


def test_a_killed_worker_is_an_error_not_a_hang():
    loader = DataLoader(Dying(16), batch_size=4, num_workers=2)
    start = time.monotonic()
    with pytest.raises(
        RuntimeError,
        match=r"killed by SIGKILL.*sample index 9 \(batch 2, indices \[8, 9, 10, 11\]\)",
    ):
        list(loader)
    assert time.monotonic() - start < 20
    assert shm_files() == []


def test_timeout_raises_when_a_batch_takes_too_long():
    loader = DataLoader(Slow(8), batch_size=2, num_workers=1, timeout=1)
    it = iter(loader)
    next(it)
    with pytest.raises(RuntimeError, match="timed out after 1 s"):
        next(it)


def test_breaking_out_stops_the_workers_and_frees_shared_memory():
    it = iter(DataLoader(Numbered(64, size=96), batch_size=4, num_workers=2))
    next(it)
    processes = list(it._workers)
    assert all(p.is_alive() for p in processes)
    del it
    gc.collect()
    assert not any(p.is_alive() for p in processes)
    assert shm_files() == []


def test_persistent_workers_keep_processes_across_epochs():
    ds = Numbered(10)
    expected = as_numpy(DataLoader(ds, batch_size=3))
    loader = DataLoader(ds, batch_size=3, num_workers=2, persistent_workers=True)
    first = as_numpy(loader)
    pids = [p.pid for p in loader._iterator._workers]
    it = iter(loader)
    next(it)  # abandon the second epoch part-way
    third = as_numpy(loader)
    assert_same_batches(first, expected)
    assert_same_batches(third, expected)
    assert [p.pid for p in loader._iterator._workers] == pids
    loader._iterator._shutdown()


def test_persistent_workers_restart_iterable_datasets():
    loader = DataLoader(Sharded(9), batch_size=2, num_workers=2, persistent_workers=True)
    for _ in range(2):
        assert sorted(v for b in loader for v in b.numpy().tolist()) == list(range(9))
    loader._iterator._shutdown()


def test_spawn_start_method_works(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(
        dataloader_iter, "multiprocessing_context", lambda: multiprocessing.get_context("spawn")
    )
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    loader = DataLoader(TensorDataset([x]), batch_size=4, num_workers=1)
    got = np.concatenate([b[0].numpy() for b in loader])
    np.testing.assert_array_equal(got, x)


def test_interpreter_exit_with_live_workers_is_clean(tmp_path):
    script = textwrap.dedent(
        """
        import glob, os, sys
        import numpy as np
        from framework.io import DataLoader, TensorDataset

        loader = DataLoader(TensorDataset([np.zeros((400, 3, 64, 64), np.float32)]),
                            batch_size=8, num_workers=2)
        it = iter(loader)
        next(it)
        print(os.getpid(), flush=True)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": REPO_ROOT},
    )
    assert result.returncode == 0, result.stderr
    pid = result.stdout.strip()
    assert glob.glob(f"/dev/shm/framework-dl-{pid}-*") == []
