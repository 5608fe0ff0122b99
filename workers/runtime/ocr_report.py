"""The evaluation report of an OCR job, for each part it fine-tuned, with the starting
weights (before) and the kept ones (after, the part's best epoch): the detector's precision,
recall and hmean at IoU 0.5 on the validation images (framework.vision.ocr.
text_detection_metrics); the recognizer's line accuracy and PaddleOCR's normalised edit
similarity on the validation lines, and the worst-read lines with their crops; and, on the
first validation images, the whole pipeline as it would be served (the job's parts, the
shipped ones for the rest): its detector's numbers and the end-to-end line accuracy, a true
line counting as read when a detected line matches it and reads its text.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import numpy as np

from training.models import EvaluationReport, TrainingJob
from training.services.text_lines import LineSurvey, page_truths
from workers.runtime.ocr_data import LineCrops, decode_bgr
from workers.runtime.ocr_det_stage import serving_detector
from workers.runtime.ocr_trainer import ACCURACY, DISTANCE, OcrRun, reading_scores

WORST_LINES = 50  # lines the report's table shows, the worst read first
CROP_HEIGHT = 32  # pixels of each shown crop (a PNG data URL in the report)
CROP_MAX_WIDTH = 480
END_TO_END_IMAGES = 20  # validation images the whole pipeline is run on (it is slow on a CPU)


def crop_data_url(crop: np.ndarray) -> str:
    """A BGR crop as a small PNG data URL, CROP_HEIGHT high (narrowed to CROP_MAX_WIDTH)."""
    from PIL import Image

    image = Image.fromarray(np.ascontiguousarray(crop[:, :, ::-1]))
    width = max(1, min(CROP_MAX_WIDTH, round(image.width * CROP_HEIGHT / image.height)))
    image = image.resize((width, CROP_HEIGHT), Image.Resampling.BILINEAR)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _distance(predicted: str, truth: str) -> int:
    from framework.vision.ocr import edit_distance

    return edit_distance(predicted.replace(" ", ""), truth.replace(" ", ""))


def line_center(points: Any) -> list[float]:
    """The centre of a line's polygon (the mean of its points), in image pixels: where the
    labeling page finds the line again after its sample's lines were edited or reordered."""
    polygon = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return [round(float(v), 1) for v in polygon.mean(axis=0)]


def worst_lines(crops: LineCrops, before: list[str], after: list[str]) -> list[dict[str, Any]]:
    """The lines the fine-tuned model reads wrong, the largest edit distance first (then those
    it reads worse than the starting weights), at most WORST_LINES."""
    rows = []
    for index, line in enumerate(crops.lines):
        distance = _distance(after[index], line.text)
        if distance:
            rows.append((distance, _distance(before[index], line.text), index))
    rows.sort(key=lambda row: (-row[0], row[1], row[2]))
    return [
        {
            "sample": crops.lines[index].sample_id,
            "line": crops.lines[index].line,
            "center": line_center(crops.lines[index].points),
            "text": crops.lines[index].text,
            "before": before[index],
            "read": after[index],
            "distance": distance,
            "before_distance": before_distance,
            "crop": crop_data_url(crops.crop(index)),
        }
        for distance, before_distance, index in rows[:WORST_LINES]
    ]


def end_to_end(job: TrainingJob, network: Any, split: str) -> dict[str, Any] | None:
    """The job's fine-tuned parts (`network`, a PipelineParts), with the shipped detector,
    recognizer and direction classifier for the parts it did not train, on the first
    END_TO_END_IMAGES images of `split`; None when the ready pipeline is not installed."""
    from framework.vision.ocr import OCRPipeline, TextRecognizer, text_detection_metrics
    from framework.vision.ocr.metrics import evaluate_text_image
    from modelzoo.services.reading import load_pipeline
    from modelzoo.services.ready import ReadyModelUnavailable, get_ready_model

    ready = get_ready_model(job.arch.ready_model)
    try:
        shipped = load_pipeline(ready)
    except ReadyModelUnavailable:
        return None
    network.eval()
    parts = network.parts
    detector = serving_detector(network.det, ready.key) if "det" in parts else shipped.detector
    recognizer = TextRecognizer(network.recognition()) if "rec" in parts else shipped.recognizer
    # Every detected line is kept (text score 0), so the detector's numbers are its own.
    pipeline = OCRPipeline(
        detector,
        recognizer,
        shipped.classifier,
        text_score=0.0,
        max_side_len=shipped.max_side_len,
        min_side_len=shipped.min_side_len,
    )
    pages = page_truths(job.dataset_version, split, END_TO_END_IMAGES)
    truths, found, read, true_lines = [], [], 0, 0
    for page in pages:
        lines = pipeline(decode_bgr(page))
        detected = [{"points": line.polygon.tolist(), "text": line.text} for line in lines]
        image = evaluate_text_image(page.lines, detected)
        true_lines += image.truth_count
        read += sum(
            1 for i, j in image.pairs if _distance(detected[j]["text"], page.lines[i]["text"]) == 0
        )
        truths.append(page.lines)
        found.append(detected)
    if not pages:
        return None
    metrics = text_detection_metrics(truths, found)
    return {
        "images": len(pages),
        "precision": float(metrics.precision),
        "recall": float(metrics.recall),
        "hmean": float(metrics.hmean),
        "line_accuracy": read / true_lines if true_lines else 0.0,
        "lines": true_lines,
    }


def recognition_section(
    crops: LineCrops, survey: LineSurvey, before: list[str], after: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(report fields, `text` entries) of the recognizer's readings `before` and `after` of
    the validation lines `crops` (`survey`: what their split held)."""
    truths = crops.texts(range(len(crops)))
    scores = {"before": reading_scores(before, truths), "after": reading_scores(after, truths)}
    text: dict[str, Any] = {
        "lines": len(crops),
        "images": survey.images,
        "skipped": {"difficult": survey.difficult, "empty": survey.empty},
    }
    for when, found in scores.items():
        text[when] = {"accuracy": found[ACCURACY], "norm_edit_distance": found[DISTANCE]}
    fields = {
        "accuracy": scores["after"][ACCURACY],
        "sample_count": len(crops),
        "predictions": worst_lines(crops, before, after),
    }
    return fields, text


def ocr_report_fields(run: OcrRun, e2e: dict[str, Any] | None) -> dict[str, Any]:
    """The report of a finished OcrRun: each part's before and after (its kept epoch)."""
    splits, parts = run.splits, run.parts
    text: dict[str, Any] = {
        "parts": parts,
        "kept": {part: {"epoch": run.kept[part]["epoch"]} for part in parts if part in run.kept},
        "detection": None,
        "end_to_end": e2e,
    }
    fields: dict[str, Any] = {"task": TrainingJob.Task.OCR, "top5_accuracy": None}
    fields |= {"accuracy": None, "predictions": [], "sample_count": len(splits.det_evaluate)}
    if run.older_checkpoint:  # resumed from a checkpoint that kept only its last epoch
        text["older_checkpoint"] = run.older_checkpoint
    if "det" in parts:
        text["detection"] = {
            "images": len(splits.det_evaluate),
            "before": run.det_before,
            "after": run.kept["det"]["scores"],
        }
    if "rec" in parts:
        survey = splits.surveys[splits.eval_split]
        rec_fields, rec_text = recognition_section(
            splits.evaluate, survey, run.before["texts"], run.kept["rec"]["texts"]
        )
        fields |= rec_fields
        text |= rec_text
    return fields | {"text": text}


def write_ocr_report(job: TrainingJob, split: str, fields: dict[str, Any]) -> EvaluationReport:
    report, _ = EvaluationReport.objects.update_or_create(
        job=job, defaults={**fields, "split": split}
    )
    return report


def ocr_provenance(arch: Any, report: EvaluationReport | None, parts: list[str]) -> dict[str, Any]:
    """What a fine-tuned OCR model's weights record says, for exports and serving: the ready
    pipeline it is a part of, which parts its state dict holds (keys `"<part>." + name` of the
    network each part's ONNX file builds), the dictionary's size, and the report's numbers
    (none for a cancelled job's last checkpoint)."""
    from modelzoo.services.ready import get_ready_model

    ready = get_ready_model(arch.ready_model)
    found: dict[str, Any] = {
        "task": TrainingJob.Task.OCR,
        "ready_model": ready.key,
        "parts": list(parts),
        "dictionary_size": int((ready.dictionary or {})["characters"]),
    }
    if report is not None:
        text = report.text
        found |= {"split": report.split, "kept": text.get("kept", {})}
        if text.get("after"):
            found |= {
                "lines": report.sample_count,
                "before": text["before"],
                "after": text["after"],
            }
        if text.get("detection"):
            found["detection"] = text["detection"]
    return found
