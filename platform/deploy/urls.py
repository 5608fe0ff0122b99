"""Deploy pages, and the deploy API under ``api/`` (namespace ``deploy:api``)."""

from __future__ import annotations

from django.urls import include, path

from core.deprecation import deprecated
from deploy import views
from deploy.api import deployments, exports, wheel

app_name = "deploy"

api_urlpatterns = [
    path(
        "jobs/<int:job_id>/model-exports/", exports.JobExportListView.as_view(), name="job-exports"
    ),
    # The old name, easy to confuse with label exports: it answers until clients move.
    path(
        "jobs/<int:job_id>/exports/",
        deprecated(
            exports.JobExportListView,
            "deploy:api:job-exports",
            "/api/jobs/{job_id}/model-exports/",
        ),
    ),
    path(
        "workspaces/<slug:workspace_slug>/model-exports/",
        exports.WorkspaceExportListView.as_view(),
        name="export-list",
    ),
    path(
        "workspaces/<slug:workspace_slug>/ready-models/<str:key>/model-exports/",
        exports.ReadyModelExportListView.as_view(),
        name="ready-model-exports",
    ),
    path("model-exports/<int:pk>/", exports.ExportDetailView.as_view(), name="export-detail"),
    path(
        "model-exports/<int:pk>/delete-preview/",
        exports.ExportDeletePreviewView.as_view(),
        name="export-delete-preview",
    ),
    path(
        "model-exports/<int:pk>/download/",
        exports.ExportDownloadView.as_view(),
        name="export-download",
    ),
    path(
        "workspaces/<slug:workspace_slug>/deployments/",
        deployments.DeploymentListView.as_view(),
        name="deployment-list",
    ),
    path(
        "deployments/<int:pk>/",
        deployments.DeploymentDetailView.as_view(),
        name="deployment-detail",
    ),
    path(
        "deployments/<int:pk>/delete-preview/",
        deployments.DeploymentDeletePreviewView.as_view(),
        name="deployment-delete-preview",
    ),
    # The address has no trailing slash; both forms answer (POST cannot be redirected).
    path(
        "deployments/<int:pk>/predict",
        deployments.PredictView.as_view(),
        name="deployment-predict",
    ),
    path("deployments/<int:pk>/predict/", deployments.PredictSlashView.as_view()),
    path(
        "deployments/<int:pk>/traffic/",
        deployments.TrafficView.as_view(),
        name="deployment-traffic",
    ),
    path("framework-wheel/", wheel.FrameworkWheelView.as_view(), name="framework-wheel"),
]

urlpatterns = [
    path("jobs/<int:pk>/exports/", views.job_exports, name="job_exports"),
    path("workspaces/<slug:slug>/deployments/", views.deployment_list, name="deployment_list"),
    path("deployments/<int:pk>/", views.deployment_detail, name="deployment_detail"),
    path(
        "workspaces/<slug:slug>/ready-models/<str:key>/deploy/",
        views.ready_deploy,
        name="ready_deploy",
    ),
    path("deploy/framework-wheel/", views.framework_wheel, name="framework_wheel"),
    path("api/", include((api_urlpatterns, "api"))),
]
