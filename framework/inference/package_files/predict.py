#!/usr/bin/env python3
"""Run this Sampan model on images and print the predictions as JSON.

    python predict.py photo.jpg                 # one image
    python predict.py images/ more.png          # folders (searched recursively) and files
    python predict.py images/ --top-k 3 --threshold 0.8 --output predictions.json
    python predict.py images/ --class-thresholds '{"cat": 0.7}'   # a class's own threshold

Each answer's `labels` is its label set: the accepted class, or for a multi-label model every
class whose score reaches its threshold (the package's per-class ones unless overridden).

Needs Python 3.11+, NumPy, Pillow and the Sampan framework wheel (see README.md). The model
(model.json, model.safetensors) and how to feed it (meta.json) are read from this folder.
Exit status: 0 when every image was predicted, 1 when some could not be read (they are listed
with their error), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

try:
    from framework.inference.packaged_model import IMAGE_SUFFIXES, ImageError, PackagedModel
except ImportError as error:  # pragma: no cover - depends on the machine
    sys.exit(
        f"predict.py needs NumPy, Pillow and the Sampan framework ({error}).\n"
        "Install them with: pip install -r requirements.txt --find-links <folder with the "
        "sampan_framework wheel>"
    )


def image_files(inputs: list[str]) -> list[Path]:
    """The images named on the command line, folders expanded in sorted order."""
    files: list[Path] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES))
        elif path.exists():
            files.append(path)
        else:
            sys.exit(f"predict.py: {item}: no such file or folder")
    return files


def class_thresholds(text: str) -> dict[str, float]:
    """--class-thresholds: a JSON object of class names to numbers from 0 to 1."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise argparse.ArgumentTypeError('not JSON; write it like {"cat": 0.7}') from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError('a JSON object, like {"cat": 0.7}')
    for name, threshold in value.items():
        if isinstance(threshold, bool) or not isinstance(threshold, int | float):
            raise argparse.ArgumentTypeError(f"the threshold of {name!r} is not a number")
        if not 0 <= threshold <= 1:
            raise argparse.ArgumentTypeError(f"the threshold of {name!r} is not from 0 to 1")
    return {str(name): float(threshold) for name, threshold in value.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Predict with this Sampan model; prints JSON.")
    parser.add_argument("inputs", nargs="+", help="image files or folders of images")
    parser.add_argument("--top-k", type=int, default=5, help="classes listed per image")
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="minimum confidence to accept a prediction (default: the one saved in meta.json)",
    )
    parser.add_argument(
        "--class-thresholds",
        type=class_thresholds,
        default={},
        help='JSON {"class name": minimum confidence}: their own thresholds, over the others',
    )
    parser.add_argument("--batch-size", type=int, default=32, help="images per model run")
    parser.add_argument("--output", help="write the JSON here instead of printing it")
    args = parser.parse_args(argv)
    if args.top_k < 1 or args.batch_size < 1:
        parser.error("--top-k and --batch-size must be at least 1")

    model = PackagedModel.load(HERE)
    unknown = sorted(set(args.class_thresholds) - set(model.meta.class_names))
    if unknown:
        parser.error(f"--class-thresholds names classes the model does not have: {unknown}")
    files = image_files(args.inputs)
    results, failed = [], 0
    for start in range(0, len(files), args.batch_size):
        chunk = files[start : start + args.batch_size]
        readable, images = [], []
        for path in chunk:
            try:
                images.append(model.open_images([path])[0])
                readable.append(path)
            except ImageError as error:
                failed += 1
                results.append({"file": str(path), "error": str(error).removeprefix("image 0: ")})
        if images:
            answers = model.predict(
                images,
                top_k=args.top_k,
                threshold=args.threshold,
                class_thresholds=args.class_thresholds,
            )
            results.extend({"file": str(p), **a} for p, a in zip(readable, answers, strict=True))
    meta = model.meta
    document = {
        "model": {
            "name": meta.name,
            "task": meta.task,
            "precision": meta.precision,
            "version": meta.source.get("version"),
        },
        "threshold": args.threshold if args.threshold is not None else meta.score_threshold(),
        "class_thresholds": {**meta.thresholds.get("per_class", {}), **args.class_thresholds},
        "predictions": results,
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
