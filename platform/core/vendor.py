"""Front-end libraries that ship inside Python packages, served from the installed package.

The platform works air-gapped: `plotly.min.js` comes from the `plotly` package that
requirements already pin, not from a CDN, and not from a copy committed to the repository.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import plotly
from django.http import FileResponse, HttpRequest
from django.views.decorators.http import require_GET


@cache
def plotly_js_path() -> Path:
    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


@require_GET
def plotly_js(request: HttpRequest, version: str) -> FileResponse:
    response = FileResponse(open(plotly_js_path(), "rb"), content_type="text/javascript")
    # The URL carries the package version, so the file under it never changes.
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
