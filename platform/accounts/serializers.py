from __future__ import annotations

from rest_framework import serializers

from accounts.models import ApiToken, Invitation, Membership, User, Workspace
from core.scoping import role_in


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "email")
        read_only_fields = fields


class WorkspaceSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role in this workspace.")

    class Meta:
        model = Workspace
        fields = ("slug", "name", "created_at", "role")
        read_only_fields = ("slug", "created_at", "role")

    def get_role(self, workspace: Workspace) -> str | None:
        role = role_in(workspace, self.context["request"].user)
        return None if role is None else role.value


class MembershipSerializer(serializers.ModelSerializer):
    user = UserSerializer(read_only=True)

    class Meta:
        model = Membership
        fields = ("id", "user", "role", "created_at")
        read_only_fields = ("id", "user", "created_at")


class AddMemberSerializer(serializers.Serializer):
    user = serializers.CharField(help_text="Username or email of an existing account.")
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)


class InviteSerializer(serializers.Serializer):
    addressed_to = serializers.CharField(
        max_length=254, help_text="Username or email of the person to invite."
    )
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)


class InvitationSerializer(serializers.ModelSerializer):
    """An invitation as the workspace's admins see it: to whom, as what, and until when."""

    invited_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Invitation
        fields = ("id", "addressed_to", "role", "status", "invited_by", "created_at", "expires_at")
        read_only_fields = fields


class InvitationWorkspaceSerializer(serializers.ModelSerializer):
    class Meta:
        model = Workspace
        fields = ("slug", "name")
        read_only_fields = fields


class MyInvitationSerializer(serializers.ModelSerializer):
    """An invitation as its invitee sees it, before joining."""

    workspace = InvitationWorkspaceSerializer(read_only=True)
    invited_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Invitation
        fields = ("id", "workspace", "role", "invited_by", "created_at", "expires_at")
        read_only_fields = fields


class ApiTokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created_at", "last_used_at", "revoked_at")
        read_only_fields = ("id", "prefix", "created_at", "last_used_at", "revoked_at")


class NewApiTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(read_only=True, help_text="The secret. Shown only this once.")

    class Meta(ApiTokenSerializer.Meta):
        fields = (*ApiTokenSerializer.Meta.fields, "token")
        read_only_fields = (*ApiTokenSerializer.Meta.read_only_fields, "token")


class PasswordTokenSerializer(serializers.Serializer):
    """What a script without a token yet sends for its first one."""

    username = serializers.CharField(max_length=254, help_text="Username or email.")
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, write_only=True, style={"input_type": "password"}
    )
    workspace = serializers.SlugField(
        max_length=110, help_text="Slug of a workspace you are a member of."
    )
    name = serializers.CharField(
        max_length=100, help_text="A label to recognise the token by, e.g. `CI upload script`."
    )
