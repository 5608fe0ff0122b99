"""A job that starts from pretrained weights gets the fine-tuning recipe: a lower learning rate,
the backbone frozen for a warm-up then learning at a share of the head's rate, label smoothing,
and the normalisation of the weights' manifest; a job from random weights keeps the
from-scratch preset. The recipe is in the job's config, and what it did is in the job's log."""

from __future__ import annotations

import json
import os
import tempfile
from unittest import mock

import numpy as np

from framework.vision.models import save_pretrained
from framework.vision.models.weight_store import manifest_path
from modelzoo.catalog import get_architecture, head_keys
from tests.platform_tests.training_tests.base import TrainingTestCase, log_of
from workers.runtime import build, fine_tune


class FineTuningRecipeTests(TrainingTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.store = tempfile.mkdtemp(prefix="sampan-store-")
        self.enterContext(mock.patch.dict(os.environ, {"FRAMEWORK_HOME": self.store}))
        self.shipped = get_architecture("mlp").build(1000)  # an "ImageNet" MLP
        path = save_pretrained(self.shipped, "mlp")
        manifest = json.loads(manifest_path("mlp").read_text())
        manifest["preprocessing"] = {"mean": [0.25], "std": [0.75]}  # what it was trained with
        manifest_path("mlp").write_text(json.dumps(manifest))
        self.assertTrue(path.is_file())

    def test_a_pretrained_start_gets_the_recipe_and_a_scratch_start_does_not(self) -> None:
        tuned = self.make_job(init="shipped", preset="balanced", overrides={"batch_size": 16})
        scratch = self.make_job(preset="balanced", overrides={"batch_size": 16})
        self.assertEqual(tuned.config["freeze_epochs"], 1)
        self.assertEqual(tuned.config["backbone_lr_scale"], 0.1)
        self.assertEqual(tuned.config["label_smoothing"], 0.1)
        self.assertAlmostEqual(tuned.config["learning_rate"], scratch.config["learning_rate"] / 10)
        self.assertEqual(tuned.config["normalize"], {"mean": [0.25], "std": [0.75]})
        self.assertEqual(scratch.config["freeze_epochs"], 0)
        self.assertEqual(scratch.config["backbone_lr_scale"], 1.0)
        self.assertEqual(scratch.config["label_smoothing"], 0.0)
        self.assertEqual(scratch.config["normalize"], {"mean": [0.5], "std": [0.5]})

    def test_continuing_from_a_finished_job_fine_tunes_with_its_normalisation(self) -> None:
        first = self.run_now(
            self.make_job(init="shipped", overrides={"epochs": 2, "batch_size": 16})
        )
        self.assertEqual(first.output_weights.report["normalize"], {"mean": [0.25], "std": [0.75]})
        second = self.make_job(init="saved", weights=first.output_weights)
        self.assertEqual(second.config["normalize"], {"mean": [0.25], "std": [0.75]})
        self.assertEqual(second.config["freeze_epochs"], 1)

    def test_the_backbone_learns_nothing_while_frozen_then_learns_slower(self) -> None:
        job = self.make_job(
            init="shipped",
            preset="balanced",
            overrides={"epochs": 3, "batch_size": 16, "freeze_epochs": 1},
        )
        snapshots: list[dict[str, np.ndarray]] = []
        real_epoch_end = fine_tune.BackboneWarmup.on_epoch_end

        def remember(callback: fine_tune.BackboneWarmup, epoch: int, logs: dict | None = None):  # noqa: ANN202
            state = callback.model.network.state_dict()
            snapshots.append({k: v.numpy().copy() for k, v in state.items()})
            return real_epoch_end(callback, epoch, logs)

        with mock.patch.object(fine_tune.BackboneWarmup, "on_epoch_end", remember):
            job = self.run_now(job)
        self.assertEqual(job.status, "succeeded", job.error)
        head = head_keys("mlp")
        start = {k: v.numpy() for k, v in self.shipped.state_dict().items()}
        backbone = [k for k in start if k not in head]
        for key in backbone:  # epoch 1: frozen, exactly the shipped values
            np.testing.assert_array_equal(snapshots[0][key], start[key], err_msg=key)
        for key in head:  # the new head learned from the first epoch on
            self.assertFalse(np.allclose(snapshots[0][key], snapshots[1][key]), key)
        moved = [k for k in backbone if not np.array_equal(snapshots[1][k], snapshots[0][k])]
        self.assertEqual(sorted(moved), sorted(backbone))  # epoch 2: unfrozen, everything moves
        log = log_of(job)
        self.assertIn("The backbone is frozen for the first 1 epoch", log)
        self.assertIn("The backbone is unfrozen", log)

    def test_the_backbone_group_learns_at_its_share_of_the_rate(self) -> None:
        network = get_architecture("mlp").build(10)
        config = {
            "learning_rate": 0.01,
            "schedule": "constant",
            "epochs": 1,
            "optimizer": "momentum",
            "backbone_lr_scale": 0.1,
        }
        optimizer = build.build_optimizer(config, network, steps_per_epoch=1, arch_key="mlp")
        groups = optimizer._param_groups
        self.assertEqual([g.get("learning_rate", 1.0) for g in groups], [0.1, 1.0])
        head_ids = {id(p) for p in groups[1]["params"]}
        head_names = {n for n, p in network.named_parameters() if id(p) in head_ids}
        self.assertEqual(head_names, set(head_keys("mlp")))

    def test_the_job_page_lists_the_recipe(self) -> None:
        job = self.make_job(init="shipped", preset="balanced", overrides={"batch_size": 16})
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{job.pk}/")
        self.assertContains(page, "Frozen backbone epochs")
        self.assertContains(page, "Backbone learning rate")
        self.assertContains(page, "Label smoothing")
        self.assertContains(page, "mean 0.250; std 0.750")

    def test_freezing_a_random_backbone_is_refused(self) -> None:
        from django.core.exceptions import ValidationError

        with self.assertRaises(ValidationError) as refused:
            self.make_job(overrides={"freeze_epochs": 1, "epochs": 3})
        self.assertIn("a job from random weights has none to keep", str(refused.exception))
