"""An OCR sample's text lines: a polygon on the image and what it says.

A text line is a quadrilateral or a polygon (at least three `[x, y]` points, in pixels of the
image), its transcription and PPOCRLabel's `difficult` flag (ICDAR's `###`: a line too hard to
read, which training and evaluation ignore). Saving replaces a sample's lines as a whole, with
the same revision check as tags and boxes, so two labelers never silently overwrite each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from datastore.models.sample import BOX_SLACK, Sample, StaleRevision

MAX_TRANSCRIPTION_CHARS = 500
MAX_POINTS = 200
MAX_LINES = 2000


@dataclass(frozen=True)
class TextLineInput:
    points: list[list[float]]
    transcription: str
    difficult: bool = False


class TextLine(models.Model):
    sample = models.ForeignKey(Sample, on_delete=models.CASCADE, related_name="text_lines")
    order = models.PositiveIntegerField(default=0)
    points = models.JSONField()  # [[x, y], ...] in image pixels, at least three
    transcription = models.CharField(max_length=MAX_TRANSCRIPTION_CHARS, blank=True)
    difficult = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    workspace_lookup = "sample__dataset__workspace"

    class Meta:
        ordering = ["sample", "order", "id"]

    def __str__(self) -> str:
        return f"{self.transcription[:30]!r} on sample {self.sample_id}"

    def to_json(self) -> dict[str, object]:
        return {
            "points": self.points,
            "transcription": self.transcription,
            "difficult": self.difficult,
        }


def check_text_lines(lines: list[TextLineInput], width: int, height: int) -> None:
    """Raises ValidationError naming the first bad line (1-based), else returns."""
    if len(lines) > MAX_LINES:
        raise ValidationError(_("A sample may have at most %(n)s text lines.") % {"n": MAX_LINES})
    for number, line in enumerate(lines, 1):
        where = {"n": number}
        if not 3 <= len(line.points) <= MAX_POINTS:
            raise ValidationError(
                _("Text line %(n)s needs between 3 and %(most)s points.")
                % {**where, "most": MAX_POINTS}
            )
        for point in line.points:
            if len(point) != 2 or not all(math.isfinite(v) for v in point):
                raise ValidationError(_("Text line %(n)s has a point that is not [x, y].") % where)
            x, y = point
            if not (-BOX_SLACK <= x <= width + BOX_SLACK and -BOX_SLACK <= y <= height + BOX_SLACK):
                raise ValidationError(
                    _("Text line %(n)s reaches outside the %(width)sx%(height)s image.")
                    % {**where, "width": width, "height": height}
                )
        if len(line.transcription) > MAX_TRANSCRIPTION_CHARS:
            raise ValidationError(
                _("The text of line %(n)s is longer than %(most)s characters.")
                % {**where, "most": MAX_TRANSCRIPTION_CHARS}
            )
        if "\n" in line.transcription or "\t" in line.transcription:
            raise ValidationError(_("The text of line %(n)s holds a line break or a tab.") % where)


def clamp(points: list[list[float]], width: int, height: int) -> list[list[float]]:
    """Points within the image, rounded to a tenth of a pixel (the browser's slack removed)."""
    return [
        [round(min(max(float(x), 0.0), width), 1), round(min(max(float(y), 0.0), height), 1)]
        for x, y in points
    ]


def save_text_lines(
    sample: Sample, lines: list[TextLineInput], *, revision: int, user: models.Model | None
) -> int:
    """Replaces the sample's text lines; returns the new revision.

    A sample with no lines is unlabeled. Raises ValidationError for bad input (or a sample of
    a dataset that is not OCR) and StaleRevision when `revision` is not the current one.
    """
    if not sample.dataset.is_ocr:
        raise ValidationError(_("Only an OCR dataset's samples have text lines."))
    check_text_lines(lines, sample.width, sample.height)
    now = timezone.now()
    labeled = bool(lines)
    with transaction.atomic():
        won = Sample.objects.filter(pk=sample.pk, revision=revision).update(
            revision=F("revision") + 1,
            labeled=labeled,
            labeled_at=now if labeled else None,
            claimed_by=None,
            claimed_at=None,
        )
        if won != 1:
            raise StaleRevision(sample.pk)
        sample.text_lines.all().delete()
        TextLine.objects.bulk_create(
            TextLine(
                sample=sample,
                order=order,
                points=clamp(line.points, sample.width, sample.height),
                transcription=line.transcription,
                difficult=line.difficult,
                created_by=user,
            )
            for order, line in enumerate(lines)
        )
    sample.revision, sample.labeled = revision + 1, labeled
    return sample.revision
