"""DataLoader throughput on a folder of JPEGs with ImageNet-style augmentation, ours against
`torch.utils.data.DataLoader` with the same transforms written in plain PIL.

    python benchmarks/dataloader.py [--images 2000] [--measure 640] [--workers 0 1 2]
                                    [--repeat 3] [--data-dir DIR]

Writes `--images` JPEGs (random crops of scikit-image's sample photos, 10 class folders) to a
temporary folder (or reuses `--data-dir`), then for each worker count loads shuffled batches of
32 through RandomResizedCrop(224) + horizontal flip + ToTensor + Normalize. Reports images/s
over `--measure` images after two warm-up batches (best and median of `--repeat` interleaved
runs: on a shared machine the best is the least disturbed), and the time to the first batch
(worker start-up included). Prints JSON; the torch peer is skipped when torch is not installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BATCH = 32
MEAN = [0.485, 0.456, 0.406]
STD = [0.229, 0.224, 0.225]


def write_jpegs(folder: str, count: int, seed: int = 0) -> None:
    """`count` JPEGs of 160..480 px sides cut from scikit-image's photos, in 10 class folders."""
    from skimage import data

    photos = [
        getattr(data, name)()
        for name in ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry", "retina")
    ]
    rng = np.random.default_rng(seed)
    for i in range(count):
        photo = photos[i % len(photos)]
        h = int(rng.integers(160, min(480, photo.shape[0]) + 1))
        w = int(rng.integers(160, min(480, photo.shape[1]) + 1))
        top = int(rng.integers(0, photo.shape[0] - h + 1))
        left = int(rng.integers(0, photo.shape[1] - w + 1))
        class_dir = os.path.join(folder, f"class_{i % 10}")
        os.makedirs(class_dir, exist_ok=True)
        Image.fromarray(photo[top : top + h, left : left + w]).save(
            os.path.join(class_dir, f"{i:05d}.jpg"), quality=90
        )


def framework_loader(folder: str, num_workers: int):
    from framework.io import DataLoader
    from framework.vision import transforms as T
    from framework.vision.datasets import DatasetFolder

    transform = T.Compose(
        [
            T.RandomResizedCrop(224),
            T.RandomHorizontalFlip(),
            T.ToTensor(),
            T.Normalize(mean=MEAN, std=STD),
        ]
    )
    dataset = DatasetFolder(folder, transform=transform)
    return DataLoader(dataset, batch_size=BATCH, shuffle=True, num_workers=num_workers)


class TorchJpegFolder:
    """The same files and augmentation for torch, in plain PIL and NumPy."""

    def __init__(self, folder: str) -> None:
        self.samples = [
            (os.path.join(folder, name, f), label)
            for label, name in enumerate(sorted(os.listdir(folder)))
            for f in sorted(os.listdir(os.path.join(folder, name)))
        ]
        self.mean = np.array(MEAN, np.float32).reshape(3, 1, 1)
        self.std = np.array(STD, np.float32).reshape(3, 1, 1)

    def __len__(self) -> int:
        return len(self.samples)

    def _crop_box(self, width: int, height: int) -> tuple[int, int, int, int]:
        area = width * height
        for _ in range(10):
            target = random.uniform(0.08, 1.0) * area
            ratio = math.exp(random.uniform(math.log(3 / 4), math.log(4 / 3)))
            w = int(round(math.sqrt(target * ratio)))
            h = int(round(math.sqrt(target / ratio)))
            if 0 < w <= width and 0 < h <= height:
                top, left = random.randint(0, height - h), random.randint(0, width - w)
                return left, top, left + w, top + h
        side = min(width, height)
        return (width - side) // 2, (height - side) // 2, (width + side) // 2, (height + side) // 2

    def __getitem__(self, index: int):
        import torch

        path, label = self.samples[index]
        with open(path, "rb") as f:
            image = Image.open(f).convert("RGB")
        image = image.crop(self._crop_box(*image.size)).resize(
            (224, 224), Image.Resampling.BILINEAR
        )
        if random.random() < 0.5:
            image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        array = np.asarray(image).transpose(2, 0, 1).astype(np.float32) / np.float32(255)
        return torch.from_numpy((array - self.mean) / self.std), label


def torch_loader(folder: str, num_workers: int):
    import torch

    return torch.utils.data.DataLoader(
        TorchJpegFolder(folder), batch_size=BATCH, shuffle=True, num_workers=num_workers
    )


def measure(make_loader, folder: str, num_workers: int, images: int) -> dict:
    start = time.perf_counter()
    iterator = iter(make_loader(folder, num_workers))
    next(iterator)
    first_batch_s = time.perf_counter() - start
    next(iterator)  # second warm-up batch: workers are all busy from here on
    loaded = 0
    start = time.perf_counter()
    for images_batch, _ in iterator:
        loaded += images_batch.shape[0]
        if loaded >= images:
            break
    elapsed = time.perf_counter() - start
    del iterator
    return {
        "num_workers": num_workers,
        "images_per_s": round(loaded / elapsed, 1),
        "first_batch_s": round(first_batch_s, 3),
        "images_measured": loaded,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=2000, help="JPEGs to generate")
    parser.add_argument("--measure", type=int, default=640, help="images timed per run")
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per setting")
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="torch intra-op threads in the main process (its default, one per core, spins "
        "OpenMP threads that slowed its in-process loading 3x on a loaded 2-core box)",
    )
    parser.add_argument("--data-dir", help="reuse (or create) this folder of JPEGs")
    args = parser.parse_args()

    folder = args.data_dir or tempfile.mkdtemp(prefix="dataloader-bench-")
    try:
        if not os.path.isdir(folder) or not os.listdir(folder):
            start = time.perf_counter()
            write_jpegs(folder, args.images)
            generate_s = time.perf_counter() - start
        else:
            generate_s = 0.0
        has_torch = importlib.util.find_spec("torch") is not None
        peers = {"framework": framework_loader}
        if has_torch:
            import torch

            torch.set_num_threads(args.torch_threads)
            peers["torch"] = torch_loader
        runs: dict[tuple[str, int], list[dict]] = {}
        for _ in range(args.repeat):  # interleaved, so load from other processes hits all alike
            for workers in args.workers:
                for name, make_loader in peers.items():
                    run = measure(make_loader, folder, workers, args.measure)
                    runs.setdefault((name, workers), []).append(run)
        results = []
        for workers in args.workers:
            row: dict = {"num_workers": workers}
            for name in peers:
                rates = [r["images_per_s"] for r in runs[(name, workers)]]
                row[name] = {
                    "images_per_s_best": max(rates),
                    "images_per_s_median": round(statistics.median(rates), 1),
                    "first_batch_s_median": round(
                        statistics.median(r["first_batch_s"] for r in runs[(name, workers)]), 3
                    ),
                }
            if has_torch:
                row["ratio_framework_over_torch_best"] = round(
                    row["framework"]["images_per_s_best"] / row["torch"]["images_per_s_best"], 3
                )
            results.append(row)
        print(
            json.dumps(
                {
                    "benchmark": "dataloader_jpeg_augmentation",
                    "images_in_folder": args.images,
                    "batch_size": BATCH,
                    "transforms": "RandomResizedCrop(224)+RandomHorizontalFlip+ToTensor+Normalize",
                    "cpu_count": os.cpu_count(),
                    "load_average_1min_after": round(os.getloadavg()[0], 2),
                    "repeat": args.repeat,
                    "torch_threads": args.torch_threads if has_torch else None,
                    "generate_s": round(generate_s, 1),
                    "results": results,
                },
                indent=2,
            )
        )
    finally:
        if not args.data_dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
