"""Weights files built to exhaust memory are refused with their reason, by the worker's child
process, and cost the process that received them nothing (the probe: an 89-byte .pdparams
made the web process allocate 2.8 GiB; a 1.4 MB .pth expanded to 1.5 GB)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.files.uploadedfile import UploadedFile
from django.test import override_settings

from modelzoo.models import Weights, WeightsImport
from modelzoo.services.weights import import_now
from tests.framework_tests.interop_tests import hostile
from tests.platform_tests.modelzoo_tests.base import ZooTestCase

MIB = 2**20


def peak_rss_kib() -> int:
    """This process's high-water mark of resident memory (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/self/status")


class HostileWeightsTests(ZooTestCase):
    def refused(self, path: Path, architecture: str = "lenet") -> str:
        before = peak_rss_kib()
        with open(path, "rb") as stream:  # streamed, as Django hands over a large upload
            upload = UploadedFile(stream, name=path.name, size=path.stat().st_size)
            job = import_now(
                workspace=self.workspace, user=self.bob, architecture=architecture, upload=upload
            )
        grown_mib = (peak_rss_kib() - before) / 1024
        self.assertEqual(job.status, WeightsImport.Status.FAILED)
        self.assertLess(grown_mib, 50, "the receiving process must not load the file")
        self.assertFalse(Weights.objects.exists())
        self.assertEqual(job.incoming, "")  # the upload is deleted
        return job.error

    def test_a_tiny_pdparams_claiming_gigabytes_is_refused(self) -> None:
        path = hostile.bytearray_pdparams(self.files)
        self.assertLess(path.stat().st_size, 100)
        error = self.refused(path)
        self.assertIn("“weights.pdparams” was not imported", error)
        self.assertIn("Refusing to load 'weights.pdparams': it asks for 4.0 GiB", error)
        self.assertIn("bytearray", error)

    def test_a_deflated_torch_storage_that_expands_past_the_budget_is_refused(self) -> None:
        path = hostile.deflated_zeros_pth(self.files, mib=256)
        self.assertLess(path.stat().st_size, 2 * MIB)
        error = self.refused(path)
        self.assertIn("Refusing to load 'weights.pth'", error)

    @override_settings(WEIGHTS_IMPORT_MEMORY_BYTES=400 * MIB)
    def test_work_past_the_memory_ceiling_fails_with_that_reason(self) -> None:
        # Within the unpicklers' budget (a quarter of the ceiling), but the conversion's copies
        # of 80 MB of real tensors pass the 400 MiB ceiling.
        path = zeros_safetensors(self.files / "big.safetensors", "fc.2.weight", 20_000_000)
        error = self.refused(path)
        self.assertIn("WEIGHTS_IMPORT_MEMORY_BYTES", error)


def zeros_safetensors(path: Path, name: str, count: int) -> Path:
    """A safetensors file of ``count`` float32 zeros, written without holding them in memory."""
    header = json.dumps({name: {"dtype": "F32", "shape": [count], "data_offsets": [0, 4 * count]}})
    with open(path, "wb") as out:
        out.write(len(header).to_bytes(8, "little") + header.encode())
        for start in range(0, 4 * count, MIB):
            out.write(bytes(min(MIB, 4 * count - start)))
    return path
