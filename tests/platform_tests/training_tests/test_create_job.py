"""Creating a job: presets fill every hyperparameter, every field is checked with a clear
message, and a valid job is saved as queued and sent to the queue."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from datastore.models import Dataset
from modelzoo.models import Weights
from tests.platform_tests.training_tests.base import TrainingTestCase
from training.models import TrainingJob


class CreateJobTests(TrainingTestCase):
    def errors(self, **options) -> dict[str, list[str]]:  # noqa: ANN003
        with self.assertRaises(ValidationError) as caught:
            self.make_job(**options)
        return caught.exception.message_dict

    def test_a_preset_fills_every_hyperparameter_and_the_job_is_queued(self) -> None:
        job = self.make_job(architecture="lenet", preset="balanced", overrides={})
        self.assertEqual(job.status, TrainingJob.Status.QUEUED)
        self.assertEqual(job.config["epochs"], 8)
        self.assertEqual(job.config["schedule"], "cosine")
        train = self.version.stats["per_split"]["train"]  # the preset's 64 fits itself to it
        self.assertEqual((job.batch_size, job.total_epochs), (min(64, train), 8))
        self.assertEqual(job.class_names, [str(d) for d in range(10)])
        self.assertIsNotNone(job.enqueued_at)
        self.enqueued.assert_called_once_with("training.run_job", job.pk)

    def test_advanced_fields_override_the_preset(self) -> None:
        overrides = {"epochs": "4", "learning_rate": "0.01", "augment_flip": "on", "seed": 7}
        job = self.make_job(preset="thorough", overrides=overrides)
        config = job.config
        self.assertEqual((config["epochs"], config["learning_rate"]), (4, 0.01))
        self.assertEqual((config["augment_flip"], config["seed"]), (True, 7))
        self.assertTrue(config["early_stopping"])  # still from the thorough preset

    def test_every_field_is_validated_with_a_clear_message(self) -> None:
        errors = self.errors(
            overrides={
                "epochs": 0,
                "batch_size": "many",
                "learning_rate": -1,
                "optimizer": "lbfgs",
                "augment_crop": "maybe",
                "seed": 1.5,
                "momentum": 0.9,
            }
        )
        self.assertEqual(errors["epochs"], ["Epochs must be from 1 to 1000."])
        self.assertEqual(errors["batch_size"], ["Batch size must be a number, not “many”."])
        self.assertIn("0.001 (Adam)", errors["learning_rate"][0])
        self.assertEqual(
            errors["optimizer"], ["Optimizer must be one of: sgd, momentum, adam, adamw."]
        )
        self.assertEqual(errors["augment_crop"], ["Random crops must be true or false."])
        self.assertEqual(errors["seed"], ["Seed must be a whole number."])
        self.assertIn("is not a hyperparameter", errors["momentum"][0])

    def test_it_checks_the_input_size_against_the_architecture(self) -> None:
        errors = self.errors(architecture="lenet", overrides={"input_size": 32})
        self.assertEqual(errors["input_size"], ["LeNet takes 28×28 images only."])
        errors = self.errors(architecture="resnet18", overrides={"input_size": 16})
        self.assertIn("from 32 to 512", errors["input_size"][0])

    def test_a_batch_larger_than_the_training_split_is_refused(self) -> None:
        train = self.version.stats["per_split"]["train"]
        errors = self.errors(overrides={"batch_size": 500})
        self.assertIn(f"more than the {train} training images", errors["batch_size"][0])

    def test_a_gpu_job_is_refused_when_no_gpu_worker_is_online(self) -> None:
        errors = self.errors(overrides={"device": "gpu"})
        self.assertIn("No worker with a GPU is online", errors["device"][0])

    def test_unknown_architectures_and_presets_are_refused(self) -> None:
        self.assertIn("not in the model zoo", self.errors(architecture="yolo")["architecture"][0])
        self.assertIn("quick, balanced, thorough", self.errors(preset="fast")["preset"][0])

    def test_missing_shipped_weights_are_never_pretended(self) -> None:
        errors = self.errors(architecture="resnet18", init="shipped", overrides={})
        self.assertIn("no shipped weights on this server", errors["weights"][0])

    def test_saved_weights_must_fit_the_architecture(self) -> None:
        weights = Weights.objects.create(
            workspace=self.workspace,
            name="w",
            architecture="lenet",
            source="imported",
            original_format="safetensors",
            file="x.safetensors",
            sha256="0" * 64,
            num_classes=10,
        )
        errors = self.errors(init="saved", weights=weights)
        self.assertEqual(errors["weights"], ["These weights are for LeNet, not MLP."])

    def test_detection_versions_are_refused_with_the_reason(self) -> None:
        self.version.dataset.task_type = Dataset.TaskType.DETECTION
        self.version.dataset.save()
        problems = self.errors()["dataset_version"]  # its labels are classes, not boxes
        self.assertTrue(any("no boxes at all" in p for p in problems), problems)

    def test_a_version_of_another_workspace_is_refused(self) -> None:
        errors = self.errors(workspace=self.charlies_workspace, user=self.charlie)
        self.assertIn("of this workspace", errors["dataset_version"][0])
