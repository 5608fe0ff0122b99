from __future__ import annotations

from django.urls import path

from core import vendor, views

app_name = "core"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/live", views.liveness, name="liveness"),
    # Answered by core.probes before the Host check; here so that it resolves and reverses.
    path("metrics", views.metrics, name="metrics"),
    path("vendor/plotly-<str:version>.min.js", vendor.plotly_js, name="plotly_js"),
]
