"""The model-zoo page, and its API under ``api/`` (namespace ``modelzoo:api``)."""

from __future__ import annotations

from django.urls import include, path

from modelzoo import api, views

app_name = "modelzoo"

api_urlpatterns = [
    path("modelzoo/architectures/", api.ArchitectureListView.as_view(), name="architecture-list"),
    path(
        "modelzoo/architectures/<str:key>/",
        api.ArchitectureDetailView.as_view(),
        name="architecture-detail",
    ),
    path(
        "modelzoo/architectures/<str:key>/try/",
        api.ArchitectureTryView.as_view(),
        name="architecture-try",
    ),
    path("modelzoo/ready-models/", api.ReadyModelListView.as_view(), name="ready-model-list"),
    path(
        "modelzoo/ready-models/<str:key>/",
        api.ReadyModelDetailView.as_view(),
        name="ready-model-detail",
    ),
    path(
        "modelzoo/ready-models/<str:key>/try/",
        api.ReadyModelTryView.as_view(),
        name="ready-model-try",
    ),
    path(
        "workspaces/<slug:workspace_slug>/weights/",
        api.WeightsListView.as_view(),
        name="weights-list",
    ),
    path(
        "workspaces/<slug:workspace_slug>/weight-imports/",
        api.WeightsImportListView.as_view(),
        name="weights-import-list",
    ),
    path(
        "weight-imports/<int:pk>/",
        api.WeightsImportDetailView.as_view(),
        name="weights-import-detail",
    ),
    path("weights/<int:pk>/", api.WeightsDetailView.as_view(), name="weights-detail"),
    path("weights/<int:pk>/download/", api.WeightsDownloadView.as_view(), name="weights-download"),
]

urlpatterns = [
    path("workspaces/<slug:slug>/models/", views.zoo, name="zoo"),
    path("api/", include((api_urlpatterns, "api"))),
]
