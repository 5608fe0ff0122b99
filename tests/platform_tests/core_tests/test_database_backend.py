"""The suite runs on the database its run asked for: PostgreSQL under the postgres plugin
(make test's second run), SQLite otherwise, so a "PostgreSQL run" cannot quietly be SQLite."""

from __future__ import annotations

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_it_runs_on_the_database_the_run_asked_for() -> None:
    url = os.environ.get("DATABASE_URL", "")
    on_postgres = os.environ.get("SAMPAN_TEST_POSTGRES") == "1" or url.startswith("postgres")
    wanted = "postgresql" if on_postgres else "sqlite"
    assert connection.vendor == wanted
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
