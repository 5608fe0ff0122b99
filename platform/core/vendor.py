"""Front-end libraries that ship inside Python packages, served from the installed package.

The platform works air-gapped: `plotly.min.js` comes from the `plotly` package that
requirements already pin, not from a CDN, and not from a copy committed to the repository.

It is 4.85 MB, and 1.47 MB gzipped: a browser that accepts gzip gets a copy compressed once
per installation (into VAR_DIR/vendor, shared by every web process), whatever serves the
request, gunicorn in `make run` and compose alike.
"""

from __future__ import annotations

import gzip
import logging
import os
import tempfile
import threading
from functools import cache
from pathlib import Path

import plotly
from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

_compressing = threading.Lock()


@cache
def plotly_js_path() -> Path:
    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def gzipped_copy(source: Path) -> Path | None:
    """``source`` gzipped, made once and kept beside the installation's other data. None when
    it cannot be written (a read-only VAR_DIR): the file is then served as it is."""
    target = Path(settings.VAR_DIR) / "vendor" / f"{source.name}-{plotly.__version__}.gz"
    if target.is_file():
        return target
    with _compressing:
        if target.is_file():
            return target
        partial: str | None = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # Written under another name and renamed: a process never serves half a file.
            fd, partial = tempfile.mkstemp(dir=target.parent, prefix=".partial-")
            with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
                out.write(source.read_bytes())
            os.replace(partial, target)
        except OSError as error:
            logger.warning("Serving %s uncompressed: %s", source.name, error)
            if partial is not None:
                Path(partial).unlink(missing_ok=True)
            return None
    return target


def accepts_gzip(request: HttpRequest) -> bool:
    """True when Accept-Encoding names gzip without ruling it out (``gzip;q=0``)."""
    for coding in request.headers.get("Accept-Encoding", "").split(","):
        name, _, parameters = coding.partition(";")
        if name.strip().lower() != "gzip":
            continue
        weight = parameters.strip().lower().removeprefix("q=").strip() or "1"
        try:
            return float(weight) > 0
        except ValueError:
            return False
    return False


@require_GET
def plotly_js(request: HttpRequest, version: str) -> HttpResponse:
    source = plotly_js_path()
    compressed = gzipped_copy(source) if accepts_gzip(request) else None
    response = FileResponse(open(compressed or source, "rb"), content_type="text/javascript")
    if compressed is not None:
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    # The URL carries the package version, so the file under it never changes.
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
