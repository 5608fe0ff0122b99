"""Claiming the next unlabeled sample: two labelers never hold the same one."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Membership, User, Workspace
from datastore.models import Dataset, Sample
from labeling.claims import CLAIM_TTL, claim_next
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


def make_samples(dataset: Dataset, count: int) -> list[Sample]:
    return Sample.objects.bulk_create(
        Sample(
            dataset=dataset,
            file=f"f{i}.png",
            thumbnail=f"t{i}.jpg",
            original_name=f"{i}.png",
            content_hash=f"{i:064d}",
            perceptual_hash="0" * 32,
            width=8,
            height=8,
            size_bytes=1,
        )
        for i in range(count)
    )


class ClaimTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.samples = make_samples(self.dataset, 5)
        self.url = f"/api/datasets/{self.dataset.pk}/claim/"

    def claim(self, user: User, after: int = 0) -> int | None:
        response = self.api_client_for(user).post(self.url, {"after": after}, format="json")
        return None if response.status_code == 204 else response.json()["id"]

    def test_two_labelers_get_different_samples(self) -> None:
        first, second = self.claim(self.alice), self.claim(self.bob)
        self.assertEqual(first, self.samples[0].pk)
        self.assertEqual(second, self.samples[1].pk)

    def test_a_labeler_holds_one_claim_and_moves_on_with_after(self) -> None:
        first = self.claim(self.bob)
        second = self.claim(self.bob, after=first)
        self.assertEqual(second, self.samples[1].pk)
        held = Sample.objects.filter(claimed_by=self.bob).values_list("pk", flat=True)
        self.assertEqual(list(held), [second])
        self.assertEqual(self.claim(self.alice), first)  # released, so it is free again

    def test_it_wraps_around_and_says_when_nothing_is_left(self) -> None:
        Sample.objects.exclude(pk=self.samples[0].pk).update(labeled=True)
        self.assertEqual(self.claim(self.bob, after=self.samples[3].pk), self.samples[0].pk)
        self.assertIsNone(self.claim(self.alice))

    def test_a_stale_claim_is_up_for_grabs(self) -> None:
        long_ago = timezone.now() - CLAIM_TTL - timedelta(seconds=1)
        Sample.objects.update(claimed_by=self.alice, claimed_at=long_ago)
        Sample.objects.filter(pk=self.samples[0].pk).update(claimed_at=timezone.now())
        self.assertEqual(self.claim(self.bob), self.samples[1].pk)

    def test_saving_labels_releases_the_claim(self) -> None:
        claimed = self.claim(self.bob)
        label = self.dataset.ensure_classes(["x"])["x"]
        body = {"revision": 0, "class_ids": [label.pk]}
        self.api_client_for(self.bob).put(f"/api/samples/{claimed}/labels/", body, format="json")
        self.assertFalse(Sample.objects.filter(claimed_by__isnull=False).exists())
        self.assertEqual(self.claim(self.alice), self.samples[1].pk)


@pytest.mark.django_db(transaction=True)
def test_concurrent_labelers_never_share_a_sample() -> None:
    workspace = Workspace.objects.create(name="Race", slug="race")
    dataset = Dataset.objects.create(workspace=workspace, name="d", task_type="classification")
    make_samples(dataset, 30)
    users = [User.objects.create(username=f"labeler{i}") for i in range(12)]
    for user in users:
        workspace.add_member(user, Membership.Role.MEMBER)
    barrier = threading.Barrier(len(users))
    claimed: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def labeler(user: User) -> None:
        try:
            barrier.wait()
            got = []
            for _ in range(2):  # each claims, then moves on to another
                sample = claim_next(dataset, user, after=got[-1] if got else 0)
                got.append(sample.pk)
            claimed[user.username] = got
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=labeler, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    held = [claims[-1] for claims in claimed.values()]
    assert len(set(held)) == len(users), held
    rows = dict(
        Sample.objects.filter(claimed_by__isnull=False).values_list("pk", "claimed_by__username")
    )
    assert rows == {claims[-1]: name for name, claims in claimed.items()}
