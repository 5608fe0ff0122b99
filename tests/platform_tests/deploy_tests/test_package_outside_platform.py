"""The downloaded package, unpacked into a fresh virtualenv that holds only NumPy, Pillow and
the framework wheel: its predict.py gives the platform endpoint's predictions."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tests.framework_tests.inference_tests.package_venv import build_standalone_venv
from tests.platform_tests.deploy_tests.base import (
    DeployTestCase,
    assert_same_answers,
    b64,
    digit_pngs,
    export_now,
)

pytestmark = pytest.mark.slow


class PackageOutsidePlatformTests(DeployTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.scratch = Path(tempfile.mkdtemp(prefix="sampan-outside-"))
        self.addCleanup(shutil.rmtree, self.scratch, ignore_errors=True)

    def test_predict_py_in_a_fresh_venv_matches_the_endpoint(self) -> None:
        venv = build_standalone_venv(self.scratch / "standalone")
        digits = digit_pngs(8)
        client, _ = self.token_client_for(self.bob)
        predict = f"/api/deployments/{self.deployment.pk}/predict"
        payload = {"images": [b64(d) for d in digits]}
        scores = [
            p["score"] for p in client.post(predict, payload, format="json").json()["predictions"]
        ]
        threshold = round(float(np.median(scores)), 4)  # some accepted, some not

        # A package exported with that threshold, served by a deployment that saved it too.
        export = export_now(self.job, "package", self.alice, threshold=threshold)
        self.deployment.export, self.deployment.threshold = export, threshold
        self.deployment.save()
        response = self.api_client_for(self.bob).get(f"/api/model-exports/{export.pk}/download/")
        folder = self.scratch / "digits-package"
        zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))).extractall(folder)
        images = self.scratch / "images"
        images.mkdir()
        for index, data in enumerate(digits):
            (images / f"{index}.png").write_bytes(data)

        ran = venv.run(str(folder / "predict.py"), str(images), cwd=images)
        self.assertEqual(ran.returncode, 0, ran.stderr)
        outside = json.loads(ran.stdout)
        endpoint = client.post(predict, payload, format="json").json()

        self.assertEqual(outside["threshold"], endpoint["threshold"])
        self.assertEqual(outside["model"]["version"], f"v{endpoint['model']['version']}")
        by_name = sorted(outside["predictions"], key=lambda p: int(Path(p["file"]).stem))
        answers = [{k: v for k, v in p.items() if k != "file"} for p in by_name]
        assert_same_answers(answers, endpoint["predictions"])
        accepted = {a["accepted"] for a in answers}
        self.assertEqual(accepted, {True, False})
