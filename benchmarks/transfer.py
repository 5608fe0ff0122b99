"""Transfer learning on small real photo tasks: fine-tuning the shipped MobileNetV2, training it
from scratch, and PyTorch fine-tuning the same weights with the same recipe.

    python benchmarks/transfer.py                     # both tasks, 2 threads
    python benchmarks/transfer.py --tasks faces --epochs 6 --size 160

Tasks, from images that ship offline:
- `faces`: faces against non-faces, `skimage.data.lfw_subset()` (200 grey 25×25 images, 100 of
  each); half of each class to train, the other half to test.
- `textures`: 64×64 patches cut from scikit-image's brick, grass and gravel images, three
  classes; half of each class's patches to train, the rest to test.

Each run trains for the same number of epochs, in a process of its own pinned to `--threads`
cores, on the same augmented images (random resized crops and flips, drawn once per epoch with
a fixed seed and handed to both frameworks). Ours follows the platform's fine-tuning recipe
(modelzoo.presets and workers.runtime.fine_tune: learning rate, frozen-backbone warm-up, the
backbone at a tenth of the head's rate, label smoothing, cosine schedule, the manifest's
normalisation); PyTorch's peer is written here with the same numbers. From scratch uses the
platform's from-scratch preset at the same epochs. It prints one JSON document: test accuracy,
training seconds and seconds per epoch per run, and the ratios the targets are about.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RUNS = ("ours_pretrained", "ours_scratch", "torch_pretrained")


# --- the tasks ----------------------------------------------------------------------------------
def task_images(task: str) -> tuple[np.ndarray, np.ndarray]:
    """(uint8 grey images [N, H, W], int64 labels [N]) of a task."""
    from skimage import data

    if task == "faces":
        images = data.lfw_subset()  # 100 faces, then 100 non-faces, floats in [0, 1]
        labels = np.repeat([0, 1], 100)
        return (images * 255).round().astype(np.uint8), labels
    if task == "textures":
        patches, labels = [], []
        for label, name in enumerate(("brick", "grass", "gravel")):
            image = getattr(data, name)()
            side = 64
            for top in range(0, image.shape[0] - side + 1, side):
                for left in range(0, image.shape[1] - side + 1, side):
                    patches.append(image[top : top + side, left : left + side])
                    labels.append(label)
        return np.stack(patches).astype(np.uint8), np.array(labels)
    raise ValueError(f"unknown task {task!r}")


def split_half(labels: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Indices of half of each class (train) and the rest (test)."""
    rng = np.random.default_rng(seed)
    train, test = [], []
    for label in np.unique(labels):
        members = rng.permutation(np.flatnonzero(labels == label))
        half = len(members) // 2
        train += list(members[:half])
        test += list(members[half:])
    return np.array(train), np.array(test)


def resized_rgb(images: np.ndarray, size: int) -> np.ndarray:
    """uint8 [N, size, size, 3]: each grey image resized (bilinear) and copied to 3 channels."""
    from PIL import Image

    out = np.empty((len(images), size, size, 3), np.uint8)
    for i, image in enumerate(images):
        resized = np.asarray(Image.fromarray(image).resize((size, size), Image.Resampling.BILINEAR))
        out[i] = resized[:, :, None]
    return out


def augmented(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random resized crops (a half to all of the area) and horizontal flips, as the platform's
    photo augmentation does, drawn with `rng` so both frameworks see the same images."""
    from PIL import Image

    size = images.shape[1]
    out = np.empty_like(images)
    for i, image in enumerate(images):
        area = rng.uniform(0.5, 1.0) * size * size
        ratio = np.exp(rng.uniform(np.log(3 / 4), np.log(4 / 3)))
        w = int(min(size, round(np.sqrt(area * ratio))))
        h = int(min(size, round(np.sqrt(area / ratio))))
        top, left = rng.integers(0, size - h + 1), rng.integers(0, size - w + 1)
        crop = Image.fromarray(image[top : top + h, left : left + w])
        crop = np.asarray(crop.resize((size, size), Image.Resampling.BILINEAR))
        out[i] = crop[:, ::-1] if rng.random() < 0.5 else crop
    return out


def normalised(images: np.ndarray, mean: list[float], std: list[float]) -> np.ndarray:
    """float32 [N, 3, H, W] on the manifest's mean and std."""
    scaled = images.astype(np.float32) / 255.0
    scaled = (scaled - np.array(mean, np.float32)) / np.array(std, np.float32)
    return np.ascontiguousarray(scaled.transpose(0, 3, 1, 2))


# --- the recipe, from the platform --------------------------------------------------------------
def recipe(pretrained: bool, epochs: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "platform"))
    from modelzoo.catalog import get_architecture
    from modelzoo.presets import fine_tune_defaults, preset_config

    arch = get_architecture("mobilenet_v2")
    config = preset_config(arch, "balanced", fine_tune=pretrained)
    config |= fine_tune_defaults("balanced", "classification") if pretrained else {}
    config.setdefault("label_smoothing", 0.0)
    config["epochs"] = epochs  # equal epochs for every run
    config["freeze_epochs"] = min(config["freeze_epochs"], epochs - 1)
    return config


def manifest_normalisation() -> tuple[list[float], list[float]]:
    from framework.vision.models.shipped import shipped_manifests

    pre = shipped_manifests()["mobilenetv2_1.0"].preprocess
    return list(pre.mean), list(pre.std)


# --- one run, in its own process --------------------------------------------------------------
def run_one(run: str, task: str, args: argparse.Namespace) -> dict[str, Any]:
    images, labels = task_images(task)
    train, test = split_half(labels)
    classes = int(labels.max()) + 1
    base = resized_rgb(images, args.size)
    mean, std = manifest_normalisation()
    config = recipe(run.endswith("pretrained"), args.epochs)
    rng = np.random.default_rng(args.seed)
    epochs_data = [augmented(base[train], rng) for _ in range(config["epochs"])]
    test_x = normalised(base[test], mean, std)
    batches = [normalised(e, mean, std) for e in epochs_data]
    trainer = _torch_run if run.startswith("torch") else _ours_run
    accuracy, seconds, per_epoch = trainer(
        run, config, batches, labels[train], test_x, labels[test], classes, args
    )
    return {
        "run": run,
        "task": task,
        "train_images": int(len(train)),
        "test_images": int(len(test)),
        "classes": classes,
        "epochs": config["epochs"],
        "test_accuracy": round(accuracy, 4),
        "train_seconds": round(seconds, 2),
        "seconds_per_epoch": [round(s, 2) for s in per_epoch],
        "recipe": {
            k: config[k]
            for k in (
                "learning_rate",
                "freeze_epochs",
                "backbone_lr_scale",
                "label_smoothing",
                "batch_size",
            )
        },
    }


def _batches(count: int, batch: int, rng: np.random.Generator) -> list[np.ndarray]:
    order = rng.permutation(count)
    return [order[i : i + batch] for i in range(0, count, batch)]


def _ours_run(run, config, epochs_data, train_y, test_x, test_y, classes, args):
    import framework
    from framework.optimizer import lr as schedules
    from framework.vision.models import mobilenet_v2

    sys.path.insert(0, str(ROOT))
    from workers.runtime.fine_tune import parameter_groups, split_parameters

    framework.seed(args.seed)
    network = mobilenet_v2(pretrained=run == "ours_pretrained")
    network.classifier[1] = framework.nn.Linear(1280, classes)
    steps = config["epochs"] * -(-len(train_y) // config["batch_size"])
    schedule = schedules.CosineAnnealingDecay(config["learning_rate"], T_max=steps)
    optimizer = framework.optimizer.Momentum(
        learning_rate=schedule,
        momentum=0.9,
        parameters=parameter_groups(config, "mobilenet_v2", network),
        weight_decay=config["weight_decay"],
    )
    loss_fn = framework.nn.CrossEntropyLoss(label_smoothing=config["label_smoothing"])
    backbone, _ = split_parameters("mobilenet_v2", network)
    rng = np.random.default_rng(args.seed)
    per_epoch = []
    start = time.perf_counter()
    for epoch, images in enumerate(epochs_data):
        began = time.perf_counter()
        for parameter in backbone:
            parameter.trainable = epoch >= config["freeze_epochs"]
        network.train()
        for index in _batches(len(train_y), config["batch_size"], rng):
            logits = network(framework.to_tensor(images[index]))
            loss = loss_fn(logits, framework.to_tensor(train_y[index].reshape(-1, 1)))
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            schedule.step()
        per_epoch.append(time.perf_counter() - began)
    seconds = time.perf_counter() - start
    network.eval()
    with framework.no_grad():
        predicted = np.concatenate(
            [
                network(framework.to_tensor(test_x[i : i + 64])).numpy().argmax(1)
                for i in range(0, len(test_x), 64)
            ]
        )
    return float((predicted == test_y).mean()), seconds, per_epoch


def _torch_run(run, config, epochs_data, train_y, test_x, test_y, classes, args):
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    network = torch_mobilenet_v2()
    network.load_state_dict(torch.load(_source_file(), map_location="cpu", weights_only=True))
    network.classifier[1] = torch.nn.Linear(1280, classes)
    head = list(network.classifier.parameters())
    head_ids = {id(p) for p in head}
    backbone = [p for p in network.parameters() if id(p) not in head_ids]
    optimizer = torch.optim.SGD(
        [
            {"params": backbone, "lr": config["learning_rate"] * config["backbone_lr_scale"]},
            {"params": head},
        ],
        lr=config["learning_rate"],
        momentum=0.9,
        weight_decay=config["weight_decay"],
    )
    steps = config["epochs"] * -(-len(train_y) // config["batch_size"])
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=config["label_smoothing"])
    rng = np.random.default_rng(args.seed)
    per_epoch = []
    start = time.perf_counter()
    for epoch, images in enumerate(epochs_data):
        began = time.perf_counter()
        for parameter in backbone:
            parameter.requires_grad_(epoch >= config["freeze_epochs"])
        network.train()
        for index in _batches(len(train_y), config["batch_size"], rng):
            logits = network(torch.from_numpy(images[index]))
            loss = loss_fn(logits, torch.from_numpy(train_y[index]))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            schedule.step()
        per_epoch.append(time.perf_counter() - began)
    seconds = time.perf_counter() - start
    network.eval()
    with torch.no_grad():
        predicted = network(torch.from_numpy(test_x)).argmax(1).numpy()
    return float((predicted == test_y).mean()), seconds, per_epoch


def _source_file() -> Path:
    from framework.vision.models.install_weights import locate_source
    from framework.vision.models.shipped import shipped_manifests

    return locate_source(shipped_manifests()["mobilenetv2_1.0"])


def torch_mobilenet_v2() -> Any:
    """torchvision's MobileNetV2 layout in plain torch layers (the .pth loads strictly)."""
    from torch import nn

    def conv_bn(inp: int, out: int, kernel: int = 3, stride: int = 1, groups: int = 1) -> Any:
        padding = (kernel - 1) // 2
        return nn.Sequential(
            nn.Conv2d(inp, out, kernel, stride, padding, groups=groups, bias=False),
            nn.BatchNorm2d(out),
            nn.ReLU6(inplace=True),
        )

    class InvertedResidual(nn.Module):
        def __init__(self, inp: int, out: int, stride: int, expand: int) -> None:
            super().__init__()
            hidden = inp * expand
            self.residual = stride == 1 and inp == out
            layers = [conv_bn(inp, hidden, 1)] if expand != 1 else []
            layers += [
                conv_bn(hidden, hidden, 3, stride, hidden),
                nn.Conv2d(hidden, out, 1, bias=False),
            ]
            self.conv = nn.Sequential(*layers, nn.BatchNorm2d(out))

        def forward(self, x: Any) -> Any:
            return x + self.conv(x) if self.residual else self.conv(x)

    class MobileNetV2(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            stages = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2)]
            stages += [(6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
            layers, inp = [conv_bn(3, 32, stride=2)], 32
            for expand, out, count, stride in stages:
                for i in range(count):
                    layers.append(InvertedResidual(inp, out, stride if i == 0 else 1, expand))
                    inp = out
            self.features = nn.Sequential(*layers, conv_bn(inp, 1280, 1))
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, 1000))

        def forward(self, x: Any) -> Any:
            return self.classifier(
                nn.functional.adaptive_avg_pool2d(self.features(x), 1).flatten(1)
            )

    return MobileNetV2()


# --- the driver ---------------------------------------------------------------------------------
def main() -> None:
    args = parse_args()
    if args.worker:
        run, task = args.worker.split(":")
        print(json.dumps(run_one(run, task, args)))
        return
    results = []
    for task in args.tasks.split(","):
        for run in RUNS:
            if run.startswith("torch") and not _installed("torch"):
                continue
            results.append(_in_child(run, task, args))
    print(
        json.dumps(
            {
                "machine": _machine(),
                "args": vars(args),
                "results": results,
                "summary": summary(results),
            },
            indent=2,
        )
    )


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    by = {(r["task"], r["run"]): r for r in results if "test_accuracy" in r}
    out = {}
    for task in sorted({r["task"] for r in results}):
        ours, scratch, peer = (by.get((task, run)) for run in RUNS)
        row: dict[str, Any] = {}
        if ours:
            row["pretrained_accuracy"] = ours["test_accuracy"]
            row["pretrained_train_seconds"] = ours["train_seconds"]
        if ours and scratch:
            row["points_above_scratch"] = round(
                100 * (ours["test_accuracy"] - scratch["test_accuracy"]), 1
            )
        if ours and peer:
            row["epoch_time_vs_torch"] = round(_mean_epoch(ours) / _mean_epoch(peer), 3)
            row["torch_accuracy"] = peer["test_accuracy"]
        out[task] = row
    return out


def _mean_epoch(result: dict[str, Any]) -> float:
    return sum(result["seconds_per_epoch"]) / len(result["seconds_per_epoch"])


def _in_child(run: str, task: str, args: argparse.Namespace) -> dict[str, Any]:
    threads = str(args.threads)
    env = {
        **os.environ,
        "OMP_NUM_THREADS": threads,
        "MKL_NUM_THREADS": threads,
        "OPENBLAS_NUM_THREADS": threads,
    }
    command = [sys.executable, __file__, "--worker", f"{run}:{task}", "--epochs", str(args.epochs)]
    command += ["--size", str(args.size), "--threads", threads, "--seed", str(args.seed)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        return {"run": run, "task": task, "error": done.stderr.strip()[-2000:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _installed(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def _machine() -> dict[str, Any]:
    return {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="faces,textures")
    parser.add_argument("--epochs", type=int, default=8, help="the balanced fine-tuning preset's")
    parser.add_argument("--size", type=int, default=224, help="MobileNetV2's own input size")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    main()
