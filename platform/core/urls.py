from __future__ import annotations

from django.urls import path

from core import vendor, views

app_name = "core"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/live", views.liveness, name="liveness"),
    path("vendor/plotly-<str:version>.min.js", vendor.plotly_js, name="plotly_js"),
]
