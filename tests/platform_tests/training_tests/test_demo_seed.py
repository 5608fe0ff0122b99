"""`make run` seeds the demo workspace with the digits and a LeNet trained on them, once."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from datastore.models import Dataset
from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import TrainingJob


class DemoSeedTests(TrainingTestCase):
    per_class = 2  # the class's own version is not used here

    def seed(self) -> str:
        out = StringIO()
        call_command("seed_demo_training", "--per-class", "6", "--epochs", "1", stdout=out)
        return out.getvalue()

    def test_it_seeds_the_digits_and_a_trained_lenet_once(self) -> None:
        call_command("ensure_demo", stdout=StringIO())
        first = self.seed()
        job = TrainingJob.objects.get(name="LeNet on the digits (demo)")
        self.assertEqual((job.status, job.architecture), ("succeeded", "lenet"))
        self.assertEqual(job.output_weights.source, "job")
        self.assertIn("training LeNet on 60 digits", first)
        self.assertEqual(job.dataset_version.dataset.name, "Digits")
        second = self.seed()
        self.assertNotIn("Seeding", second)
        self.assertEqual(TrainingJob.objects.filter(name=job.name).count(), 1)
        self.assertEqual(Dataset.objects.filter(workspace=job.workspace).count(), 1)

    def test_without_a_demo_workspace_it_seeds_nothing(self) -> None:
        self.assertIn("Nothing seeded", self.seed())
