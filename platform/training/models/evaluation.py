"""An evaluation of a finished job's model on a split it never chose anything on (the test
split): one claimable job (core.jobs) whose result has the report's shape.

The job's own report measures the split it watched while training; this is how the test
split gets measured, once the model is fixed. Nothing is chosen here: a multi-label model is
scored at the thresholds its report settled on, not at new ones fitted to the test images.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from core.jobs import ClaimableJob
from training.models.report import ReportFields


class SplitEvaluation(ClaimableJob, ReportFields):
    class Split(models.TextChoices):
        TEST = "test", _("Test")

    ACTIVE = (ClaimableJob.Status.QUEUED, ClaimableJob.Status.RUNNING)
    activity = gettext_noop("evaluating a model on a test split")

    job = models.ForeignKey(
        "training.TrainingJob", on_delete=models.CASCADE, related_name="split_evaluations"
    )
    # The model evaluated: the job's output when the evaluation was asked for.
    weights = models.ForeignKey(
        "modelzoo.Weights", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    split = models.CharField(max_length=5, choices=Split.choices, default=Split.TEST)
    progress = models.PositiveSmallIntegerField(default=0)  # percent
    sample_count = models.PositiveIntegerField(default=0)  # filled in with the result

    workspace_lookup = "job__workspace"

    class Meta(ClaimableJob.Meta):
        constraints = [
            # One evaluation at a time per job and split: asking again while one runs
            # returns that one (training.services.evaluations.start_evaluation).
            models.UniqueConstraint(
                fields=["job", "split"],
                condition=Q(status__in=["queued", "running"]),
                name="one_active_evaluation_per_split",
            )
        ]

    def __str__(self) -> str:
        return f"{self.split} evaluation {self.pk} of job {self.job_id}"

    @property
    def workspace(self) -> models.Model:
        return self.job.workspace

    def report_progress(self, percent: int, stage: str) -> bool:
        """Records how far it got (the heartbeat); False when this worker lost it."""
        # Cut only when too long: a slice is plain text, without the stage's message key.
        stage = stage if len(stage) <= 100 else stage[:100]
        return self.beat(progress=max(0, min(100, int(percent))), stage=stage)

    def mark_succeeded(self, **results: object) -> bool:
        return super().mark_succeeded(progress=100, **results)
