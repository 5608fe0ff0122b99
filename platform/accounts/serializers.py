from __future__ import annotations

from rest_framework import serializers

from accounts.models import ApiToken, Membership, User, Workspace
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
