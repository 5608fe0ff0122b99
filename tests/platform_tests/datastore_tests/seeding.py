"""Set-up for the browser tests of datasets and labeling: people, a workspace, imported
images, and a signed-in browser page.

Not a test module. The browser tests create rows for real (a live server runs in another
thread) and import eagerly, in the test's own process, unless they start a real worker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.test import Client

from accounts.models import Membership, User, Workspace
from datastore.models import Dataset, ImportJob
from datastore.services.imports import import_local_files
from tests.platform_tests.datastore_tests import sample_images


def team() -> tuple[User, Workspace]:
    user = User.objects.create_user(username="lena", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Lena's lab", slug="lenas-lab")
    workspace.add_member(user, Membership.Role.OWNER)
    return user, workspace


def sign_in(page: Any, user: User, base_url: str) -> None:
    """Gives the browser the session cookie of a signed-in `user`."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": base_url}])


def import_now(dataset: Dataset, user: User, folder: Path, fmt: str = "") -> ImportJob:
    """Uploads every file of `folder` and imports it here, as the worker would."""
    job = import_local_files(dataset, user, sample_images.uploads_of(folder), fmt)
    assert job.status == ImportJob.Status.SUCCEEDED, job.error
    return job
