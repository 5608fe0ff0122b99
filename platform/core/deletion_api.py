"""The API's one shape for deleting: `GET <object>/delete-preview/` and `DELETE <object>/`.

The preview answers 200 with what the delete takes with it and what blocks it
(`DeletionSummarySerializer`); it needs the role the DELETE needs, so a viewer gets 403 as
the delete would. `DELETE` answers 204, or 409 in the error shape with code `in_use` and the
`blockers`. The plans themselves live in `core.deletion`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core import deletion
from core.permissions import WorkspaceRolePermission


class BlockerSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="version, job, deployment, …")
    id = serializers.IntegerField()
    name = serializers.CharField()
    reason = serializers.CharField(help_text="Why it blocks the delete, for people")
    url = serializers.CharField(help_text="Its page, to deal with it there (may be empty)")

    class Meta:
        ref_name = "DeletionBlocker"


class DeletionSummarySerializer(serializers.Serializer):
    kind = serializers.CharField()
    id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    counts = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="What goes with it: samples, annotations, versions, exports, …",
    )
    bytes = serializers.IntegerField(help_text="Bytes of files removed with it")
    blockers = BlockerSerializer(many=True)
    can_delete = serializers.BooleanField()

    class Meta:
        ref_name = "DeletionSummary"


IN_USE = OpenApiResponse(
    inline_serializer(
        "InUseError",
        {
            "code": serializers.CharField(),
            "message": serializers.CharField(),
            "fields": serializers.DictField(
                child=serializers.ListField(child=serializers.CharField())
            ),
            "blockers": BlockerSerializer(many=True),
        },
    ),
    description="Refused (code `in_use`): `blockers` names what uses it and why.",
)
DELETE_RESPONSES = {204: None, 409: IN_USE}


def for_deleting(permission: type[WorkspaceRolePermission]) -> type[WorkspaceRolePermission]:
    """`permission` asking for its write role on every method: a delete preview is a read
    that prepares a delete, and says no to whoever the delete would refuse."""

    class Deleting(permission):  # type: ignore[valid-type, misc]
        def required_role(self, request: Request) -> Any:
            return self.write_role

    Deleting.__name__ = f"{permission.__name__}ForDeleting"
    return Deleting


class PlannedDestroyMixin:
    """For a detail view: DELETE executes `plan(object)` (204, or 409 `in_use`)."""

    plan: ClassVar[Callable[[Any], deletion.DeletionPlan]]

    @extend_schema(responses=DELETE_RESPONSES)
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        deletion.execute(type(self).plan(self.get_object()))  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeletePreviewView(generics.GenericAPIView):
    """What deleting this takes with it (counts, bytes of files) and what blocks it."""

    plan: ClassVar[Callable[[Any], deletion.DeletionPlan]]
    serializer_class = DeletionSummarySerializer

    @extend_schema(responses={200: DeletionSummarySerializer})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(type(self).plan(self.get_object()).summary())
