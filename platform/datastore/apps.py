from __future__ import annotations

from django.apps import AppConfig


class DatastoreConfig(AppConfig):
    name = "datastore"
    verbose_name = "Datasets"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The messages imports store (core.stored_messages), declared so that every process
        # that shows an import report can translate them.
        from datastore.importing import format_messages, messages  # noqa: F401
