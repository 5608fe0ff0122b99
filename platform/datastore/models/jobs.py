"""Background jobs of a dataset: imports and label exports (the lifecycle: core.jobs)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from core.jobs import ClaimableJob
from datastore.importing.problems import shown_problem
from datastore.models.dataset import Dataset
from datastore.models.upload import UploadSession

# Kept as module names: the tests and the reconciler refer to them.
STALE_AFTER = ClaimableJob.STALE_AFTER
MAX_ATTEMPTS = ClaimableJob.MAX_ATTEMPTS


class Job(ClaimableJob):
    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="%(class)ss")
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)

    workspace_lookup = "dataset__workspace"

    class Meta(ClaimableJob.Meta):
        abstract = True

    @property
    def workspace(self) -> models.Model:
        return self.dataset.workspace

    @property
    def percent(self) -> int:
        if self.status == self.Status.SUCCEEDED:
            return 100
        return int(100 * self.progress_done / self.progress_total) if self.progress_total else 0

    def report_progress(self, done: int, total: int, stage: str | None = None) -> bool:
        """Records progress (the heartbeat); False when this worker no longer owns the job."""
        fields: dict[str, Any] = {"progress_done": done, "progress_total": total}
        if stage is not None:
            fields["stage"] = stage
        return self.beat(**fields)


class ImportJob(Job):
    class Outcome(models.TextChoices):
        """What the import did, for people: a job that succeeded may still have added nothing."""

        PENDING = "pending", _("In progress")
        IMPORTED = "imported", _("Imported")
        PARTLY_IMPORTED = "partly_imported", _("Imported with errors")
        NOTHING_IMPORTED = "nothing_imported", _("Nothing imported")
        FAILED = "failed", _("Failed")

    REASONS_SHOWN = 3
    activity = gettext_noop("importing")

    upload = models.ForeignKey(
        "datastore.UploadSession", on_delete=models.CASCADE, related_name="import_jobs"
    )
    requested_format = models.CharField(max_length=20, blank=True)  # blank: detect
    detected_format = models.CharField(max_length=20, blank=True)
    format_note = models.CharField(max_length=300, blank=True)
    report = models.JSONField(default=dict, blank=True)
    samples_added = models.PositiveIntegerField(default=0)
    files_skipped = models.PositiveIntegerField(default=0)

    class Meta(Job.Meta):
        pass

    def __str__(self) -> str:
        return f"import {self.pk} into {self.dataset}"

    @property
    def outcome(self) -> str:
        if not self.is_finished:
            return self.Outcome.PENDING
        if self.status != self.Status.SUCCEEDED:
            return self.Outcome.FAILED
        if not self.samples_added:
            return self.Outcome.NOTHING_IMPORTED
        errors = (self.report.get("counts") or {}).get("error", 0)
        return self.Outcome.PARTLY_IMPORTED if errors else self.Outcome.IMPORTED

    @property
    def shown_format_note(self) -> str:
        return self.shown("format_note")

    @property
    def outcome_label(self) -> str:
        return self.Outcome(self.outcome).label

    @property
    def outcome_reasons(self) -> list[str]:
        """Why an import added less than it was given: the first few errors of its report
        (or, when nothing was added and nothing was wrong, its warnings: duplicates, say)."""
        outcome = self.outcome
        if outcome == self.Outcome.FAILED:
            return [self.shown_error] if self.error else []
        if outcome not in (self.Outcome.PARTLY_IMPORTED, self.Outcome.NOTHING_IMPORTED):
            return []
        problems = [shown_problem(p) for p in self.report.get("problems") or []]
        picked = [p for p in problems if p.get("severity") == "error"] or [
            p for p in problems if p.get("severity") == "warning"
        ]
        reasons = [
            gettext("%(file)s: %(reason)s") % p if p.get("file") else p["reason"]
            for p in picked[: self.REASONS_SHOWN]
        ]
        if len(picked) > self.REASONS_SHOWN:
            more = len(picked) - self.REASONS_SHOWN
            reasons.append(gettext("… and %(count)s more in the report.") % {"count": f"{more:,}"})
        if not reasons:
            reasons.append(gettext("No image in the upload could be added."))
        return reasons

    def give_up_if_exhausted(self) -> bool:
        gave_up = super().give_up_if_exhausted()
        if gave_up:  # the upload may be imported again, with another format, say
            failed = UploadSession.Status.FAILED
            UploadSession.objects.filter(pk=self.upload_id).update(status=failed)
        return gave_up

    def working_folders(self, attempt: int | None = None) -> list[str]:
        """The folders (under the dataset folder) that one attempt alone writes: samples,
        thumbnails and scratch. Per attempt, so a stalled worker that wakes up after another
        took over never writes into the new attempt's files."""
        tag = f"{self.pk}-{self.attempt if attempt is None else attempt}"
        return [f"samples/{tag}", f"thumbs/{tag}", f"work/{tag}"]


class ExportJob(Job):
    activity = gettext_noop("exporting the labels")

    class Format(models.TextChoices):
        COCO = "coco", "COCO JSON"
        VOC = "voc", "Pascal VOC XML"
        IMAGENET = "imagenet", _("ImageNet class folders")
        CSV = "csv", "CSV"
        PPOCR = "ppocr", _("PPOCRLabel Label.txt")

    version = models.ForeignKey(
        "datastore.DatasetVersion",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="exports",
    )
    format = models.CharField(max_length=10, choices=Format.choices)
    file = models.FileField(max_length=300, blank=True)
    size_bytes = models.PositiveBigIntegerField(default=0)

    class Meta(Job.Meta):
        pass

    def __str__(self) -> str:
        return f"{self.get_format_display()} export {self.pk} of {self.dataset}"
