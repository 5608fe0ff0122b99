"""What /metrics reports: requests by view, method and status; jobs by kind and status, counted
in the database; and the depth of each Celery queue, read from Redis."""

from __future__ import annotations

import time

import pytest
import redis

from core import localstack
from core.testing import BaseTestCase
from datastore.models import Dataset, ImportJob, UploadSession
from tests.platform_tests.core_tests.metrics_text import value

JOB_KINDS = {
    "dataset_import",
    "label_export",
    "training",
    "model_export",
    "weights_import",
    "evaluation",
}


def scrape(client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200
    return response.content.decode()


class RequestMetricsTests(BaseTestCase):
    def test_it_counts_requests_by_view_method_and_status(self) -> None:
        labels = {"view": "accounts:login", "method": "GET", "status": "200"}
        before = value(scrape(self.client), "sampan_http_requests_total", **labels) or 0
        for _ in range(3):
            self.client.get("/login/")
        text = scrape(self.client)
        self.assertEqual(value(text, "sampan_http_requests_total", **labels), before + 3)
        count = value(text, "sampan_http_request_duration_seconds_count", **labels)
        self.assertGreaterEqual(count, 3)
        self.assertEqual(
            value(text, "sampan_http_request_duration_seconds_bucket", le="+Inf", **labels),
            count,
        )

    def test_ids_in_paths_never_become_labels(self) -> None:
        self.client.force_login(self.alice)
        self.client.get(f"/workspaces/{self.workspace.slug}/")
        self.client.get("/nothing/here/12345/")
        text = scrape(self.client)
        labels = {"view": "accounts:workspace_detail", "method": "GET", "status": "200"}
        self.assertGreaterEqual(value(text, "sampan_http_requests_total", **labels), 1)
        unmatched = {"view": "unmatched", "method": "GET", "status": "404"}
        self.assertGreaterEqual(value(text, "sampan_http_requests_total", **unmatched), 1)
        self.assertNotIn(self.workspace.slug, text)
        self.assertNotIn("12345", text)

    def test_an_unknown_method_is_one_label(self) -> None:
        self.client.generic("BREW", "/login/")
        text = scrape(self.client)
        self.assertGreaterEqual(
            value(
                text,
                "sampan_http_requests_total",
                view="accounts:login",
                method="other",
                status="405",
            ),
            1,
        )


class JobMetricsTests(BaseTestCase):
    def test_it_counts_jobs_by_kind_and_status(self) -> None:
        dataset = Dataset.objects.create(
            workspace=self.workspace, name="Parts", task_type=Dataset.TaskType.CLASSIFICATION
        )
        upload = UploadSession.objects.create(dataset=dataset)
        statuses = ["queued", "queued", "running", "failed", "failed", "failed", "succeeded"]
        for status in statuses:
            ImportJob.objects.create(dataset=dataset, upload=upload, status=status)
        text = scrape(self.client)
        for status in ("queued", "running", "failed", "succeeded"):
            self.assertEqual(
                value(text, "sampan_jobs", kind="dataset_import", status=status),
                statuses.count(status),
                status,
            )
        # Every kind reports every status, zeros included, so a graph starts at 0.
        for kind in JOB_KINDS - {"dataset_import"}:
            self.assertEqual(value(text, "sampan_jobs", kind=kind, status="failed"), 0, kind)
        self.assertEqual(value(text, "sampan_jobs", kind="training", status="cancelled"), 0)


@pytest.mark.integration
@pytest.mark.django_db
def test_it_reads_the_depth_of_each_queue_from_redis(client, redis_server) -> None:
    broker = redis.Redis.from_url(redis_server.url)
    broker.lpush("gpu", "a", "b", "c")
    broker.lpush("default", "d")
    broker.lpush("default\x06\x169", "urgent")  # kombu's list for priority 9 of `default`
    text = scrape(client)
    assert value(text, "sampan_queue_depth", queue="gpu") == 3
    assert value(text, "sampan_queue_depth", queue="default") == 2
    assert value(text, "sampan_redis_up") == 1


@pytest.mark.django_db
def test_it_still_answers_quickly_when_redis_is_down(client, settings) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{localstack.free_port()}/0"
    started = time.monotonic()
    text = scrape(client)
    assert time.monotonic() - started < 2
    assert value(text, "sampan_redis_up") == 0
    assert value(text, "sampan_queue_depth", queue="gpu") is None
    assert value(text, "sampan_jobs", kind="training", status="running") == 0
