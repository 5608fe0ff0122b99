"""Celery tasks, one module per family. Each task has an explicit ``name=`` whose family has a
queue in ``workers.celery.TASK_ROUTES``, takes ids and JSON only, and writes its results to
the database."""
