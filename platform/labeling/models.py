"""Pre-labeling jobs: PP-OCRv4 reading every unlabeled image of an OCR dataset in the worker."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_noop

from datastore.models.jobs import Job


class PrelabelJob(Job):
    """One pass of the ready OCR pipeline over a dataset's unlabeled samples (core.jobs'
    lifecycle: claimed by one worker, heartbeat, re-queued by the reconciler)."""

    activity = gettext_noop("pre-labeling the images")

    samples_labeled = models.PositiveIntegerField(default=0)
    lines_added = models.PositiveIntegerField(default=0)

    class Meta(Job.Meta):
        pass

    def __str__(self) -> str:
        return f"pre-labeling {self.pk} of {self.dataset}"
