"""Labeling API: claim the next item, save one sample's labels, label many at once."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_errors import conflict_schema, error_response
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404
from datastore.api.base import DatasetNestedMixin
from datastore.models import Sample
from datastore.models.sample import BoxInput, StaleRevision
from datastore.serializers import BoxSerializer, SampleSerializer
from labeling.bulk import MODES, bulk_assign
from labeling.claims import claim_next


class ClaimSerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0)


class SaveLabelsSerializer(serializers.Serializer):
    revision = serializers.IntegerField(min_value=0)
    class_ids = serializers.ListField(
        child=serializers.IntegerField(), default=list, max_length=1000
    )
    boxes = BoxSerializer(many=True, default=list, max_length=5000)
    labeled = serializers.BooleanField(required=False, allow_null=True, default=None)


class SavedLabelsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    revision = serializers.IntegerField()
    labeled = serializers.BooleanField()


class BulkLabelSerializer(serializers.Serializer):
    sample_ids = serializers.ListField(
        child=serializers.IntegerField(), allow_empty=False, max_length=5000
    )
    class_id = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=[(m, m) for m in MODES], default="set")


class ClaimNextView(DatasetNestedMixin, generics.GenericAPIView):
    """Claims the next unlabeled sample for you (after `after`, wrapping around).

    Two labelers never hold the same sample; a claim lapses after ten minutes. Answers 204
    when nothing is left to label.
    """

    serializer_class = ClaimSerializer

    @extend_schema(responses={200: SampleSerializer, 204: OpenApiResponse(description="Done")})
    def post(self, request: Request, dataset_id: int) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        sample = claim_next(self.get_dataset(), request.user, incoming.validated_data["after"])
        if sample is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(SampleSerializer(sample).data)


class SaveLabelsView(generics.GenericAPIView):
    """Replaces a sample's labels. Send the `revision` you loaded: 409 means someone else
    saved since, and the answer holds their version."""

    serializer_class = SaveLabelsSerializer
    permission_classes = [IsWorkspaceMember]

    @extend_schema(
        responses={
            200: SavedLabelsSerializer,
            409: conflict_schema("LabelsConflict", SampleSerializer()),
        }
    )
    def put(self, request: Request, pk: int) -> Response:
        sample = get_object_for_user_or_404(
            Sample.objects.select_related("dataset__workspace"), request.user, pk=pk
        )
        self.check_object_permissions(request, sample)
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            sample.set_labels(
                class_ids=data["class_ids"],
                boxes=[BoxInput(**box) for box in data["boxes"]],
                revision=data["revision"],
                user=request.user,
                labeled=data["labeled"],
            )
        except StaleRevision:
            current = Sample.objects.prefetch_related("annotations").get(pk=pk)
            return error_response(
                "stale_revision",
                _(
                    "Someone else saved this sample since you loaded it; `current` holds "
                    "their labels."
                ),
                status.HTTP_409_CONFLICT,
                current=SampleSerializer(current).data,
            )
        return Response({"id": sample.pk, "revision": sample.revision, "labeled": sample.labeled})


class BulkLabelView(DatasetNestedMixin, generics.GenericAPIView):
    """Give many samples one class: `set` (replace), or `add`/`remove` on multi-label data."""

    serializer_class = BulkLabelSerializer

    @extend_schema(
        responses={
            200: inline_serializer(
                "BulkLabelResult",
                {"changed": serializers.IntegerField(help_text="Samples changed")},
            )
        }
    )
    def post(self, request: Request, dataset_id: int) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        dataset = self.get_dataset()
        label_class = dataset.classes.filter(pk=data["class_id"]).first()
        if label_class is None:
            raise ValidationError(_("Pick a class of this dataset."))
        changed = bulk_assign(dataset, data["sample_ids"], label_class, data["mode"], request.user)
        return Response({"changed": changed})
