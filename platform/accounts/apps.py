from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and workspaces"

    def ready(self) -> None:
        from accounts.models import ApiToken, Membership, User

        # Verified tokens are remembered for a moment (accounts.authentication); a change made
        # in this process applies to its next request.
        post_save.connect(_forget_token, sender=ApiToken, dispatch_uid="accounts-token-save")
        post_delete.connect(_forget_token, sender=ApiToken, dispatch_uid="accounts-token-del")
        for model in (Membership, User):  # a role, a removal, a deactivated user
            name = model.__name__.lower()
            post_save.connect(_forget_tokens, sender=model, dispatch_uid=f"accounts-{name}-save")
            post_delete.connect(_forget_tokens, sender=model, dispatch_uid=f"accounts-{name}-del")


def _forget_token(sender: Any, instance: Any, **kwargs: Any) -> None:
    from accounts.authentication import verified_tokens

    verified_tokens.forget(instance.digest)


def _forget_tokens(sender: Any, **kwargs: Any) -> None:
    from accounts.authentication import verified_tokens

    verified_tokens.clear()
