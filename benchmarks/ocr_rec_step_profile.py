"""Where one recognition fine-tuning step of `ocr.py --parts finetune` spends its time: the
torch twin's step under `torch.profiler` (CPU) and ours under cProfile, on the same batch of 8
dot-matrix prints, after `--warmup` untimed steps each.

    python benchmarks/ocr_rec_step_profile.py                       # both, torch channels-last
    python benchmarks/ocr_rec_step_profile.py --runners torch --torch-layout nchw

Both share the framework's OpenMP runtime and its spin limit, as in `ocr.py`. Prints each
runner's step wall and process CPU seconds, then its top `--rows` entries: torch's
operators by self CPU time (the first table also grouped by input shape), ours by cumulative
and by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import string
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def batch_of(count: int) -> tuple[list[Any], list[str]]:
    import numpy as np

    from tests.framework_tests.ocr_tests.ocr_images import render_dot_matrix

    rng = np.random.default_rng(0)
    alphabet = list(string.ascii_uppercase + string.digits)
    texts = ["".join(rng.choice(alphabet, int(rng.integers(5, 9)))) for _ in range(count)]
    return [render_dot_matrix(t) for t in texts], texts


def timed(step: Any) -> str:
    start, start_cpu = time.perf_counter(), time.process_time()
    step()
    return f"wall {time.perf_counter() - start:.3f} s, CPU {time.process_time() - start_cpu:.3f} s"


def profile_torch(recognizer: Any, crops: list, texts: list[str], args: Any) -> None:
    import torch
    from torch.profiler import ProfilerActivity, profile

    from benchmarks.ocr import torch_peer_step
    from tests.framework_tests.ocr_tests.ocr_images import model_paths
    from tests.framework_tests.ocr_tests.rec_torch_peer import torch_recognizer

    torch.set_num_threads(args.threads)
    layer = recognizer.model
    trainable = {layer.onnx_names[key] for key, _ in layer.named_parameters()}
    peer = torch_recognizer(
        model_paths()["rec"], trainable, channels_last=args.torch_layout == "channels_last"
    )
    step = torch_peer_step(peer, torch.optim.Adam(peer.parameters(), lr=1e-4), recognizer)
    for _ in range(args.warmup):
        step(crops, texts)
    print(f"torch {torch.__version__}, {args.torch_layout}, {torch.get_num_threads()} threads")
    print("  unprofiled step:", timed(lambda: step(crops, texts)))
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        print("  profiled step:", timed(lambda: step(crops, texts)))
    averages = prof.key_averages()
    print(
        averages.table(sort_by="self_cpu_time_total", row_limit=args.rows, max_name_column_width=40)
    )
    by_shape = prof.key_averages(group_by_input_shape=True)
    print(
        by_shape.table(
            sort_by="self_cpu_time_total",
            row_limit=args.rows,
            max_name_column_width=30,
            max_shapes_column_width=70,
        )
    )


def profile_ours(recognizer: Any, crops: list, texts: list[str], args: Any) -> None:
    from framework.vision.ocr import RecognizerTrainer

    trainer = RecognizerTrainer(recognizer, learning_rate=1e-4)
    for _ in range(args.warmup):
        trainer.step(crops, texts)
    print("ours")
    print("  unprofiled step:", timed(lambda: trainer.step(crops, texts)))
    profiler = cProfile.Profile()
    print("  profiled step:", timed(lambda: profiler.runcall(trainer.step, crops, texts)))
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.rows)
        print(out.getvalue().split("\n", 6)[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runners", default="torch,ours")
    parser.add_argument(
        "--torch-layout", choices=("channels_last", "nchw"), default="channels_last"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--rows", type=int, default=20)
    args = parser.parse_args()
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[name] = str(args.threads)

    import framework
    from framework.backends.cpu import openmp
    from framework.vision.ocr import TextRecognizer
    from tests.framework_tests.ocr_tests.ocr_images import model_paths

    openmp.runtime()  # before torch loads its own copy: one runtime for both, as ocr.py does

    recognizer = TextRecognizer(framework.onnx.load(model_paths()["rec"]))
    crops, texts = batch_of(8)
    print("batch", recognizer.batch_input(crops).shape)
    if "torch" in args.runners.split(","):
        profile_torch(recognizer, crops, texts, args)
    if "ours" in args.runners.split(","):
        profile_ours(recognizer, crops, texts, args)


if __name__ == "__main__":
    main()
