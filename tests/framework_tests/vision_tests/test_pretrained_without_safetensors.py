"""`pretrained=True` in the NumPy-only framework wheel: with the `safetensors` package not
importable, the weight store writes and reads through the framework's own reader, to the same
bytes (and so the same sha256) as the package writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from framework.vision import models
from framework.vision.models.weight_store import weights_path

REPO = Path(__file__).resolve().parents[3]
_WITHOUT_SAFETENSORS = (
    "import sys\n"
    "sys.modules['safetensors'] = sys.modules['safetensors.numpy'] = None  # not installed\n"
    "import numpy as np\n"
    "from framework.vision import models\n"
    "import framework\n"
    "framework.seed(1)\n"
    "written = models.MobileNetV2(scale=0.35, num_classes=7)\n"
    "models.save_pretrained(written, 'mobilenetv2_0.35')\n"
    "loaded = models.mobilenet_v2(pretrained=True, scale=0.35, num_classes=7)\n"
    "for key, value in written.state_dict().items():\n"
    "    np.testing.assert_array_equal(loaded.state_dict()[key].numpy(), value.numpy())\n"
    "assert 'safetensors' not in {m.split('.')[0] for m, v in sys.modules.items() if v}\n"
    "print('loaded', len(written.state_dict()))\n"
)


def test_pretrained_true_works_without_the_safetensors_package(tmp_path, monkeypatch):
    env = {**os.environ, "FRAMEWORK_HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_SAFETENSORS],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("loaded ")
    # The file the NumPy writer made is what the safetensors package reads, tensor for tensor.
    monkeypatch.setenv("FRAMEWORK_HOME", str(tmp_path))
    path = weights_path("mobilenetv2_0.35")
    without = path.read_bytes()
    network = models.mobilenet_v2(pretrained=True, scale=0.35, num_classes=7)
    models.save_pretrained(network, "mobilenetv2_0.35")  # now with the package
    assert path.read_bytes() == without
    assert all(np.isfinite(v.numpy()).all() for v in network.state_dict().values())
