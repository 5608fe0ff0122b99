"""Token authentication for the predict endpoint: one query, and none on a recent hit.

`accounts.authentication.ApiTokenAuthentication` finds the token (one query), then checks that
its user still belongs to its workspace (a second). The predict endpoint is the platform's
hottest path, so this subclass asks both at once: the live token of an active user who is a
member of the token's workspace; and a token verified in the last second is not asked about
again (`deploy.services.recent`). When the query finds nothing, the parent's checks run, so a
refusal carries the same reason as everywhere else.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from rest_framework import authentication
from rest_framework.request import Request

from accounts.authentication import ApiTokenAuthentication
from accounts.models import ApiToken
from deploy.services import recent


class OneQueryTokenAuthentication(ApiTokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if len(header) != 2 or header[0].lower() != self.keyword.lower():
            return super().authenticate(request)
        if not header[1].startswith(ApiToken.SCHEME):
            return super().authenticate(request)
        digest = ApiToken.digest_of(header[1])
        verified = recent.tokens.get(digest)
        if verified is None:
            token = (
                ApiToken.objects.active()
                .filter(
                    digest=digest,
                    user__is_active=True,
                    workspace__memberships__user_id=F("user_id"),
                )
                .select_related("user", "workspace")
                .first()
            )
            if token is None:
                return super().authenticate(request)  # refused, with the parent's reason
            token.user.api_token = token
            verified = (token.user, token)
            recent.tokens.put(digest, verified)
        verified[1].touch()
        return verified
