"""Samples: the gallery listing (filtered, sorted, keyset-paginated), one sample, its files."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage
from django.db.models import prefetch_related_objects
from django.http import FileResponse, Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from core import deletion
from core.deletion_api import (
    DELETE_RESPONSES,
    DeletePreviewView,
    DeletionSummarySerializer,
    PlannedDestroyMixin,
    for_deleting,
)
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404, scoped
from datastore.api.base import DatasetNestedMixin
from datastore.gallery import BadQuery, GalleryQuery, gallery_page
from datastore.models import Sample
from datastore.serializers import SampleIdsSerializer, SamplePageSerializer, SampleSerializer

GALLERY_PARAMETERS = [
    OpenApiParameter("class", int, description="Only samples with this class"),
    OpenApiParameter("status", str, enum=["all", "labeled", "unlabeled"]),
    OpenApiParameter("split", str, enum=["train", "val", "test", "none"]),
    OpenApiParameter("problems", bool, description="Only samples the import flagged"),
    OpenApiParameter("sort", str, enum=["oldest", "newest", "name", "largest"]),
    OpenApiParameter("after", str, description="Cursor: the page after this one"),
    OpenApiParameter("before", str, description="Cursor: the page before this one"),
    OpenApiParameter("start", int, description="First page begins at this sample id"),
    OpenApiParameter("page_size", int, description="1 to 200, default 60"),
]


class SampleListView(DatasetNestedMixin, generics.GenericAPIView):
    """The dataset's samples, a page at a time. `next` and `previous` are ready-made URLs."""

    serializer_class = SampleSerializer

    @extend_schema(parameters=GALLERY_PARAMETERS, responses={200: SamplePageSerializer})
    def get(self, request: Request, dataset_id: int) -> Response:
        try:
            query = GalleryQuery.from_params(request.query_params)
            page = gallery_page(self.get_dataset(), query)
        except BadQuery as error:
            raise ValidationError({"detail": str(error)}) from None
        prefetch_related_objects(page.samples, "annotations")
        return Response(
            {
                "count": page.total,
                "next": _page_url(request, "after", page.next_cursor),
                "previous": _page_url(request, "before", page.previous_cursor),
                "results": SampleSerializer(page.samples, many=True).data,
            }
        )


def _page_url(request: Request, key: str, cursor: str) -> str:
    if not cursor:
        return ""
    params = request.query_params.copy()
    for name in ("after", "before", "start"):
        params.pop(name, None)
    params[key] = cursor
    return request.build_absolute_uri(f"{request.path}?{params.urlencode()}")


def plan_sample(sample: Sample) -> deletion.DeletionPlan:
    return deletion.plan_samples(sample.dataset, Sample.objects.filter(pk=sample.pk))


class SampleDetailView(PlannedDestroyMixin, generics.RetrieveDestroyAPIView):
    """One sample with its labels (class tags and boxes) and revision. Members delete it with
    its files; 409 `in_use` while a frozen version holds it (versions never change)."""

    serializer_class = SampleSerializer
    permission_classes = [IsWorkspaceMember]
    plan = plan_sample

    def get_queryset(self) -> Any:
        queryset = Sample.objects.select_related("dataset__workspace")
        return scoped(queryset.prefetch_related("annotations"), self.request.user)


class SampleDeletePreviewView(DeletePreviewView):
    """What deleting the sample takes with it, and the versions that hold it."""

    permission_classes = [for_deleting(IsWorkspaceMember)]
    plan = plan_sample

    def get_queryset(self) -> Any:
        return scoped(Sample.objects.select_related("dataset__workspace"), self.request.user)


def _plan_for_ids(dataset: Any, ids: list[int]) -> deletion.DeletionPlan:
    """All of `ids` or nothing: one that is not a sample of this dataset answers 404."""
    samples = Sample.objects.filter(dataset=dataset, pk__in=ids)
    if samples.count() != len(set(ids)):
        raise Http404(_("Some of these samples are not in this dataset."))
    return deletion.plan_samples(dataset, samples)


class SampleBulkDeleteView(DatasetNestedMixin, generics.GenericAPIView):
    """Deletes 1 to 500 samples of the dataset, all or none: 404 if any id is not a sample of
    this dataset, 409 `in_use` if a frozen version holds any of them."""

    serializer_class = SampleIdsSerializer

    @extend_schema(request=SampleIdsSerializer, responses=DELETE_RESPONSES)
    def post(self, request: Request, dataset_id: int) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        deletion.execute(_plan_for_ids(self.get_dataset(), incoming.validated_data["ids"]))
        return Response(status=204)


class SampleBulkDeletePreviewView(DatasetNestedMixin, generics.GenericAPIView):
    """What deleting these samples (`ids`, comma-separated) takes with it, and what blocks it."""

    permission_classes = [for_deleting(IsWorkspaceMember)]
    serializer_class = DeletionSummarySerializer

    @extend_schema(
        parameters=[OpenApiParameter("ids", str, required=True, description="1,2,3 (1 to 500)")],
        responses={200: DeletionSummarySerializer},
    )
    def get(self, request: Request, dataset_id: int) -> Response:
        raw = [part for part in request.query_params.get("ids", "").split(",") if part.strip()]
        incoming = SampleIdsSerializer(data={"ids": raw})
        incoming.is_valid(raise_exception=True)
        plan = _plan_for_ids(self.get_dataset(), incoming.validated_data["ids"])
        return Response(plan.summary())


class _SampleFileView(generics.GenericAPIView):
    field = "file"
    permission_classes = [IsWorkspaceMember]

    @extend_schema(responses={(200, "image/*"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request: Request, pk: int) -> FileResponse:
        sample = get_object_for_user_or_404(Sample, request.user, pk=pk)
        name = getattr(sample, self.field).name
        try:
            response = FileResponse(default_storage.open(name, "rb"))
        except FileNotFoundError:
            raise Http404("The file is missing from storage.") from None
        # Stored files never change (new imports get new names), so browsers may keep them.
        response["Cache-Control"] = "private, max-age=604800, immutable"
        return response


class SampleImageView(_SampleFileView):
    """The image itself."""


class SampleThumbnailView(_SampleFileView):
    """A JPEG at most 160 pixels on its longer side, made at import."""

    field = "thumbnail"
