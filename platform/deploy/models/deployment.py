"""A deployment serves one export behind `POST /api/deployments/<id>/predict`, with a saved
confidence threshold, and keeps per-minute traffic statistics."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from deploy.models.export import ModelExport


class Deployment(models.Model):
    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="deployments"
    )
    name = models.CharField(max_length=100)
    # The export being served. An export that a deployment serves cannot be deleted.
    export = models.ForeignKey(ModelExport, on_delete=models.PROTECT, related_name="deployments")
    # Minimum confidence for a prediction to be accepted; None accepts every prediction.
    threshold = models.FloatField(null=True, blank=True)
    # {class name: minimum confidence} for classes that need their own (checked against the
    # export's classes); they take precedence over `threshold`.
    class_thresholds = models.JSONField(default=dict, blank=True)
    top_k = models.PositiveSmallIntegerField(default=5)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    switched_at = models.DateTimeField(default=timezone.now)  # when `export` last changed

    MAX_TOP_K = 20

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "name"], name="unique_deployment_name")
        ]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def check_servable(export: ModelExport, workspace_id: int) -> None:
        """ValidationError unless `export` is a finished package of this workspace."""
        if export.workspace_id != workspace_id:
            raise ValidationError({"export": _("No export with this id in this workspace.")})
        if export.format not in ModelExport.SERVABLE:
            raise ValidationError(
                {
                    "export": _(
                        "Only inference packages (float32 or INT8) can be served; ONNX exports "
                        "are for download."
                    )
                }
            )
        if export.status != ModelExport.Status.SUCCEEDED:
            raise ValidationError({"export": _("This export has not finished successfully.")})

    @staticmethod
    def check_same_task(served: ModelExport, export: ModelExport) -> None:
        """ValidationError when a switch would change what the endpoint answers: an OCR
        model's `lines`, a detector's `boxes`, a classifier's `labels` (its callers read one
        shape; a new deployment serves another task)."""
        if served.task != export.task:
            raise ValidationError(
                {
                    "export": _(
                        "This deployment answers %(served)s; export #%(pk)s answers %(other)s. "
                        "Create a new deployment for it."
                    )
                    % {"served": served.task, "pk": export.pk, "other": export.task}
                }
            )

    @staticmethod
    def check_threshold(threshold: float | None) -> None:
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise ValidationError({"threshold": _("A threshold is a confidence from 0 to 1.")})

    @staticmethod
    def check_class_thresholds(thresholds: dict[str, float], export: ModelExport) -> None:
        """ValidationError unless every key is a class of `export` and every value 0 to 1."""
        check_class_thresholds(thresholds, (export.meta or {}).get("class_names", []))


def check_class_thresholds(thresholds: dict[str, float], class_names: list[str]) -> None:
    """Per-class thresholds: {class name of the model: confidence from 0 to 1}."""
    unknown = sorted(set(thresholds) - set(class_names))
    if unknown:
        raise ValidationError(
            {
                "class_thresholds": "The model has no class "
                + ", ".join(f"'{name}'" for name in unknown)
                + f"; its classes are {', '.join(class_names) or 'unknown'}."
            }
        )
    for name, value in thresholds.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise ValidationError(
                {
                    "class_thresholds": _(
                        "The threshold of '%(name)s' must be a number from 0 to 1."
                    )
                    % {"name": name}
                }
            )


class DeploymentTraffic(models.Model):
    """Requests to one deployment in one minute, with a histogram of their latencies
    (counts per bucket of `deploy.services.traffic.BUCKET_BOUNDS_MS`)."""

    deployment = models.ForeignKey(Deployment, on_delete=models.CASCADE, related_name="traffic")
    minute = models.DateTimeField()
    requests = models.PositiveIntegerField(default=0)
    images = models.PositiveIntegerField(default=0)
    errors = models.PositiveIntegerField(default=0)
    histogram = models.JSONField(default=list)

    workspace_lookup = "deployment__workspace"

    class Meta:
        ordering = ["minute"]
        constraints = [
            models.UniqueConstraint(fields=["deployment", "minute"], name="one_row_per_minute")
        ]

    def __str__(self) -> str:
        return f"{self.deployment} at {self.minute:%H:%M}"
