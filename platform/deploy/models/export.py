"""An export of a trained model in one format. Its row is the source of truth for its state,
changed by a worker only through the claimable job's verbs (core.jobs)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from core.jobs import ClaimableJob


class ModelExport(ClaimableJob):
    class Format(models.TextChoices):
        PACKAGE = "package", _("Inference package")
        ONNX = "onnx", _("ONNX (opset 17)")
        INT8_PACKAGE = "int8_package", _("INT8 inference package")
        INT8_ONNX = "int8_onnx", _("INT8 ONNX (QDQ)")

    # Formats a deployment can serve: packages run on the framework's predictor.
    SERVABLE = (Format.PACKAGE, Format.INT8_PACKAGE)
    INT8 = (Format.INT8_PACKAGE, Format.INT8_ONNX)
    # A running export with no heartbeat for this long was on a worker that died.
    STALE_AFTER = timedelta(minutes=10)
    activity = gettext_noop("exporting the model")
    claim_resets = {"progress": 0, "error": "", "error_fix": "", "said": {}}

    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="model_exports"
    )
    job = models.ForeignKey(
        "training.TrainingJob", null=True, on_delete=models.SET_NULL, related_name="exports"
    )
    weights = models.ForeignKey(
        "modelzoo.Weights", null=True, on_delete=models.SET_NULL, related_name="exports"
    )
    # A ready model of the zoo (modelzoo.services.ready) exported as it ships, with no job:
    # its key, and the sha256 of the manifest that described its files at the time.
    ready_model = models.CharField(max_length=40, blank=True)
    ready_manifest_sha256 = models.CharField(max_length=64, blank=True)
    # One-click deploy: a deployment of this name serves the export once it succeeds.
    deploy_as = models.CharField(max_length=100, blank=True)
    name = models.CharField(max_length=200)
    # Per job (or per ready model of a workspace): v1, v2, ... in order of creation.
    version = models.PositiveIntegerField()
    format = models.CharField(max_length=15, choices=Format.choices)
    # The confidence threshold written into the package's meta.json (None: accept everything);
    # a deployment may apply another one.
    threshold = models.FloatField(null=True, blank=True)
    # {class name: minimum confidence} written into meta.json as per-class thresholds.
    class_thresholds = models.JSONField(default=dict, blank=True)

    progress = models.PositiveSmallIntegerField(default=0)  # percent

    file = models.FileField(max_length=300, blank=True)
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    # meta.json of a package; for ONNX the same facts, stored in its metadata_props too
    meta = models.JSONField(default=dict, blank=True)

    parity_max_abs_diff = models.FloatField(null=True, blank=True)
    parity_samples = models.PositiveIntegerField(null=True, blank=True)
    parity_source = models.CharField(max_length=40, blank=True)  # "validation images", ...
    parity_passed = models.BooleanField(null=True, blank=True)
    top1_agreement = models.FloatField(null=True, blank=True)
    latency_batch1_ms = models.FloatField(null=True, blank=True)
    latency_batch32_ms = models.FloatField(null=True, blank=True)
    runtime = models.CharField(max_length=60, blank=True)  # what ran the latency check
    accuracy_before = models.FloatField(null=True, blank=True)  # the trained model
    accuracy_after = models.FloatField(null=True, blank=True)  # this export (INT8)
    details = models.JSONField(default=dict, blank=True)  # e.g. the quantization report

    class Meta(ClaimableJob.Meta):
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["job", "version"], name="one_export_version_per_job")
        ]
        indexes = [models.Index(fields=["workspace", "status"], name="export_by_status")]

    def __str__(self) -> str:
        return f"{self.name} (model v{self.version}, {self.get_format_display()})"

    # --- reading ---------------------------------------------------------------------------------
    @property
    def label(self) -> str:
        # "model v": the job's name often ends in its dataset's version ("… on Digits v1").
        model = gettext("model v%(version)s") % {"version": self.version}
        return f"{self.name} · {model} · {self.get_format_display()}"

    @property
    def is_servable(self) -> bool:
        return self.status == self.Status.SUCCEEDED and self.format in self.SERVABLE

    @property
    def task(self) -> str:
        """What its model answers: its meta's task once written, else its ready model's or its
        weights' (a job's OCR weights record "ocr"), else classification."""
        if (self.meta or {}).get("task"):
            return self.meta["task"]
        if self.ready_model:
            from modelzoo.services.ready import UnknownReadyModel, get_ready_model

            try:
                return get_ready_model(self.ready_model).task
            except UnknownReadyModel:
                return ""
        report = (self.weights.report or {}) if self.weights_id else {}
        return report.get("task") or (self.job.task if self.job_id else "") or "classification"

    @property
    def is_bundle(self) -> bool:
        """Its download is a zip whatever the format: an OCR model is three networks."""
        return self.task == "ocr"

    @property
    def is_int8(self) -> bool:
        return self.format in self.INT8

    @property
    def accuracy_change(self) -> float | None:
        if self.accuracy_before is None or self.accuracy_after is None:
            return None
        return self.accuracy_after - self.accuracy_before

    @property
    def folder(self) -> str:
        """Its storage folder: the downloadable file and, for packages, the unpacked model."""
        return f"deploy/exports/{self.pk}"

    @property
    def download_name(self) -> str:
        slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.name.lower())
        onnx = self.format in (self.Format.ONNX, self.Format.INT8_ONNX)
        suffix = ".onnx" if onnx and not self.is_bundle else ".zip"
        return f"{slug.strip('-') or 'model'}-v{self.version}-{self.format}{suffix}"

    # --- the worker's verbs (core.jobs), with an export's progress in percent ---------------------
    def report_progress(self, percent: int, stage: str) -> bool:
        """Records how far it got; False when this worker no longer owns the export."""
        # Cut only when too long: a slice is plain text, without the stage's message key.
        stage = stage if len(stage) <= 100 else stage[:100]
        return self.beat(progress=max(0, min(100, int(percent))), stage=stage)

    def mark_succeeded(self, **results: Any) -> bool:
        return super().mark_succeeded(progress=100, **results)
