"""Finished export rows with chosen numbers, for tests of what pages and the API say about
them (no worker runs: the numbers are the ones a worker would record)."""

from __future__ import annotations

from typing import Any

from deploy.models import ModelExport
from training.models import TrainingJob


def finished_export(job: TrainingJob, version: int, fmt: str, **numbers: Any) -> ModelExport:
    fields: dict[str, Any] = {
        "status": ModelExport.Status.SUCCEEDED,
        "meta": {"task": job.task, "class_names": job.class_names},
        "parity_max_abs_diff": 2e-6,
        "parity_samples": 32,
        "parity_source": "validation images",
        "parity_passed": True,
        "top1_agreement": 1.0,
        "latency_batch1_ms": 1.5,
        "latency_batch32_ms": 32.0,
        "runtime": "sampan predictor",
        "accuracy_before": 0.9,
        "accuracy_after": 0.9,
        **numbers,
    }
    return ModelExport.objects.create(
        workspace=job.workspace,
        job=job,
        name=job.name,
        version=version,
        format=fmt,
        created_by=job.created_by,
        **fields,
    )
