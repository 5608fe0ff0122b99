"""The job form proposes a model that fits the dataset: a pretrained network at its own input
size for colour photos (never LeNet at 28×28), the small networks for grey digits; and it
fills in the fine-tuning recipe when the start is pretrained."""

from __future__ import annotations

import json
import os
from unittest import mock

from datastore.models import Dataset, DatasetVersion
from datastore.services.versions import freeze_version
from tests.framework_tests.vision_tests.shipped_store import process_store
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from training.models import TrainingJob
from training.services.suggestion import suggest


class JobFormProposalTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.enterContext(mock.patch.dict(os.environ, {"FRAMEWORK_HOME": process_store()}))

    def photo_version(self) -> DatasetVersion:
        dataset = self.make_dataset(name="Kitchen and cats")
        folder = self.folder("photos")
        for label, names in (("cat", ("chelsea", "astronaut")), ("cup", ("coffee", "rocket"))):
            for copy in range(3):  # each photo a few times, shifted, so the split has some
                for name in names:
                    image = sample_images.photo(name).rotate(copy * 5)
                    sample_images.save(image, folder / label / f"{name}-{copy}.jpg")
        self.import_folder(dataset, folder)
        return freeze_version(dataset, user=self.alice, method="stratified")

    def digit_version(self) -> DatasetVersion:
        dataset = self.make_dataset(name="Digits")
        self.import_digits(dataset, labels=(0, 1, 2), per_class=6)
        return freeze_version(dataset, user=self.alice, method="stratified")

    def test_colour_photos_get_a_pretrained_network_at_its_own_size(self) -> None:
        proposal = suggest(self.photo_version())
        self.assertEqual(proposal.architecture, "mobilenet_v2")
        self.assertEqual(proposal.weights, "shipped:mobilenet_v2")
        self.assertEqual(proposal.input_size, 224)
        self.assertIn(
            "Colour photos: MobileNetV2 pretrained on ImageNet, 71.878% top-1", proposal.reason
        )

    def test_grey_digits_keep_the_small_networks(self) -> None:
        proposal = suggest(self.digit_version())
        self.assertEqual((proposal.architecture, proposal.weights), ("lenet", "scratch"))
        self.assertEqual(proposal.input_size, 28)
        self.assertIn("Small grey images", proposal.reason)

    def test_without_installed_weights_photos_get_a_light_network_and_the_reason(self) -> None:
        version = self.photo_version()
        with mock.patch.dict(os.environ, {"FRAMEWORK_HOME": str(self.folder("empty-store"))}):
            proposal = suggest(version)
        self.assertEqual(
            (proposal.architecture, proposal.weights), ("mobilenet_v3_small", "scratch")
        )
        self.assertIn("make weights", proposal.reason)

    def test_the_form_opens_on_the_proposal_with_the_recipe_filled_in(self) -> None:
        version = self.photo_version()
        self.client.force_login(self.bob)
        page = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/new/?version={version.pk}")
        self.assertEqual(page.status_code, 200)
        form = page.context["form"]
        self.assertEqual(form.initial["architecture"], "mobilenet_v2")
        self.assertEqual(form.initial["weights"], "shipped:mobilenet_v2")
        self.assertEqual(form.initial["input_size"], 224)
        self.assertEqual(form.initial["freeze_epochs"], 1)
        self.assertEqual(form.initial["backbone_lr_scale"], 0.1)
        data = json.loads(json.dumps(page.context["form_data"]))  # as the page's script reads it
        self.assertEqual(data["suggestions"][str(version.pk)]["architecture"], "mobilenet_v2")
        tuned = data["fine_tune_presets"]["mobilenet_v2"]["balanced"]
        scratch = data["presets"]["mobilenet_v2"]["balanced"]
        self.assertAlmostEqual(tuned["learning_rate"], scratch["learning_rate"] / 5)
        self.assertEqual((tuned["label_smoothing"], tuned["freeze_epochs"]), (0.1, 1))
        self.assertContains(page, 'id="fine-tune-settings"')

    def test_a_job_from_the_form_records_the_recipe(self) -> None:
        version = self.photo_version()
        self.client.force_login(self.bob)
        url = f"/workspaces/{self.workspace.slug}/jobs/new/"
        post = {
            "dataset_version": version.pk,
            "architecture": "mobilenet_v2",
            "weights": "shipped:mobilenet_v2",
            "preset": "quick",
            "optimizer": "momentum",
            "schedule": "cosine",
            "device": "cpu",
            "batch_size": "4",
        }
        with mock.patch("training.services.jobs.enqueue"):
            response = self.client.post(url, post)
        self.assertEqual(response.status_code, 302, response.content[:2000])
        job = TrainingJob.objects.get(dataset_version=version)
        self.assertEqual(job.init, "shipped")
        self.assertEqual(job.config["backbone_lr_scale"], 0.1)
        self.assertEqual(job.config["freeze_epochs"], 1)
        manifest_mean = [0.485, 0.456, 0.406]
        self.assertEqual([round(v, 3) for v in job.config["normalize"]["mean"]], manifest_mean)
        self.assertEqual(job.task, Dataset.TaskType.CLASSIFICATION)
