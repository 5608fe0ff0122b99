"""Shaping reports and job comparisons for pages and the API."""

from __future__ import annotations

from typing import Any

from training.models import TrainingJob


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
