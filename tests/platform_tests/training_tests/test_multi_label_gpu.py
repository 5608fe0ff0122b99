"""On a CUDA machine (make gpu-check): a multi-label job trains on the GPU and its report's
mAP is the one its saved model scores on the CPU."""

from __future__ import annotations

import pytest

import framework
from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.multi_label_data import multi_label_version

pytestmark = pytest.mark.gpu


@pytest.mark.skipif(not framework.is_compiled_with_cuda(), reason="needs a CUDA GPU")
class MultiLabelGpuTrainingTests(TrainingTestCase):
    def test_a_multi_label_job_trains_on_the_gpu(self) -> None:
        from sklearn.metrics import average_precision_score

        from modelzoo.services.weights import load_network
        from training.services.version_data import examples
        from workers.runtime.data import ImageDataset, load_split, multi_hot
        from workers.runtime.multi_label import sigmoid

        pairs = multi_label_version(self.workspace, self.alice, count=96)
        job = self.make_job(
            version=pairs, architecture="lenet", overrides={"device": "gpu", "epochs": 3}
        )
        job = self.run_now(job, device="gpu:0")
        self.assertEqual((job.status, job.device), ("succeeded", "gpu:0"), job.error)
        framework.set_device("cpu")
        items = examples(pairs, "val")
        network = load_network(job.output_weights)
        network.eval()
        data = ImageDataset(items, load_split(pairs.pk, "val", items, 1, 28), 1, 28)
        with framework.no_grad():
            scores = sigmoid(network(framework.to_tensor(data.batch(range(len(items))))).numpy())
        expected = average_precision_score(multi_hot(items, 4), scores)
        self.assertAlmostEqual(job.report.mean_average_precision, expected, places=4)
