"""Celery tasks, one module per family. Each task has an explicit ``name=`` and ``queue=``,
takes ids and JSON only, and writes its results to the database."""
