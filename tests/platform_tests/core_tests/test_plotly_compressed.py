"""plotly.min.js (4.85 MB) reaches a browser that accepts gzip as about 1.5 MB, in `make run`
as in the image: the same view serves it in both."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

import plotly
from django.test import TestCase, override_settings

from core.vendor import plotly_js_path

URL = f"/vendor/plotly-{plotly.__version__}.min.js"


def body(response) -> bytes:
    return b"".join(response.streaming_content)


class PlotlyCompressionTests(TestCase):
    def setUp(self) -> None:
        self.var_dir = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.var_dir, True)
        self.override = override_settings(VAR_DIR=self.var_dir)
        self.override.enable()
        self.addCleanup(self.override.disable)

    def test_a_browser_that_accepts_gzip_gets_it_compressed(self) -> None:
        response = self.client.get(URL, HTTP_ACCEPT_ENCODING="gzip, deflate, br, zstd")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response["Content-Encoding"], "gzip")
        self.assertEqual(response["Content-Type"], "text/javascript")
        self.assertIn("Accept-Encoding", response["Vary"])
        compressed = body(response)
        self.assertEqual(int(response["Content-Length"]), len(compressed))
        self.assertLess(len(compressed), 1_700_000)
        self.assertEqual(gzip.decompress(compressed), plotly_js_path().read_bytes())

    def test_it_compresses_once_for_every_process(self) -> None:
        self.client.get(URL, HTTP_ACCEPT_ENCODING="gzip")
        (copy,) = (self.var_dir / "vendor").iterdir()
        made = copy.stat().st_mtime_ns
        self.client.get(URL, HTTP_ACCEPT_ENCODING="gzip")
        self.assertEqual(copy.stat().st_mtime_ns, made)

    def test_others_get_the_file_as_it_is(self) -> None:
        raw = plotly_js_path().read_bytes()
        self.assertGreater(len(raw), 4_500_000)
        for accept in (None, "identity", "br", "gzip;q=0", "deflate, gzip;q=0.0"):
            headers = {} if accept is None else {"HTTP_ACCEPT_ENCODING": accept}
            response = self.client.get(URL, **headers)
            self.assertNotIn("Content-Encoding", response, accept)
            self.assertEqual(body(response), raw, accept)

    def test_a_weighted_gzip_is_still_gzip(self) -> None:
        response = self.client.get(URL, HTTP_ACCEPT_ENCODING="br;q=1.0, gzip;q=0.8")
        self.assertEqual(response["Content-Encoding"], "gzip")

    def test_a_read_only_data_folder_serves_it_uncompressed(self) -> None:
        with override_settings(VAR_DIR=Path("/proc/sampan-cannot-write-here")):
            response = self.client.get(URL, HTTP_ACCEPT_ENCODING="gzip")
        self.assertEqual(response.status_code, 200)
        self.assertNotIn("Content-Encoding", response)
        self.assertEqual(len(body(response)), plotly_js_path().stat().st_size)
