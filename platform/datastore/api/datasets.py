"""Datasets, their label sets, and their statistics."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from core import deletion
from core.api import WorkspaceNestedMixin
from core.deletion_api import DeletePreviewView, PlannedDestroyMixin, for_deleting
from core.pagination import WholeListPagination, page_body
from core.permissions import IsWorkspaceAdmin, IsWorkspaceMember
from core.scoping import scoped
from datastore.api.base import DatasetNestedMixin, datasets_with_counts
from datastore.models import Dataset, LabelClass
from datastore.serializers import (
    ClassChangeSerializer,
    ClassOrderSerializer,
    DatasetSerializer,
    DatasetStatisticsSerializer,
    EffectSerializer,
    LabelClassSerializer,
)
from datastore.services import labelset
from datastore.services.statistics import dataset_statistics


class DatasetListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's datasets. Members create them."""

    serializer_class = DatasetSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        return datasets_with_counts(Dataset.objects.filter(workspace=self.get_workspace()))

    def perform_create(self, serializer: DatasetSerializer) -> None:
        workspace = self.get_workspace()
        name = serializer.validated_data["name"]
        if Dataset.objects.filter(workspace=workspace, name=name).exists():
            raise ValidationError(
                _("This workspace already has a dataset named '%(name)s'.") % {"name": name}
            )
        serializer.save(workspace=workspace, created_by=self.request.user)


class DatasetDetailView(PlannedDestroyMixin, generics.RetrieveUpdateDestroyAPIView):
    """A dataset. Members rename it; admins delete it, with every file it holds (409 while a
    job is queued or running on one of its versions)."""

    plan = deletion.plan_dataset

    serializer_class = DatasetSerializer

    def get_queryset(self) -> Any:
        return datasets_with_counts(scoped(Dataset.objects.all(), self.request.user))

    def get_permissions(self) -> list[Any]:
        return [IsWorkspaceAdmin()] if self.request.method == "DELETE" else [IsWorkspaceMember()]


class DatasetDeletePreviewView(DeletePreviewView):
    """What deleting the dataset takes with it, and what blocks it. Admins."""

    plan = deletion.plan_dataset
    permission_classes = [for_deleting(IsWorkspaceAdmin)]

    def get_queryset(self) -> Any:
        return scoped(Dataset.objects.all(), self.request.user)


class ClassListView(DatasetNestedMixin, generics.ListCreateAPIView):
    """The dataset's classes, in label order. Adding one puts it last."""

    serializer_class = LabelClassSerializer
    pagination_class = WholeListPagination

    def get_queryset(self) -> Any:
        return self.get_dataset().classes.all()

    def perform_create(self, serializer: LabelClassSerializer) -> None:
        data = serializer.validated_data
        serializer.instance = labelset.add_class(
            self.get_dataset(), data["name"], data.get("color", "")
        )


class ClassDetailView(generics.RetrieveUpdateAPIView):
    """Rename or recolor a class. Merging and deleting go through `changes/` (with preview)."""

    serializer_class = LabelClassSerializer
    permission_classes = [IsWorkspaceMember]

    def get_queryset(self) -> Any:
        return scoped(LabelClass.objects.select_related("dataset__workspace"), self.request.user)

    def perform_update(self, serializer: LabelClassSerializer) -> None:
        data = serializer.validated_data
        instance = serializer.instance
        serializer.instance = labelset.rename_class(
            instance, data.get("name", instance.name), data.get("color", "")
        )


class ClassChangeView(DatasetNestedMixin, generics.GenericAPIView):
    """Merge a class into another, or delete it. With `preview` (the default) nothing changes:
    the answer says how many annotations and images the change would touch."""

    serializer_class = ClassChangeSerializer

    @extend_schema(responses={200: EffectSerializer})
    def post(self, request: Request, dataset_id: int) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        classes = self.get_dataset().classes
        source = classes.filter(pk=data["source"]).first()
        target = classes.filter(pk=data.get("target")).first()
        if source is None or (data["operation"] == "merge" and target is None):
            raise ValidationError(_("Pick classes of this dataset."))
        if data["operation"] == "merge":
            run = labelset.preview_merge if data["preview"] else labelset.merge_classes
            effect = run(source, target)
        else:
            run_delete = labelset.preview_delete if data["preview"] else labelset.delete_class
            effect = run_delete(source)
        return Response({**effect.to_json(), "applied": not data["preview"]})


class ClassOrderView(DatasetNestedMixin, generics.GenericAPIView):
    """Set the label order (the order of number keys on the labeling page)."""

    serializer_class = ClassOrderSerializer
    pagination_class = WholeListPagination

    @extend_schema(responses={200: LabelClassSerializer(many=True)})
    def post(self, request: Request, dataset_id: int) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        dataset = self.get_dataset()
        with transaction.atomic():
            labelset.reorder_classes(dataset, incoming.validated_data["class_ids"])
        classes = LabelClassSerializer(dataset.classes.all(), many=True).data
        return Response(page_body(classes, len(classes)))


class StatisticsView(DatasetNestedMixin, generics.GenericAPIView):
    """Counts for the report's charts: classes, image sizes, splits and boxes per image."""

    @extend_schema(responses={200: DatasetStatisticsSerializer})
    def get(self, request: Request, dataset_id: int) -> Response:
        return Response(dataset_statistics(self.get_dataset()))
