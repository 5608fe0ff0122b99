"""Training pages, and the training API under ``api/`` (namespace ``training:api``)."""

from __future__ import annotations

from django.urls import include, path

from training import views
from training.api import cluster, evaluations, jobs, metrics, reports, versions

app_name = "training"

api_urlpatterns = [
    path("workspaces/<slug:workspace_slug>/jobs/", jobs.JobListView.as_view(), name="job-list"),
    path(
        "workspaces/<slug:workspace_slug>/jobs/compare/",
        reports.CompareView.as_view(),
        name="job-compare",
    ),
    path(
        "workspaces/<slug:workspace_slug>/training/versions/",
        versions.TrainableVersionListView.as_view(),
        name="trainable-versions",
    ),
    path("jobs/<int:pk>/", jobs.JobDetailView.as_view(), name="job-detail"),
    path(
        "jobs/<int:pk>/delete-preview/",
        jobs.JobDeletePreviewView.as_view(),
        name="job-delete-preview",
    ),
    path("jobs/<int:pk>/cancel/", jobs.JobCancelView.as_view(), name="job-cancel"),
    path("jobs/<int:pk>/rerun/", jobs.JobRerunView.as_view(), name="job-rerun"),
    path("jobs/<int:pk>/logs/", jobs.JobLogView.as_view(), name="job-logs"),
    path("jobs/<int:pk>/scalars/", metrics.ScalarsView.as_view(), name="job-scalars"),
    path("jobs/<int:pk>/scalars/tags/", metrics.ScalarTagsView.as_view(), name="job-scalar-tags"),
    path("jobs/<int:pk>/scalars/csv/", metrics.ScalarsCsvView.as_view(), name="job-scalars-csv"),
    path("jobs/<int:pk>/records/", metrics.RecordsView.as_view(), name="job-records"),
    path("jobs/<int:pk>/report/", reports.ReportView.as_view(), name="job-report"),
    path("jobs/<int:pk>/report/cell/", reports.ReportCellView.as_view(), name="job-report-cell"),
    path(
        "jobs/<int:pk>/report/examples/",
        reports.ReportExamplesView.as_view(),
        name="job-report-examples",
    ),
    path(
        "jobs/<int:pk>/evaluations/",
        evaluations.EvaluationListView.as_view(),
        name="job-evaluations",
    ),
    path(
        "jobs/<int:pk>/evaluations/<int:evaluation_id>/",
        evaluations.EvaluationDetailView.as_view(),
        name="job-evaluation",
    ),
    path("cluster/", cluster.ClusterView.as_view(), name="cluster"),
]

urlpatterns = [
    path("workspaces/<slug:slug>/jobs/", views.job_list, name="job_list"),
    path("workspaces/<slug:slug>/jobs/new/", views.new_job, name="new_job"),
    path("workspaces/<slug:slug>/jobs/compare/", views.compare, name="compare"),
    path("jobs/<int:pk>/", views.job_detail, name="job_detail"),
    path("jobs/<int:pk>/report/", views.report, name="report"),
    path("jobs/<int:pk>/actions/", views.job_action, name="job_action"),
    path("cluster/", views.cluster, name="cluster"),
    path("api/", include((api_urlpatterns, "api"))),
]
