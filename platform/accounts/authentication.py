"""API token authentication: ``Authorization: Bearer spn_...``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.models import ApiToken


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """Authenticates a request as the token's user, confined to the token's workspace.

    The token is attached to the user (``user.api_token``) so that ``core.scoping`` limits
    every query made for this request to that one workspace, whatever code makes it.
    """

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0].lower() != self.keyword.lower():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Give exactly one token after 'Bearer'.")
        token = ApiToken.find_active(header[1])
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        user = token.user
        if not user.is_active or token.member_role is None:
            raise exceptions.AuthenticationFailed("The token's user no longer has access.")
        token.touch()
        user.api_token = token
        return user, token

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (with WWW-Authenticate) rather than 403 to anonymous callers.
        return f'{self.keyword} realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Describes the token scheme in the OpenAPI schema."""

    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A workspace API token (spn_...), created on the workspace's "
            "API tokens page.",
        }
