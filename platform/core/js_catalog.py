"""The page scripts' translations: Django's JavaScriptCatalog (domain ``djangojs``) at /jsi18n/.

Every page loads it, so it has to be cheap to serve again and again. The browser keeps it and
asks each time whether it changed (``Cache-Control: no-cache`` with an ETag), which costs a
304 and no body. The ETag names the language and the state of the compiled catalogs, so the
same URL gives a person who just switched language the other catalog at once, and a deploy
with new translations the new one. A 200 is rendered once per language and catalog state in
each process, then served from memory.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition
from django.views.i18n import JavaScriptCatalog

# (language, catalog version) -> the rendered script; one entry per language in LANGUAGES.
_rendered: dict[tuple[str, str], bytes] = {}


def catalog_version() -> str:
    """A digest of every compiled djangojs catalog's path, size and modification time."""
    digest = hashlib.sha256()
    for folder in settings.LOCALE_PATHS:
        for path in sorted(Path(folder).glob("*/LC_MESSAGES/djangojs.mo")):
            stat = path.stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]


def catalog_etag(request: HttpRequest) -> str:
    return f"{get_language()}-{catalog_version()}"


@cache_control(no_cache=True)
@condition(etag_func=catalog_etag)
def javascript_catalog(request: HttpRequest) -> HttpResponse:
    key = (get_language(), catalog_version())
    body = _rendered.get(key)
    if body is None:
        body = JavaScriptCatalog.as_view()(request).content
        if len(_rendered) > 4 * len(settings.LANGUAGES):
            _rendered.clear()  # versions of catalogs that were replaced since
        _rendered[key] = body
    response = HttpResponse(body, content_type='text/javascript; charset="utf-8"')
    # The language comes from the language cookie as well as from Accept-Language.
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
