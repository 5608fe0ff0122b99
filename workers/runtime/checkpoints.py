"""Checkpoints: the model, the optimizer (with its LR schedule) and where training stood,
as one safetensors file in storage, written atomically after every epoch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.files.storage import default_storage


def checkpoint_path(job_id: int) -> Path:
    return Path(default_storage.path(f"training/jobs/{job_id}/checkpoint.safetensors"))


def save_checkpoint(
    job_id: int,
    network: Any,
    optimizer: Any,
    progress: dict[str, Any],
    best_model: dict[str, Any] | None = None,
) -> None:
    """`best_model`: the weights of the best epoch so far, where a run keeps those rather
    than the last epoch's (an OCR job, per part)."""
    import framework

    state = {
        "model": network.state_dict(),
        "optimizer": optimizer.state_dict(),
        "progress": progress,
    }
    if best_model:
        state["best_model"] = best_model
    framework.save(state, str(checkpoint_path(job_id)))  # atomic: old file or new, never half


def load_checkpoint(job_id: int) -> dict[str, Any] | None:
    import framework

    path = checkpoint_path(job_id)
    if not path.is_file():
        return None
    return framework.load(str(path))


def discard_checkpoint(job_id: int) -> None:
    checkpoint_path(job_id).unlink(missing_ok=True)
