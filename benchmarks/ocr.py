"""The whole OCR pipeline (detect, classify direction, recognise) in our framework against
rapidocr (onnxruntime + OpenCV), on the same PP-OCRv4 models and the same images.

    python benchmarks/ocr.py                        # page, receipt; 7 timed runs each
    python benchmarks/ocr.py --images page --repeats 3 --threads 1
    python benchmarks/ocr.py --parts finetune --steps 20

Part `pipeline` (the default parts are both):
Images: `page` is `skimage.data.page()` (a scanned page, 191×384 grey); `receipt` is an A4-wide
till receipt in English and Chinese, rendered with Noto Sans CJK (`fonts-noto-cjk`) at 1240
pixels wide. Both runners read the three ONNX files inside the rapidocr-onnxruntime wheel.

Each runner lives in its own process with `--threads` threads (OMP/BLAS threads for ours,
`intra_op_num_threads` for onnxruntime), so neither pays for the other's spinning threads.
After `--warmup` untimed calls per image, the runners take turns, one timed call each, for
`--repeats` rounds. Prints JSON: per image and runner the median and minimum seconds, the lines
read, whether both read the same strings, and the ratio framework / rapidocr (target: ≤ 1.3).

Part `finetune`: `framework.vision.ocr.RecognizerTrainer` fine-tunes the shipped recognizer
for `--steps` steps of 8 dot-matrix prints of random part codes (which the shipped weights read
poorly), new codes every step; reports held-out line accuracy and normalized edit distance
before and after (24 held-out codes), and the median seconds per step. The peer is the same
network in PyTorch (`tests/framework_tests/ocr_tests/rec_torch_peer.py`, an interpreter of the
ONNX graph training the weights ours trains) taking the same step on the same batch (CTC on
log of the softmax output, Adam 1e-4, `--threads` threads, channels-last unless
`--torch-layout nchw`), alternating with ours; the JSON gives both medians (wall and process
CPU seconds) and the ratio ours / torch (target: ≤ 1.5). `ocr_rec_step_profile.py` profiles
one step of each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.worker_lines import WorkerLines  # noqa: E402

RUNNERS = ("framework", "rapidocr")
FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
RECEIPT = [
    "SAMPAN MARKET 萨姆潘超市",
    "No. 88 Harbour Road, Shanghai",
    "发票号码：20261202  收银员：07",
    "Jasmine tea 茉莉花茶      2 x 18.00    36.00",
    "Steamed buns 包子         6 x  3.50    21.00",
    "Soy sauce 酱油 500ml      1 x 12.80    12.80",
    "Rice 大米 5kg             1 x 45.00    45.00",
    "Subtotal 小计                         114.80",
    "VAT 13% 增值税                         13.21",
    "TOTAL 合计                            128.01",
    "Paid by card  刷卡支付   2026-12-02 14:31",
    "谢谢惠顾 Thank you, come again!",
]


# --- images -------------------------------------------------------------------------------------
def make_images(names: list[str]) -> dict[str, object]:
    import numpy as np

    images = {}
    if "page" in names:
        from skimage import data

        grey = data.page()
        images["page"] = np.repeat(grey[:, :, None], 3, axis=2)
    if "receipt" in names:
        from PIL import Image, ImageDraw, ImageFont

        face = ImageFont.truetype(str(FONT), 30, index=2)  # Noto Sans CJK SC
        width, line = 1240, 56
        image = Image.new("RGB", (width, 120 + line * len(RECEIPT)), "white")
        draw = ImageDraw.Draw(image)
        for i, text in enumerate(RECEIPT):
            draw.text((80, 60 + i * line), text, fill="black", font=face)
        images["receipt"] = np.asarray(image)
    return images


# --- the worker side ----------------------------------------------------------------------------
def worker(runner: str, folder: str) -> None:
    """Reads 'run NAME' lines; answers one JSON line per call: seconds and the lines read."""
    import numpy as np

    models = Path(__import__("rapidocr_onnxruntime").__file__).parent / "models"
    paths = [
        models / "ch_PP-OCRv4_det_infer.onnx",
        models / "ch_PP-OCRv4_rec_infer.onnx",
        models / "ch_ppocr_mobile_v2.0_cls_infer.onnx",
    ]
    threads = int(os.environ["OCR_THREADS"])
    if runner == "framework":
        from framework.vision.ocr import OCRPipeline

        pipeline = OCRPipeline.from_onnx(*paths)

        def read(image):
            return [line.text for line in pipeline(image)]
    else:
        from rapidocr_onnxruntime import RapidOCR

        engine = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)

        def read(image):
            found, _ = engine(image)
            return [text for _, text, _ in found or []]

    print("ready", flush=True)
    for request in sys.stdin:
        name = request.split()[1]
        image = np.ascontiguousarray(np.load(Path(folder) / f"{name}.npy"))
        start = time.perf_counter()
        texts = read(image)
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "texts": texts}, ensure_ascii=False), flush=True)


# --- the driver ---------------------------------------------------------------------------------
class Runner:
    def __init__(self, name: str, folder: str, threads: int, timeout: float) -> None:
        env = dict(os.environ, OCR_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
        env.update(OPENBLAS_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
        self.name, self.timeout = name, timeout
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", name, "--folder", folder],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        self.lines = WorkerLines(self.process.stdout)
        if self.lines.readline(timeout).strip() != "ready":
            raise RuntimeError(f"the {name} worker did not start")

    def run(self, image: str) -> dict:
        self.process.stdin.write(f"run {image}\n")
        self.process.stdin.flush()
        return json.loads(self.lines.readline(self.timeout))

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def _maps() -> list[str]:
    """The libraries this process has mapped (Linux)."""
    maps = Path("/proc/self/maps")
    return maps.read_text().splitlines() if maps.exists() else []


def torch_peer_step(
    peer: Any, optimizer: Any, recognizer: Any
) -> Callable[[list, list[str]], float]:
    """The twin's training step, as `RecognizerTrainer.step`: CTC on the log of the softmax
    output (clamped at 1e-10), blank 0, mean over the batch; then the optimizer's step."""
    import torch

    from framework.vision.ocr.rec_training import encode_texts

    def step(crops: list, texts: list[str]) -> float:
        labels, lengths = encode_texts(texts, recognizer.characters)
        probs = peer(torch.from_numpy(recognizer.batch_input(crops)))
        log_probs = torch.log(torch.clamp(probs, min=1e-10)).transpose(0, 1)
        loss = torch.nn.functional.ctc_loss(
            log_probs,
            torch.from_numpy(labels).long(),
            torch.full((len(texts),), probs.shape[1], dtype=torch.int64),
            torch.from_numpy(lengths),
            blank=0,
        )
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss.item()

    return step


def finetune(steps: int, batch: int, threads: int, torch_layout: str) -> dict:
    import string

    import numpy as np

    import framework
    from framework.backends.cpu import openmp

    # Torch ships its own libgomp.so.1: whichever loads first is the one runtime both use, so
    # the framework's loads first, spinning as the framework ships it (openmp.spin_limit), not
    # GNU's default, which kept torch's team spinning at every op on a busy machine.
    openmp.runtime()
    import torch

    from framework.vision.ocr import RecognizerTrainer, TextRecognizer, text_recognition_metrics
    from tests.framework_tests.ocr_tests.ocr_images import model_paths, render_dot_matrix
    from tests.framework_tests.ocr_tests.rec_torch_peer import torch_recognizer

    rng = np.random.default_rng(0)
    alphabet = list(string.ascii_uppercase + string.digits)

    def codes(count: int) -> list[str]:
        return ["".join(rng.choice(alphabet, int(rng.integers(5, 9)))) for _ in range(count)]

    recognizer = TextRecognizer(framework.onnx.load(model_paths()["rec"]))
    held_out = codes(24)
    held_crops = [render_dot_matrix(t) for t in held_out]

    def reading() -> dict:
        read = [text for text, _ in recognizer(held_crops)]
        metrics = text_recognition_metrics(read, held_out)
        return {
            "accuracy": round(metrics.accuracy, 3),
            "norm_edit_distance": round(metrics.norm_edit_distance, 3),
        }

    torch.set_num_threads(threads)
    layer = recognizer.model
    trainable = {layer.onnx_names[key] for key, _ in layer.named_parameters()}
    peer = torch_recognizer(
        model_paths()["rec"], trainable, channels_last=torch_layout == "channels_last"
    )
    peer_step = torch_peer_step(peer, torch.optim.Adam(peer.parameters(), lr=1e-4), recognizer)

    before = reading()
    trainer = RecognizerTrainer(recognizer, learning_rate=1e-4)
    runs = {"framework": trainer.step, "torch": peer_step}
    seconds: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    losses: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(steps):
        texts = codes(batch)
        crops = [render_dot_matrix(t) for t in texts]
        for name, step in runs.items():  # turns: both see the same load and the same batch
            start, start_cpu = time.perf_counter(), time.process_time()
            losses[name].append(step(crops, texts))
            seconds[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    return {
        "steps": steps,
        "batch": batch,
        "torch_version": torch.__version__,
        "torch_layout": torch_layout,
        "openmp": sorted({line.split()[-1] for line in _maps() if "gomp" in line}),
        "held_out_before": before,
        "held_out_after": reading(),
        **{
            name: {
                "first_loss": round(losses[name][0], 4),
                "last_loss": round(losses[name][-1], 4),
                "median_step_s": round(statistics.median(seconds[name]), 3),
                "median_step_cpu_s": round(statistics.median(cpu[name]), 3),
            }
            for name in runs
        },
        "framework_over_torch": round(
            statistics.median(seconds["framework"]) / statistics.median(seconds["torch"]), 3
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="pipeline,finetune")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--images", default="page,receipt")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--torch-layout", choices=("channels_last", "nchw"), default="channels_last"
    )
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--worker", choices=RUNNERS)
    parser.add_argument("--folder")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.folder)
        return
    import numpy as np

    report: dict = {"threads": args.threads}
    if "finetune" in args.parts.split(","):
        os.environ.update(OMP_NUM_THREADS=str(args.threads), MKL_NUM_THREADS=str(args.threads))
        report["finetune"] = finetune(args.steps, 8, args.threads, args.torch_layout)
    if "pipeline" not in args.parts.split(","):
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    names = args.images.split(",")
    with tempfile.TemporaryDirectory(prefix="sampan-ocr-bench-") as folder:
        images = make_images(names)
        for name, image in images.items():
            np.save(Path(folder) / f"{name}.npy", image)
        runners = [Runner(r, folder, args.threads, args.timeout) for r in RUNNERS]
        results: dict[str, dict] = {}
        for name in names:
            texts = {}
            for runner in runners:
                for _ in range(args.warmup):
                    texts[runner.name] = runner.run(name)["texts"]
            seconds: dict[str, list[float]] = {r.name: [] for r in runners}
            for _ in range(args.repeats):
                for runner in runners:  # turns: both see the same load
                    seconds[runner.name].append(runner.run(name)["seconds"])
            results[name] = {
                "shape": list(images[name].shape),
                **{
                    r: {
                        "median_s": round(statistics.median(seconds[r]), 4),
                        "min_s": round(min(seconds[r]), 4),
                        "lines": len(texts[r]),
                    }
                    for r in seconds
                },
                "same_text": texts["framework"] == texts["rapidocr"],
                "framework_over_rapidocr": round(
                    statistics.median(seconds["framework"])
                    / statistics.median(seconds["rapidocr"]),
                    3,
                ),
            }
        for runner in runners:
            runner.close()
    report.update(repeats=args.repeats, images=results)
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
