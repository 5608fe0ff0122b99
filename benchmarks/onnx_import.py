"""ONNX import and export: our reader, importer and exporter against onnx / onnxruntime.

    python benchmarks/onnx_import.py                  # PP-OCR det/rec/cls, 5 repeats
    python benchmarks/onnx_import.py --repeats 9 --det-side 480

For each PP-OCR model in the rapidocr-onnxruntime wheel: parsing the file (ours vs
`onnx.load`), building the layer, and inference under `no_grad` (ours vs an onnxruntime CPU
session with the same thread count) on a scanned page from scikit-image (det at the given
shorter side, rec on 6 text lines, cls on 6 lines). Then exporting CIFAR ResNet-18 to ONNX.
Median of `--repeats` after one warm-up. Prints JSON; `*_ours_over_*` fields are ratios
(below 1: ours faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--det-side", type=int, default=320)
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, str(args.threads))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

    import numpy as np

    import framework
    from framework.jit import InputSpec
    from tests.framework_tests.onnx_tests import ocr_pipeline as ocr

    result: dict[str, object] = {"threads": args.threads, "repeats": args.repeats}
    folder = ocr.models_dir()
    try:
        import onnx
        import onnxruntime as ort
    except ImportError:
        onnx = ort = None
    if folder is not None:
        import skimage.data

        page = np.repeat(skimage.data.page()[..., None], 3, axis=2)
        lines = [page[y0:y1, 2:380] for y0, y1 in ((10, 34), (45, 67), (62, 87), (79, 105),
                                                   (94, 125), (110, 144))]  # fmt: skip
        inputs = {
            "det": ocr.det_input(page, args.det_side),
            "rec": ocr.rec_input(lines),
            "cls": ocr.cls_input(lines),
        }
        files = {
            "det": "ch_PP-OCRv4_det_infer.onnx",
            "rec": "ch_PP-OCRv4_rec_infer.onnx",
            "cls": "ch_ppocr_mobile_v2.0_cls_infer.onnx",
        }
        for key, name in files.items():
            path = folder / name
            x = inputs[key]
            result[f"{key}_input_shape"] = list(x.shape)
            parse = median_seconds(lambda p=path: framework.onnx.read_model(p), args.repeats)
            result[f"{key}_parse_ms"] = round(parse * 1e3, 1)
            build = median_seconds(lambda p=path: framework.onnx.load(p), args.repeats)
            result[f"{key}_load_ms"] = round(build * 1e3, 1)
            layer = framework.onnx.load(path)

            def infer(layer=layer, x=x):
                with framework.no_grad():
                    return layer(x)

            ours = median_seconds(infer, args.repeats)
            result[f"{key}_infer_ours_ms"] = round(ours * 1e3, 1)
            if onnx is not None:
                theirs = median_seconds(lambda p=path: onnx.load(str(p)), args.repeats)
                result[f"{key}_parse_onnx_ms"] = round(theirs * 1e3, 1)
                options = ort.SessionOptions()
                options.intra_op_num_threads = args.threads
                options.inter_op_num_threads = 1
                session = ort.InferenceSession(str(path), options, ["CPUExecutionProvider"])
                theirs = median_seconds(lambda s=session, x=x: s.run(None, {"x": x}), args.repeats)
                result[f"{key}_infer_onnxruntime_ms"] = round(theirs * 1e3, 1)
                result[f"{key}_infer_ours_over_onnxruntime"] = round(ours / theirs, 2)
    model = framework.vision.models.resnet18(num_classes=10)
    model.eval()
    spec = [InputSpec([None, 3, 32, 32], "float32", "x")]
    with tempfile.TemporaryDirectory() as tmp:
        seconds = median_seconds(
            lambda: framework.onnx.export(model, str(Path(tmp) / "r18"), spec), args.repeats
        )
    result["export_resnet18_cifar_ms"] = round(seconds * 1e3, 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
