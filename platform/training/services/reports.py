"""Shaping reports and job comparisons for pages and the API, and saying which split a job's
numbers were measured on."""

from __future__ import annotations

from typing import Any

from training.models import EvaluationReport, TrainingJob
from training.services.scalars import tags_of
from training.services.version_data import evaluation_split


def measured_split(job: TrainingJob) -> str | None:
    """The split a job's per-epoch numbers and report were measured on: its report's, or, while
    it has none, the one it evaluates (None: no report and its version was deleted)."""
    split = EvaluationReport.objects.filter(job=job).values_list("split", flat=True).first()
    if split is None and job.dataset_version is not None:
        split = evaluation_split(job.dataset_version)
    return split


def recorded_under_val_names(job: TrainingJob, split: str | None) -> bool:
    """Whether an older job recorded what it measured on another split (test or train) under
    val/ names, as every job did before a series named its split."""
    return split not in (None, "val") and any(t.startswith("val/") for t in tags_of(job.pk))


def describe_predictions(job: TrainingJob, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Report predictions with class names, a thumbnail URL and a link to relabel. A
    multi-label row names its label sets: `true_names` and `pred_names`."""
    names = job.class_names
    dataset_id = job.dataset_version.dataset_id if job.dataset_version_id else None
    described = []
    for row in rows:
        sample = row["sample"]
        if job.is_multi_label:
            named = {
                "true_names": [names[k] for k in row["true"]],
                "pred_names": [names[k] for k in row["pred"]],
            }
        else:
            named = {"true_name": names[row["true"]], "pred_name": names[row["pred"]]}
        described.append(
            {
                **row,
                **named,
                "thumbnail": f"/api/samples/{sample}/thumbnail/",
                "relabel": f"/datasets/{dataset_id}/label/?sample={sample}" if dataset_id else None,
            }
        )
    return described


def comparison_rows(jobs: list[TrainingJob]) -> list[dict[str, Any]]:
    rows = []
    for job in sorted(jobs, key=lambda j: j.pk):
        duration = job.duration
        rows.append(
            {
                "id": job.pk,
                "name": job.name,
                "status": job.status,
                "architecture": job.architecture,
                "dataset": job.dataset_label,
                "preset": job.preset,
                "config": job.config,
                "task": job.task,
                "val_accuracy": job.val_accuracy,
                "val_map": job.val_map,
                "val_loss": job.val_loss,
                "train_loss": job.train_loss,
                "seconds": round(duration.total_seconds(), 1) if duration else None,
            }
        )
    return rows
