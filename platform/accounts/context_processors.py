"""What every page needs to know about accounts: whether to offer sign-up."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def signup(request: HttpRequest) -> dict[str, bool]:
    return {"signup_open": settings.SIGNUP_OPEN}
