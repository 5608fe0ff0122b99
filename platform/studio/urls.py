"""Root URLs. Each app mounts its pages and, under ``api/``, its API in an ``api`` namespace."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from core import js_catalog

urlpatterns = [
    path("", include("core.urls")),
    path("", include("accounts.urls")),
    path("", include("datastore.urls")),
    path("", include("labeling.urls")),
    path("", include("modelzoo.urls")),
    path("", include("training.urls")),
    path("", include("deploy.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up code as a script file (?script), not inline:
    # the Content-Security-Policy runs no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    # The page scripts' translations (static/js/i18n.js reads them); see core.js_catalog.
    path("jsi18n/", js_catalog.javascript_catalog, name="javascript-catalog"),
    path("admin/", admin.site.urls),
    # set_language: the header's language switcher posts here.
    path("i18n/", include("django.conf.urls.i18n")),
]
