from __future__ import annotations

from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "training"
    verbose_name = "Training"

    def ready(self) -> None:
        # The messages training workers store (core.stored_messages) are declared on import,
        # so every process that shows a job's failure or log can translate them.
        from training import worker_messages  # noqa: F401
