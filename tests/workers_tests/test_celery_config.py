"""The Celery app follows the task contract in DESIGN.md."""

from __future__ import annotations

import importlib

from django.conf import settings

from workers.celery import DEFAULT_QUEUE, GPU_QUEUE, TASK_MODULES, TASK_ROUTES, app


def test_it_uses_the_redis_from_settings() -> None:
    assert app.conf.broker_url == settings.REDIS_URL


def test_messages_survive_a_dying_worker() -> None:
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_tasks_never_run_eagerly() -> None:
    assert app.conf.task_always_eager is False


def test_results_go_to_the_database_not_a_backend() -> None:
    assert app.conf.task_ignore_result is True
    assert app.conf.result_backend is None


def test_each_queue_has_its_own_exchange_and_key() -> None:
    queues = {queue.name: queue for queue in app.conf.task_queues}
    assert set(queues) == {GPU_QUEUE, DEFAULT_QUEUE}
    for name, queue in queues.items():
        assert (queue.exchange.name, queue.routing_key) == (name, name)


def test_routes_send_training_and_export_to_gpu() -> None:
    route = app.amqp.router.route
    assert route({}, "training.run_job", (), {})["queue"].name == GPU_QUEUE
    assert route({}, "deploy.export_onnx", (), {})["queue"].name == GPU_QUEUE
    assert route({}, "housekeeping.clear_expired_sessions", (), {})["queue"].name == DEFAULT_QUEUE


def test_every_task_has_an_explicit_name_and_a_route() -> None:
    for module in TASK_MODULES:
        importlib.import_module(module)
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert ours, "no task registered"
    families = {pattern.removesuffix(".*") for pattern in TASK_ROUTES}
    for name, task in ours.items():
        assert not name.startswith("workers."), f"{name} has no explicit name="
        assert name.split(".")[0] in families, f"{name}: add its family to TASK_ROUTES"
        routed = app.amqp.router.route({}, name, (), {})["queue"].name
        declared = type(task).__dict__.get("queue", routed)
        assert declared == routed, f"{name} declares queue {declared}, routes send {routed}"
