"""Token authentication for the predict endpoint: no query on a recent hit.

The predict endpoint is the platform's hottest path, so a token that
`accounts.authentication.ApiTokenAuthentication` verified in the last second (one query: the
token, its user and their role) is not asked about again (`deploy.services.recent`). The cost:
a revoked token or a removed member keeps access to this endpoint for up to that second.
"""

from __future__ import annotations

from typing import Any

from rest_framework import authentication
from rest_framework.request import Request

from accounts.authentication import ApiTokenAuthentication
from accounts.models import ApiToken
from deploy.services import recent


class RecentTokenAuthentication(ApiTokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if len(header) != 2 or header[0].lower() != self.keyword.lower():
            return super().authenticate(request)  # no token, or a malformed header
        digest = ApiToken.digest_of(header[1])
        verified = recent.tokens.get(digest)
        if verified is None:
            verified = super().authenticate(request)  # raises AuthenticationFailed if refused
            recent.tokens.put(digest, verified)
        else:
            verified[1].touch()
        return verified
