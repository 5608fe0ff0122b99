"""The demo `make run` seeds: the digits as a dataset with a frozen version, and a LeNet
trained on it by the same code a worker runs. Idempotent: a second run finds both and stops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from accounts.models import Membership, User, Workspace
from core import deletion
from datastore.models import Dataset, DatasetVersion
from training.demo.digits import digits_version
from training.models import TrainingJob
from training.services.jobs import create_job

DATASET_NAME = "Digits"
JOB_NAME = "LeNet on the digits (demo)"


def demo_workspace(username: str, workspace_name: str) -> tuple[User, Workspace] | None:
    membership = (
        Membership.objects.filter(
            user__username=username,
            role=Membership.Role.OWNER,
            workspace__name=workspace_name,
        )
        .select_related("user", "workspace")
        .first()
    )
    return (membership.user, membership.workspace) if membership else None


def _version(user: User, workspace: Workspace, per_class: int | None) -> DatasetVersion:
    dataset = Dataset.objects.filter(workspace=workspace, name=DATASET_NAME).first()
    if dataset is not None:
        version = dataset.versions.order_by("number").first()
        if version is not None:
            return version
        # An interrupted first run: start that dataset again (no version, so no job blocks it).
        deletion.execute(deletion.plan_dataset(dataset))
    return digits_version(workspace, user, per_class=per_class, name=DATASET_NAME)


def seed_demo(
    user: User,
    workspace: Workspace,
    *,
    per_class: int | None = 50,
    epochs: int = 4,
    say: Callable[[str], Any] = print,
) -> TrainingJob:
    """The demo's digits dataset and its trained LeNet (made only when missing)."""
    done = TrainingJob.objects.filter(
        workspace=workspace, name=JOB_NAME, status=TrainingJob.Status.SUCCEEDED
    ).first()
    if done is not None:
        return done
    say("Seeding the demo: importing the digits dataset (first run only)…")
    version = _version(user, workspace, per_class)
    TrainingJob.objects.filter(workspace=workspace, name=JOB_NAME).delete()  # a failed attempt
    job = create_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="lenet",
        preset="quick",
        overrides={"epochs": epochs, "batch_size": 32, "augment_crop": False},
        name=JOB_NAME,
        send=False,
    )
    say(f"Seeding the demo: training LeNet on {version.sample_count} digits…")
    from workers.runtime.run import run_claimed

    job.claim(worker="demo seeding", device="cpu")
    run_claimed(job, "cpu")
    job.refresh_from_db()
    say(f"Seeding the demo: LeNet {job.status}, validation accuracy {job.val_accuracy or 0:.1%}.")
    return job
