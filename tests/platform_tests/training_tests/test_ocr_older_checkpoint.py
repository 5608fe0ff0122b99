"""A recognizer job whose checkpoint was written before each part kept its best epoch (the
job made before OCR jobs had parts; the checkpoint with the model, the optimizer and a
progress of epoch, step, batch size, early stopping, the best epoch's number and the readings
before, and no kept epochs or best weights, as `RecognitionRun._end_epoch` wrote it) resumes,
finishes, and its report says which epoch's weights it kept and that none before the
checkpoint's could be."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

from django.utils import timezone

from tests.framework_tests.ocr_tests.ocr_images import model_paths
from tests.platform_tests.training_tests.base import TrainingTestCase, WorkerDied, log_of
from tests.platform_tests.training_tests.ocr_data import dot_matrix_version
from training.models import EvaluationReport, TrainingJob
from training.services.scalars import series_arrays
from workers.runtime import ocr_trainer
from workers.runtime.checkpoints import checkpoint_path, load_checkpoint
from workers.runtime.reconciler import reconcile_jobs

SMALL = {"batch_size": 4, "learning_rate": 1e-4, "parts": ["rec"]}
# What an OCR job's config gained with detection fine-tuning; an older job has none of it.
NEWER_FIELDS = ("parts", "det_input_size", "det_batch_size", "det_learning_rate")


def write_older_checkpoint(job_id: int, best_epoch: int) -> dict[str, Any]:
    """The job's checkpoint rewritten as the recognizer's run wrote it before kept epochs:
    the last epoch's weights only, and the best epoch as a number. Its progress."""
    import framework

    checkpoint = load_checkpoint(job_id)
    progress = checkpoint["progress"]
    older = {key: progress[key] for key in ("epoch", "step", "batch_size", "early_stopping")}
    older |= {"best": {"value": 0.5, "epoch": best_epoch}, "before": progress["before"]}
    state = {"model": checkpoint["model"], "optimizer": checkpoint["optimizer"]}
    framework.save(state | {"progress": older}, str(checkpoint_path(job_id)))
    return older


class OlderCheckpointTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.lines = dot_matrix_version(cls.workspace, cls.alice, pages=8)

    def older_job(self, epochs: int) -> TrainingJob:
        job = self.make_job(
            version=self.lines,
            architecture="ppocr_v4_rec",
            init="shipped",
            overrides={**SMALL, "epochs": epochs},
        )
        config = {k: v for k, v in job.config.items() if k not in NEWER_FIELDS}
        TrainingJob.objects.filter(pk=job.pk).update(config=config)
        return TrainingJob.objects.get(pk=job.pk)

    def die_after_checkpoint(self, job: TrainingJob, saves: int) -> None:
        """Runs the job until its worker dies right after the `saves`-th checkpoint."""
        real, written = ocr_trainer.save_checkpoint, []

        def save_then_maybe_die(*args: Any) -> None:
            real(*args)
            written.append(args[0])
            if len(written) == saves:
                raise WorkerDied()

        with (
            mock.patch.object(ocr_trainer, "save_checkpoint", save_then_maybe_die),
            self.assertRaises(WorkerDied),
        ):
            self.run_now(job)

    def resume(self, job: TrainingJob) -> TrainingJob:
        TrainingJob.objects.filter(pk=job.pk).update(
            heartbeat_at=timezone.now() - timedelta(hours=1)
        )
        with mock.patch("training.services.jobs.enqueue"):
            self.assertEqual(reconcile_jobs()["requeued"], 1)
        return self.run_now(TrainingJob.objects.get(pk=job.pk))

    def test_the_older_checkpoint_holds_what_the_recognizer_network_wrote(self) -> None:
        from framework.vision.ocr import RecognitionNetwork

        job = self.older_job(epochs=2)
        self.die_after_checkpoint(job, saves=1)
        older = write_older_checkpoint(job.pk, best_epoch=1)
        checkpoint = load_checkpoint(job.pk)
        self.assertEqual(checkpoint["progress"], older)
        self.assertNotIn("best_model", checkpoint)
        network = RecognitionNetwork.from_onnx(str(model_paths()["rec"]))
        self.assertEqual(set(checkpoint["model"]), set(network.state_dict()))

    def test_it_resumes_keeps_the_best_of_the_epochs_it_has_and_says_so(self) -> None:
        job = self.older_job(epochs=3)
        self.die_after_checkpoint(job, saves=2)
        write_older_checkpoint(job.pk, best_epoch=1)
        job = self.resume(job)
        self.assertEqual((job.status, job.attempt, job.epoch), ("succeeded", 2, 3), job.error)
        log = log_of(job)
        self.assertIn("Resumed from the checkpoint written after epoch 2", log)
        self.assertIn(
            "The checkpoint predates best-epoch keeping: it holds epoch 2's weights only (its "
            "best epoch, 1, was not saved and cannot be kept)",
            log,
        )
        self.assertIn("Kept the best epoch's weights of each part (of epochs 2 on", log)
        text = EvaluationReport.objects.get(job=job).text
        self.assertEqual(text["older_checkpoint"], {"epoch": 2, "best_epoch": 1})
        kept = text["kept"]["rec"]["epoch"]
        self.assertIn(kept, (2, 3))
        # Epoch 2's weights scored again read what epoch 2 read when it was trained.
        accuracy = series_arrays(job.pk, "val/line_accuracy")[2]
        self.assertEqual(accuracy.size, 4)  # the shipped model at step 0, then each epoch
        self.assertAlmostEqual(text["after"]["accuracy"], accuracy[kept])
        self.assertEqual(accuracy[kept], max(accuracy[2:]))
        self.client.force_login(self.bob)
        page = self.client.get(f"/jobs/{job.pk}/report/")
        self.assertContains(page, 'id="kept-older"')
        self.assertContains(page, "it held the weights of epoch 2 only")
        self.assertContains(page, "Its best epoch before that, epoch 1, was not saved")
        api = self.api_client_for(self.bob).get(f"/api/jobs/{job.pk}/report/")
        self.assertEqual(api.status_code, 200, api.content)
        self.assertEqual(api.json()["text"]["older_checkpoint"], {"epoch": 2, "best_epoch": 1})

    def test_an_older_checkpoint_of_the_last_epoch_finishes_with_its_weights_kept(self) -> None:
        job = self.older_job(epochs=2)
        self.die_after_checkpoint(job, saves=2)  # after the last epoch, before the report
        write_older_checkpoint(job.pk, best_epoch=2)
        job = self.resume(job)
        self.assertEqual((job.status, job.epoch), ("succeeded", 2), job.error)
        self.assertEqual(series_arrays(job.pk, "train/loss")[0].size, job.total_steps)
        text = EvaluationReport.objects.get(job=job).text
        self.assertEqual(text["kept"], {"rec": {"epoch": 2}})
        self.assertEqual(text["older_checkpoint"], {"epoch": 2, "best_epoch": 2})
        accuracy = series_arrays(job.pk, "val/line_accuracy")[2]
        self.assertAlmostEqual(text["after"]["accuracy"], accuracy[2])
        self.assertNotIn("was not saved", log_of(job))
        self.client.force_login(self.bob)
        page = self.client.get(f"/jobs/{job.pk}/report/")
        self.assertContains(page, "it held the weights of epoch 2 only")
        self.assertNotContains(page, "Its best epoch before that")
