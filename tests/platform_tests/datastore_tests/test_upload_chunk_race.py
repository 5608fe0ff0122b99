"""Two requests writing the same chunk at once: the second gets 409, and the file holds one
request's bytes, never a mix of both (the probe's finding: both got 200, content mixed)."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import Membership, User, Workspace
from datastore.models import Dataset, UploadFile, UploadSession
from datastore.models.upload import UploadRejected

SIZE = 4 * 1024 * 1024


class SlowStream(io.RawIOBase):
    """The bytes of one request body, arriving only as fast as the test lets them."""

    def __init__(self, data: bytes, started: threading.Event, go_on: threading.Event) -> None:
        self.data, self.position = data, 0
        self.started, self.go_on = started, go_on

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.position == 0:
            self.started.set()  # the writer holds the file now
            self.go_on.wait(10)
        chunk = self.data[self.position : self.position + (size if size > 0 else len(self.data))]
        self.position += len(chunk)
        return chunk


@pytest.fixture
def upload_file(settings: Any, tmp_path: Path) -> UploadFile:
    settings.MEDIA_ROOT = tmp_path
    owner = User.objects.create_user("owner", "owner@example.org", "pw")
    workspace = Workspace.objects.create(name="Team", slug="team")
    workspace.add_member(owner, Membership.Role.OWNER)
    dataset = Dataset.objects.create(workspace=workspace, name="Chunks", created_by=owner)
    session = UploadSession.objects.create(dataset=dataset, created_by=owner)
    return session.add_files([("big.bin", SIZE)])[0]


@pytest.mark.django_db(transaction=True)
def test_a_second_writer_of_the_same_chunk_gets_409_and_nothing_mixes(
    upload_file: UploadFile,
) -> None:
    first, second = b"A" * SIZE, b"B" * SIZE
    started, go_on = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def slow_request() -> None:
        try:
            outcome["first"] = UploadFile.objects.get(pk=upload_file.pk).append(
                SlowStream(first, started, go_on), 0
            )
        finally:
            connection.close()  # this thread's own connection

    writer = threading.Thread(target=slow_request)
    writer.start()
    assert started.wait(10)
    client = APIClient()
    client.force_login(User.objects.get(username="owner"))
    url = f"/api/uploads/{upload_file.session_id}/files/{upload_file.pk}/"
    response = client.generic(
        "PUT", url, second, "application/octet-stream", HTTP_UPLOAD_OFFSET="0"
    )
    go_on.set()
    writer.join(10)
    assert response.status_code == 409
    assert "Another request is writing this file" in response.json()["message"]
    assert response.json()["current"]["received"] == 0
    assert outcome["first"] == SIZE
    assert upload_file.local_path().read_bytes() == first
    # Once the first request ended, the file is complete: a late copy of the chunk is refused.
    late = client.generic("PUT", url, second, "application/octet-stream", HTTP_UPLOAD_OFFSET="0")
    assert late.status_code == 409
    assert upload_file.local_path().read_bytes() == first


@pytest.mark.django_db(transaction=True)
def test_the_lock_is_released_when_a_write_fails(upload_file: UploadFile) -> None:
    too_big = io.BytesIO(b"x" * (SIZE + 1))
    with pytest.raises(UploadRejected, match="larger than the declared"):
        upload_file.append(too_big, 0)
    assert upload_file.append(io.BytesIO(b"y" * SIZE), 0) == SIZE
