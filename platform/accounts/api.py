"""REST API for the signed-in user, workspaces, members and API tokens."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import services
from accounts.models import ApiToken, Invitation, Membership, User
from accounts.serializers import (
    AddMemberSerializer,
    ApiTokenSerializer,
    InvitationSerializer,
    InviteSerializer,
    MembershipSerializer,
    MyInvitationSerializer,
    NewApiTokenSerializer,
    PasswordTokenSerializer,
    UserSerializer,
    WorkspaceSerializer,
)
from core import deletion, throttling
from core.api import WorkspaceNestedMixin
from core.deletion_api import DeletePreviewView, PlannedDestroyMixin, for_deleting
from core.permissions import (
    IsWorkspaceAdmin,
    IsWorkspaceOwner,
    IsWorkspaceViewer,
    WorkspaceAdminsOnly,
)
from core.scoping import Role, require_role, token_of, workspaces_for


class MeView(generics.RetrieveAPIView):
    """The account this request is authenticated as."""

    serializer_class = UserSerializer

    def get_object(self) -> User:
        return self.request.user


class WorkspaceListView(generics.ListCreateAPIView):
    """Your workspaces; creating one makes you its owner."""

    serializer_class = WorkspaceSerializer

    def get_queryset(self) -> Any:
        return workspaces_for(self.request.user)

    def perform_create(self, serializer: WorkspaceSerializer) -> None:
        if token_of(self.request.user) is not None:
            # A token only ever sees its own workspace, so it could not use the new one.
            raise PermissionDenied(_("Create workspaces from a signed-in session, not a token."))
        name = serializer.validated_data["name"]
        serializer.instance = services.create_workspace(owner=self.request.user, name=name)


class WorkspaceDetailView(PlannedDestroyMixin, generics.RetrieveUpdateDestroyAPIView):
    """A workspace: viewers read it, admins rename it, owners delete it with everything in it
    and every file of it."""

    serializer_class = WorkspaceSerializer
    plan = deletion.plan_workspace
    lookup_field = "slug"
    lookup_url_kwarg = "workspace_slug"

    def get_queryset(self) -> Any:
        return workspaces_for(self.request.user)

    def get_permissions(self) -> list[Any]:
        if self.request.method == "DELETE":
            return [IsWorkspaceOwner()]
        return [IsWorkspaceAdmin()]


class WorkspaceDeletePreviewView(DeletePreviewView):
    """What deleting the workspace takes with it. Owners."""

    lookup_field = "slug"
    lookup_url_kwarg = "workspace_slug"
    permission_classes = [for_deleting(IsWorkspaceOwner)]
    plan = deletion.plan_workspace

    def get_queryset(self) -> Any:
        return workspaces_for(self.request.user)


class MemberListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's members. People join by accepting an invitation
    (``invitations/``); POST adds an account directly, for owners, only on a server that allows
    it (ADD_MEMBERS_DIRECTLY)."""

    queryset = Membership.objects.select_related("user")
    serializer_class = MembershipSerializer
    permission_classes = [IsWorkspaceAdmin]

    @extend_schema(request=AddMemberSerializer, responses={201: MembershipSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        require_role(request.user, self.get_workspace(), Role.OWNER)
        if not settings.ADD_MEMBERS_DIRECTLY:
            raise PermissionDenied(
                _(
                    "On this server people join a workspace by accepting an invitation: "
                    "POST /api/workspaces/%(slug)s/invitations/ instead."
                )
                % {"slug": self.get_workspace().slug}
            )
        incoming = AddMemberSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        user = services.find_user(incoming.validated_data["user"])
        if user is None:
            raise ValidationError({"user": ["No active account has this username or email."]})
        role = Role(incoming.validated_data["role"])
        membership = services.add_member(
            self.get_workspace(), by=request.user, user=user, role=role
        )
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberDetailView(WorkspaceNestedMixin, generics.RetrieveUpdateDestroyAPIView):
    """One membership. Admins change roles and remove members; anyone may leave."""

    queryset = Membership.objects.select_related("user", "workspace")
    serializer_class = MembershipSerializer
    permission_classes = [IsWorkspaceViewer]  # services.py applies the finer rules
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def perform_update(self, serializer: MembershipSerializer) -> None:
        role = Role(serializer.validated_data.get("role", serializer.instance.role))
        services.change_role(serializer.instance, by=self.request.user, role=role)

    def perform_destroy(self, instance: Membership) -> None:
        services.remove_member(instance, by=self.request.user)


class WorkspaceInvitationListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """The workspace's open invitations (admins only). POST invites someone by username or
    email; the answer is the same whether or not such an account exists."""

    queryset = Invitation.objects.open().select_related("invited_by")
    serializer_class = InvitationSerializer
    permission_classes = [WorkspaceAdminsOnly]

    @extend_schema(request=InviteSerializer, responses={201: InvitationSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = InviteSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        invitation = services.invite(
            self.get_workspace(),
            by=request.user,
            addressed_to=incoming.validated_data["addressed_to"],
            role=Role(incoming.validated_data["role"]),
        )
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class WorkspaceInvitationDetailView(WorkspaceNestedMixin, generics.RetrieveDestroyAPIView):
    """One open invitation; DELETE withdraws it (admins; owner invitations only owners)."""

    queryset = Invitation.objects.open().select_related("invited_by", "workspace")
    serializer_class = InvitationSerializer
    permission_classes = [WorkspaceAdminsOnly]

    def perform_destroy(self, instance: Invitation) -> None:
        services.revoke_invitation(instance, by=self.request.user)


class _SessionOnly:
    """Invitations are answered by a person signed in, not by a workspace's token."""

    request: Any

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if token_of(request.user) is not None:
            raise PermissionDenied(_("Answer invitations from a signed-in session, not a token."))


class MyInvitationListView(_SessionOnly, generics.ListAPIView):
    """Invitations waiting for your answer."""

    serializer_class = MyInvitationSerializer

    def get_queryset(self) -> Any:
        invitations = Invitation.objects.open().filter(invitee=self.request.user)
        return invitations.select_related("workspace", "invited_by")


class _AnswerInvitationView(_SessionOnly, generics.GenericAPIView):
    serializer_class = MyInvitationSerializer

    def get_queryset(self) -> Any:
        # Only the invitee can find an invitation by id; anyone else gets 404.
        invitations = Invitation.objects.filter(invitee=self.request.user)
        return invitations.select_related("workspace", "invited_by")


class AcceptInvitationView(_AnswerInvitationView):
    """Join the workspace with the invitation's role."""

    @extend_schema(request=None, responses={200: MembershipSerializer})
    def post(self, request: Request, pk: int) -> Response:
        membership = services.accept_invitation(self.get_object(), user=request.user)
        return Response(MembershipSerializer(membership).data)


class DeclineInvitationView(_AnswerInvitationView):
    """Say no; the workspace's admins see the invitation leave their list."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, pk: int) -> Response:
        services.decline_invitation(self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListView(WorkspaceNestedMixin, generics.ListCreateAPIView):
    """Your API tokens for this workspace. A new token's secret is in the response only."""

    queryset = ApiToken.objects.all()
    serializer_class = ApiTokenSerializer
    permission_classes = [IsWorkspaceViewer]

    def get_queryset(self) -> Any:
        return super().get_queryset().filter(user=self.request.user)

    @extend_schema(request=ApiTokenSerializer, responses={201: NewApiTokenSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if token_of(request.user) is not None:
            # A leaked token must not be able to mint its own successors.
            raise PermissionDenied(_("Create tokens from a signed-in session, not a token."))
        incoming = ApiTokenSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        token, secret = services.issue_token(
            self.get_workspace(), user=request.user, name=incoming.validated_data["name"]
        )
        token.token = secret
        return Response(NewApiTokenSerializer(token).data, status=status.HTTP_201_CREATED)


class TokenDetailView(WorkspaceNestedMixin, PlannedDestroyMixin, generics.RetrieveDestroyAPIView):
    """One of your tokens; DELETE deletes it, and it stops working at once. (The tokens page
    can revoke one instead, which keeps it listed, marked revoked, for the record.)"""

    queryset = ApiToken.objects.all()
    serializer_class = ApiTokenSerializer
    permission_classes = [IsWorkspaceViewer]
    plan = deletion.plan_token

    def get_queryset(self) -> Any:
        return super().get_queryset().filter(user=self.request.user)


class TokenDeletePreviewView(WorkspaceNestedMixin, DeletePreviewView):
    """What deleting one of your tokens takes with it (nothing else)."""

    queryset = ApiToken.objects.all()
    permission_classes = [for_deleting(IsWorkspaceViewer)]
    plan = deletion.plan_token

    def get_queryset(self) -> Any:
        return super().get_queryset().filter(user=self.request.user)


class InvalidCredentials(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "The username, password or workspace is wrong."
    default_code = "invalid_credentials"


class PasswordTokenView(generics.GenericAPIView):
    """A first token without a browser: your username (or email) and password, the slug of a
    workspace you belong to, and a name for the token. The token has your role in that
    workspace; its secret is in this response only. Any wrong value gets the same answer.
    Limited to 5 attempts a minute per address and per account (429 with Retry-After), and
    wrong passwords count against the sign-in page's limits too."""

    # Credentials travel in the body; a session or a token is not needed, nor looked at.
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    serializer_class = PasswordTokenSerializer

    @extend_schema(
        auth=[],
        request=PasswordTokenSerializer,
        responses={
            201: NewApiTokenSerializer,
            400: OpenApiResponse(
                description="A missing field, or wrong credentials (`invalid_credentials`: "
                "the same for a wrong password, an unknown account or workspace, and a "
                "workspace you are not a member of)"
            ),
            429: OpenApiResponse(description="Too many attempts; see Retry-After"),
        },
    )
    def post(self, request: Request) -> Response:
        incoming = PasswordTokenSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        account = services.find_user(data["username"])
        # One account, one count, whether it is named by its username or by its email.
        account_key = account.username if account is not None else data["username"].strip()
        address = throttling.client_address(request)
        limits = [
            (throttling.TOKEN_MINTS_PER_ADDRESS, address),
            (throttling.TOKEN_MINTS_PER_ACCOUNT, account_key),
            (throttling.LOGIN_FAILURES_PER_ACCOUNT, account_key),
            (throttling.LOGIN_FAILURES_PER_ADDRESS, address),
        ]
        waits = [wait for limit, key in limits if (wait := limit.retry_after(key)) is not None]
        if waits:
            wait = max(waits)
            raise exceptions.Throttled(
                wait,
                _("Too many attempts; try again in %(wait)s.")
                % {"wait": throttling.wait_text(wait)},
            )
        for limit, key in limits[:2]:
            limit.record(key)
        issued = services.issue_token_with_password(
            account=data["username"],
            password=data["password"],
            workspace_slug=data["workspace"],
            name=data["name"],
        )
        if issued is None:
            for limit, key in limits[2:]:
                limit.record(key)
            raise InvalidCredentials()
        token, secret = issued
        token.token = secret
        return Response(NewApiTokenSerializer(token).data, status=status.HTTP_201_CREATED)
