"""The predict endpoint over real HTTP (pytest-django's threaded live server): 20 concurrent
clients each get their own images' answers, and switching the deployment to another export
while they call it fails no request."""

from __future__ import annotations

import base64
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from deploy.services import serving, traffic
from deploy.services.serving import package_folder
from framework.inference.packaged_model import PackagedModel
from tests.platform_tests.deploy_tests.base import (
    World,
    assert_same_answers,
    build_world,
    digit_pngs,
    export_now,
)
from tests.platform_tests.training_tests.base import FAST

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
CLIENTS = 20
CALLS = 5


@pytest.fixture
def world(settings: Any, tmp_path) -> Iterator[World]:
    settings.MEDIA_ROOT = tmp_path / "media"
    for name, value in FAST.items():
        setattr(settings, name, value)
    serving.clear_cache()
    traffic.recorder.reset()
    yield build_world(tmp_path / "media")
    serving.clear_cache()


def call(url: str, token: str, images: list[bytes]) -> tuple[int, dict]:
    body = json.dumps({"images": [base64.b64encode(i).decode() for i in images]}).encode()
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def hammer(url: str, token: str, images: list[bytes], results: list, stop: Any = None) -> None:
    """CLIENTS threads, each calling CALLS times (or until `stop` is set) with its own image."""

    def client(index: int) -> None:
        count = 0
        while count < CALLS or (stop is not None and not stop.is_set()):
            image = images[(index + count) % len(images)]
            status, body = call(url, token, [image])
            results.append((index, image, status, body))
            count += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_twenty_concurrent_clients_get_their_own_answers(live_server, world: World) -> None:
    url = f"{live_server.url}/api/deployments/{world.deployment.pk}/predict"
    images = digit_pngs(10)
    model = PackagedModel.load(package_folder(world.export))
    expected = {image: answer for image, answer in zip(images, model.predict(images), strict=True)}
    results: list = []
    hammer(url, world.token, images, results)
    assert len(results) == CLIENTS * CALLS
    for _index, image, status, body in results:
        assert status == 200, body
        assert_same_answers(body["predictions"], [expected[image]])
    totals = traffic.summary(world.deployment, 5)["totals"]
    assert totals["requests"] == CLIENTS * CALLS and totals["errors"] == 0


def test_switching_exports_under_load_fails_no_request(live_server, world: World) -> None:
    url = f"{live_server.url}/api/deployments/{world.deployment.pk}/predict"
    newer = export_now(world.job, "int8_package", world.user)
    images = digit_pngs(4)
    results: list = []
    stop = threading.Event()
    load = threading.Thread(target=hammer, args=(url, world.token, images, results, stop))
    load.start()
    while len(results) < 2 * CLIENTS:
        threading.Event().wait(0.02)
    world.deployment.export = newer
    world.deployment.save(update_fields=["export"])
    switched_at = len(results)
    while len(results) < switched_at + 3 * CLIENTS:
        threading.Event().wait(0.02)
    stop.set()
    load.join()
    assert all(status == 200 for _, _, status, _ in results), [
        body for _, _, status, body in results if status != 200
    ][:3]
    served = [body["model"]["export"] for _, _, _, body in results]
    assert served[0] == world.export.pk and served[-1] == newer.pk
    assert set(served) == {world.export.pk, newer.pk}
