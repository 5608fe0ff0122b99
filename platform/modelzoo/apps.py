from __future__ import annotations

from django.apps import AppConfig


class ModelzooConfig(AppConfig):
    name = "modelzoo"
    verbose_name = "Model zoo"

    def ready(self) -> None:
        # The messages the zoo's background work stores (core.stored_messages), declared so
        # that every process that shows them can translate them.
        from modelzoo import messages  # noqa: F401
