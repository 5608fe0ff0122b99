"""Sets of weights with where they came from, and the imports that bring them in."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from core.jobs import ClaimableJob
from modelzoo.catalog import Architecture, get_architecture


class Weights(models.Model):
    """A set of weights for one architecture, stored as safetensors with framework names.

    Shipped weights (the framework's local weight store) are not rows: they are read from the
    store each time, so the zoo never lists a file that is not there.
    """

    class Source(models.TextChoices):
        IMPORTED = "imported", _("Imported")
        JOB = "job", _("From a finished job")

    class Format(models.TextChoices):
        SAFETENSORS = "safetensors", "safetensors"
        TORCH = "torch", "PyTorch (.pth / .pt)"
        PADDLE = "paddle", "PaddlePaddle (.pdparams)"
        ONNX = "onnx", "ONNX"
        FRAMEWORK = "framework", _("Sampan framework")

    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="weights"
    )
    name = models.CharField(max_length=200)
    architecture = models.CharField(max_length=50)
    source = models.CharField(max_length=10, choices=Source.choices)
    original_format = models.CharField(max_length=12, choices=Format.choices)
    original_name = models.CharField(max_length=300, blank=True)
    file = models.FileField(max_length=300)
    size_bytes = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64)
    num_classes = models.PositiveIntegerField()
    class_names = models.JSONField(default=list, blank=True)
    input_size = models.PositiveIntegerField(null=True, blank=True)
    # What the conversion did: tensors matched, renamed, transposed, dropped; the check run.
    report = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["workspace", "architecture"], name="weights_by_arch")]

    def __str__(self) -> str:
        return self.name

    @property
    def arch(self) -> Architecture:
        return get_architecture(self.architecture)

    def source_description(self) -> str:
        if self.source == self.Source.JOB:
            job = getattr(self, "produced_by", None)
            if job is None:
                return gettext("Trained by a job since deleted")
            return gettext("Trained by job #%(job)s") % {"job": job.pk}
        return gettext("Imported from %(format)s (%(file)s)") % {
            "format": self.get_original_format_display(),
            "file": self.original_name,
        }

    def local_path(self) -> str:
        from django.core.files.storage import default_storage

        return default_storage.path(self.file.name)


class WeightsImport(ClaimableJob):
    """One uploaded weights file on its way into the zoo: a worker converts it in a child
    process under a memory ceiling (modelzoo.services.weights), never the web request."""

    activity = gettext_noop("importing weights")

    workspace = models.ForeignKey(
        "accounts.Workspace", on_delete=models.CASCADE, related_name="weight_imports"
    )
    architecture = models.CharField(max_length=50)
    name = models.CharField(max_length=200)
    original_name = models.CharField(max_length=300)
    original_format = models.CharField(max_length=12, choices=Weights.Format.choices)
    size_bytes = models.PositiveBigIntegerField()
    # The uploaded file in storage, alone in its own folder; deleted once the import ends.
    incoming = models.CharField(max_length=300, blank=True)
    weights = models.OneToOneField(
        Weights, null=True, blank=True, on_delete=models.SET_NULL, related_name="imported_by"
    )

    class Meta(ClaimableJob.Meta):
        pass

    def __str__(self) -> str:
        return f"import of {self.original_name} as {self.architecture}"
