"""What every datastore API view shares: finding the dataset the URL names, scoped."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import Workspace
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404
from datastore.models import Dataset


def datasets_with_counts(queryset: QuerySet[Dataset]) -> QuerySet[Dataset]:
    counted = queryset.annotate(
        sample_count=Count("samples"),
        labeled_count=Count("samples", filter=Q(samples__labeled=True)),
    )
    # Aggregating drops Meta.ordering, and pages need a stable order.
    return counted.order_by("-created_at", "-id").prefetch_related("classes")


class DatasetNestedMixin:
    """For routes under `datasets/<dataset_id>/`: 404 unless the user can see the dataset.

    Viewers read; members write (through IsWorkspaceMember, which asks `get_workspace`).
    """

    permission_classes = [IsWorkspaceMember]
    kwargs: dict[str, Any]
    request: Any

    def get_dataset(self) -> Dataset:
        if not hasattr(self, "_dataset"):
            self._dataset = get_object_for_user_or_404(
                Dataset.objects.select_related("workspace"),
                self.request.user,
                pk=self.kwargs["dataset_id"],
            )
        return self._dataset

    def get_workspace(self) -> Workspace:
        return self.get_dataset().workspace
