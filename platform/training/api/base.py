"""What the training API views share: the job the URL names, scoped to the requester."""

from __future__ import annotations

from typing import Any

from accounts.models import Workspace
from core.permissions import IsWorkspaceMember
from core.scoping import get_object_for_user_or_404
from training.models import TrainingJob


class JobNestedMixin:
    """For routes under `jobs/<pk>/`: 404 unless the requester can see the job's workspace.
    Viewers read; members write."""

    permission_classes = [IsWorkspaceMember]
    kwargs: dict[str, Any]
    request: Any

    def get_job(self) -> TrainingJob:
        if not hasattr(self, "_job"):
            self._job = get_object_for_user_or_404(
                TrainingJob.objects.select_related("workspace"),
                self.request.user,
                pk=self.kwargs["pk"],
            )
        return self._job

    def get_workspace(self) -> Workspace:
        return self.get_job().workspace


def int_param(params: Any, name: str, default: int, low: int = 0, high: int = 10**12) -> int:
    from rest_framework.exceptions import ValidationError

    raw = params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: ["Must be a whole number."]}) from None
    if not low <= value <= high:
        raise ValidationError({name: [f"Must be from {low} to {high}."]})
    return value
