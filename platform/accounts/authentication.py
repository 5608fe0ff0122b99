"""API token authentication: ``Authorization: Bearer spn_...``.

A verified token is remembered by its web process for `API_TOKEN_CACHE_SECONDS` (1 s by
default; 0 turns it off, see `core.recent`), so a burst of requests from one script checks it
once. Revoking a token or changing a membership in this process forgets at once (signals, see
`accounts.apps`); another process may accept a revoked token for up to that second.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.models import ApiToken
from core import throttling
from core.recent import Recent

# token digest -> (user, token), both as they were verified
verified_tokens: Recent[tuple[Any, ApiToken]] = Recent(
    lambda: getattr(settings, "API_TOKEN_CACHE_SECONDS", 1.0)
)


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
        digest = ApiToken.digest_of(header[1])
        remembered = verified_tokens.get(digest)
        if remembered is not None:
            remembered[1].touch()
            return remembered
        # Tokens are 256 random bits, so this is about load, not guessing: a client sending
        # token after wrong token is told to wait, before the next one is even looked up.
        address = throttling.client_address(request)
        wait = throttling.TOKEN_FAILURES_PER_ADDRESS.retry_after(address)
        if wait is not None:
            raise exceptions.Throttled(wait, "Too many invalid tokens from this address.")
        token = ApiToken.find_active(header[1])
        if token is None:
            throttling.TOKEN_FAILURES_PER_ADDRESS.record(address)
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        user = token.user
        if not user.is_active or token.member_role is None:
            raise exceptions.AuthenticationFailed("The token's user no longer has access.")
        token.touch()
        user.api_token = token
        verified_tokens.put(digest, (user, token))
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
