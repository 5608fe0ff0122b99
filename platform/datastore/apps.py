from __future__ import annotations

from django.apps import AppConfig


class DatastoreConfig(AppConfig):
    name = "datastore"
    verbose_name = "Datasets"
    default_auto_field = "django.db.models.BigAutoField"
