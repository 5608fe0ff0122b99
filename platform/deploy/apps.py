from __future__ import annotations

from django.apps import AppConfig


class DeployConfig(AppConfig):
    name = "deploy"
    verbose_name = "Deploy"
