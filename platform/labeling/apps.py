from __future__ import annotations

from django.apps import AppConfig


class LabelingConfig(AppConfig):
    name = "labeling"
    verbose_name = "Labeling"

    def ready(self) -> None:
        # The messages pre-labeling stores (core.stored_messages), declared so that every
        # process that shows a pre-labeling job can translate them.
        from labeling import messages  # noqa: F401
