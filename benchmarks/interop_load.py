"""Loading foreign weight files: our restricted readers against torch.load and paddle.load.

    python benchmarks/interop_load.py                 # ResNet-18 sized files, 5 repeats
    python benchmarks/interop_load.py --repeats 9 --model resnet50

Writes a ResNet state dict as a torch zip `.pth`, a legacy `.pth` and a `.pdparams` (with the
peers when installed, else with our writer), then times each reader, median of `--repeats`
after one warm-up read. Prints JSON; `*_over_*` fields are ours / peer (below 1: ours faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import framework
from framework.interop import paddle as paddle_bridge
from framework.interop import torch as torch_bridge


def median_seconds(read: Callable[[], object], repeats: int) -> float:
    read()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        read()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet18", choices=["resnet18", "resnet50"])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    model = getattr(framework.vision.models, args.model)()
    state = {key: tensor.numpy() for key, tensor in model.state_dict().items()}
    result: dict[str, object] = {
        "model": args.model,
        "tensors": len(state),
        "megabytes": round(sum(a.nbytes for a in state.values()) / 2**20, 1),
    }
    try:
        import torch
    except ImportError:
        torch = None
    try:
        import paddle
    except ImportError:
        paddle = None
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if torch is not None:
            torch.set_num_threads(1)
            tensors = {key: torch.from_numpy(array) for key, array in state.items()}
            for fmt, zipped in (("zip", True), ("legacy", False)):
                path = root / f"{fmt}.pth"
                torch.save(tensors, path, _use_new_zipfile_serialization=zipped)
                ours = median_seconds(lambda p=path: torch_bridge.load_state_dict(p), args.repeats)
                theirs = median_seconds(
                    lambda p=path: torch.load(p, weights_only=True), args.repeats
                )
                result[f"torch_{fmt}_ours_ms"] = round(ours * 1e3, 1)
                result[f"torch_{fmt}_torch_load_ms"] = round(theirs * 1e3, 1)
                result[f"torch_{fmt}_ours_over_torch"] = round(ours / theirs, 2)
        path = root / "model.pdparams"
        if paddle is not None:
            paddle.save({k: paddle.to_tensor(v) for k, v in state.items()}, str(path))
        else:
            paddle_bridge.save_state_dict(state, path)
        ours = median_seconds(lambda: paddle_bridge.load_state_dict(path), args.repeats)
        result["pdparams_ours_ms"] = round(ours * 1e3, 1)
        if paddle is not None:
            theirs = median_seconds(lambda: paddle.load(str(path), return_numpy=True), args.repeats)
            result["pdparams_paddle_load_ms"] = round(theirs * 1e3, 1)
            result["pdparams_ours_over_paddle"] = round(ours / theirs, 2)
        save = median_seconds(
            lambda: paddle_bridge.save_state_dict(state, root / "ours.pdparams"), args.repeats
        )
        result["pdparams_save_ours_ms"] = round(save * 1e3, 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
