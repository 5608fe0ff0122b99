"""Celery app and tasks: the one place where platform records meet framework training."""
