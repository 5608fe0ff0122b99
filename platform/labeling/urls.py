"""The labeling page, and the labeling API under ``api/`` (namespace ``labeling:api``)."""

from __future__ import annotations

from django.urls import include, path

from labeling import api, prelabel_api, text_lines_api, views

app_name = "labeling"

api_urlpatterns = [
    path("datasets/<int:dataset_id>/claim/", api.ClaimNextView.as_view(), name="claim"),
    path("samples/<int:pk>/labels/", api.SaveLabelsView.as_view(), name="save-labels"),
    path("datasets/<int:dataset_id>/labels/bulk/", api.BulkLabelView.as_view(), name="bulk"),
    path(
        "samples/<int:pk>/text-lines/",
        text_lines_api.SampleTextLinesView.as_view(),
        name="text-lines",
    ),
    path(
        "samples/<int:pk>/text-lines/prelabel/",
        text_lines_api.PrelabelTextLinesView.as_view(),
        name="prelabel",
    ),
    path(
        "datasets/<int:dataset_id>/prelabel/",
        prelabel_api.StartPrelabelView.as_view(),
        name="prelabel-dataset",
    ),
    path(
        "prelabel-jobs/<int:pk>/", prelabel_api.PrelabelJobDetailView.as_view(), name="prelabel-job"
    ),
]

urlpatterns = [
    path("datasets/<int:pk>/label/", views.label, name="label"),
    path("api/", include((api_urlpatterns, "api"))),
]
