"""An OCR sample's text lines: read them (viewers too), replace them (members), and pre-label
them with the ready PP-OCRv4 pipeline (members)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_errors import conflict_schema, error_response
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404
from core.stored_messages import in_language, said_of
from datastore.models import Sample
from datastore.models.sample import StaleRevision
from datastore.models.text_line import (
    MAX_LINES,
    MAX_POINTS,
    MAX_TRANSCRIPTION_CHARS,
    TextLineInput,
    save_text_lines,
)
from labeling.prelabel import prelabel_sample
from modelzoo.services.ready import ReadyModelUnavailable


class PointField(serializers.ListField):
    child = serializers.FloatField()
    min_length = 2
    max_length = 2


class LabeledTextLineSerializer(serializers.Serializer):
    points = serializers.ListField(
        child=PointField(),
        min_length=3,
        max_length=MAX_POINTS,
        help_text="The line's quadrilateral or polygon: [x, y] pixels of the image",
    )
    transcription = serializers.CharField(
        max_length=MAX_TRANSCRIPTION_CHARS, allow_blank=True, trim_whitespace=False
    )
    difficult = serializers.BooleanField(
        default=False, help_text="Too hard to read (PPOCRLabel's difficult, ICDAR's ###)"
    )


class SampleTextLinesSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    revision = serializers.IntegerField()
    labeled = serializers.BooleanField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    lines = LabeledTextLineSerializer(many=True)


class SaveTextLinesSerializer(serializers.Serializer):
    revision = serializers.IntegerField(min_value=0)
    lines = LabeledTextLineSerializer(many=True, max_length=MAX_LINES)


def text_lines_of(sample: Sample) -> dict[str, object]:
    return {
        "id": sample.pk,
        "revision": sample.revision,
        "labeled": sample.labeled,
        "width": sample.width,
        "height": sample.height,
        "lines": [line.to_json() for line in sample.text_lines.all()],
    }


def ocr_sample_for(request: Request, view: generics.GenericAPIView, pk: int) -> Sample:
    """The sample, 404 for outsiders (and for a sample of a dataset without text lines)."""
    sample = get_object_for_user_or_404(
        Sample.objects.select_related("dataset__workspace"),
        request.user,
        pk=pk,
        dataset__task_type="ocr",
    )
    view.check_object_permissions(request, sample)
    return sample


class SampleTextLinesView(generics.GenericAPIView):
    """An OCR sample's text lines. PUT replaces them all; send the `revision` you loaded: 409
    means someone else saved since, and `current` holds their lines."""

    serializer_class = SaveTextLinesSerializer
    permission_classes = [IsWorkspaceMember]

    @extend_schema(responses={200: SampleTextLinesSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return Response(text_lines_of(ocr_sample_for(request, self, pk)))

    @extend_schema(
        responses={
            200: SampleTextLinesSerializer,
            409: conflict_schema("TextLinesConflict", SampleTextLinesSerializer()),
        }
    )
    def put(self, request: Request, pk: int) -> Response:
        sample = ocr_sample_for(request, self, pk)
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        lines = [TextLineInput(**line) for line in data["lines"]]
        try:
            save_text_lines(sample, lines, revision=data["revision"], user=request.user)
        except StaleRevision:
            return _stale(pk)
        return Response(text_lines_of(sample))


class PrelabelSerializer(serializers.Serializer):
    revision = serializers.IntegerField(min_value=0)


def _stale(pk: int) -> Response:
    return error_response(
        "stale_revision",
        _("Someone else saved this sample since you loaded it; `current` holds their text lines."),
        status.HTTP_409_CONFLICT,
        current=text_lines_of(Sample.objects.get(pk=pk)),
    )


class PrelabelTextLinesView(generics.GenericAPIView):
    """Reads the sample's image with the ready PP-OCRv4 pipeline and stores the lines it found
    (polygon and text) as the sample's text lines, replacing any, for you to correct. Send the
    `revision` you loaded; 409 `model_unavailable` when the model's files are not installed."""

    serializer_class = PrelabelSerializer
    permission_classes = [IsWorkspaceMember]

    @extend_schema(
        responses={
            200: SampleTextLinesSerializer,
            409: conflict_schema("PrelabelConflict", SampleTextLinesSerializer()),
        }
    )
    def post(self, request: Request, pk: int) -> Response:
        sample = ocr_sample_for(request, self, pk)
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            prelabel_sample(sample, revision=incoming.validated_data["revision"], user=request.user)
        except StaleRevision:
            return _stale(pk)
        except ReadyModelUnavailable as reason:
            return error_response(
                "model_unavailable",
                in_language(said_of(reason)),
                status.HTTP_409_CONFLICT,
                current=text_lines_of(sample),
            )
        return Response(text_lines_of(sample))
