from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class DeployConfig(AppConfig):
    name = "deploy"
    verbose_name = "Deploy"

    def ready(self) -> None:
        # The messages exports store (core.stored_messages), declared so that every process
        # that shows an export's failure can translate them.
        from deploy.exporting import messages  # noqa: F401
        from deploy.models import Deployment

        # A change made in this process takes effect on its next prediction (other serving
        # processes see it within DEPLOY_LOOKUP_SECONDS): see deploy.services.recent.
        post_save.connect(_forget_deployment, sender=Deployment, dispatch_uid="deploy-dep-save")
        post_delete.connect(_forget_deployment, sender=Deployment, dispatch_uid="deploy-dep-del")


def _forget_deployment(sender: Any, instance: Any, **kwargs: Any) -> None:
    from deploy.services import recent

    recent.forget_deployment(instance.pk)
