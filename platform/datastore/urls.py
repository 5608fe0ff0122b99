"""Dataset pages, and the datastore API under ``api/`` (namespace ``datastore:api``)."""

from __future__ import annotations

from django.urls import include, path

from core.deprecation import deprecated
from datastore import views
from datastore.api import datasets, samples, uploads, versions

app_name = "datastore"

api_urlpatterns = [
    path(
        "workspaces/<slug:workspace_slug>/datasets/",
        datasets.DatasetListView.as_view(),
        name="dataset-list",
    ),
    path("datasets/<int:pk>/", datasets.DatasetDetailView.as_view(), name="dataset-detail"),
    path(
        "datasets/<int:pk>/delete-preview/",
        datasets.DatasetDeletePreviewView.as_view(),
        name="dataset-delete-preview",
    ),
    path("datasets/<int:dataset_id>/classes/", datasets.ClassListView.as_view(), name="class-list"),
    path(
        "datasets/<int:dataset_id>/classes/changes/",
        datasets.ClassChangeView.as_view(),
        name="class-change",
    ),
    path(
        "datasets/<int:dataset_id>/classes/order/",
        datasets.ClassOrderView.as_view(),
        name="class-order",
    ),
    path("classes/<int:pk>/", datasets.ClassDetailView.as_view(), name="class-detail"),
    path(
        "datasets/<int:dataset_id>/statistics/",
        datasets.StatisticsView.as_view(),
        name="statistics",
    ),
    path(
        "datasets/<int:dataset_id>/samples/", samples.SampleListView.as_view(), name="sample-list"
    ),
    path(
        "datasets/<int:dataset_id>/samples/bulk-delete/",
        samples.SampleBulkDeleteView.as_view(),
        name="sample-bulk-delete",
    ),
    path(
        "datasets/<int:dataset_id>/samples/delete-preview/",
        samples.SampleBulkDeletePreviewView.as_view(),
        name="sample-bulk-delete-preview",
    ),
    path("samples/<int:pk>/", samples.SampleDetailView.as_view(), name="sample-detail"),
    path(
        "samples/<int:pk>/delete-preview/",
        samples.SampleDeletePreviewView.as_view(),
        name="sample-delete-preview",
    ),
    path("samples/<int:pk>/image/", samples.SampleImageView.as_view(), name="sample-image"),
    path(
        "samples/<int:pk>/thumbnail/",
        samples.SampleThumbnailView.as_view(),
        name="sample-thumbnail",
    ),
    path(
        "datasets/<int:dataset_id>/uploads/", uploads.UploadListView.as_view(), name="upload-list"
    ),
    path("uploads/<int:pk>/", uploads.UploadDetailView.as_view(), name="upload-detail"),
    path("uploads/<int:upload_id>/files/", uploads.UploadFilesView.as_view(), name="upload-files"),
    path(
        "uploads/<int:upload_id>/files/<int:file_id>/",
        uploads.UploadChunkView.as_view(),
        name="upload-chunk",
    ),
    path(
        "uploads/<int:upload_id>/import/", uploads.StartImportView.as_view(), name="upload-import"
    ),
    path(
        "datasets/<int:dataset_id>/imports/",
        uploads.ImportJobListView.as_view(),
        name="import-list",
    ),
    path("imports/<int:pk>/", uploads.ImportJobDetailView.as_view(), name="import-detail"),
    path(
        "datasets/<int:dataset_id>/versions/",
        versions.VersionListView.as_view(),
        name="version-list",
    ),
    path("versions/<int:pk>/", versions.VersionDetailView.as_view(), name="version-detail"),
    path(
        "versions/<int:pk>/delete-preview/",
        versions.VersionDeletePreviewView.as_view(),
        name="version-delete-preview",
    ),
    path(
        "versions/<int:version_id>/items/",
        versions.VersionItemListView.as_view(),
        name="version-items",
    ),
    path(
        "datasets/<int:dataset_id>/label-exports/",
        versions.ExportListView.as_view(),
        name="export-list",
    ),
    path("label-exports/<int:pk>/", versions.ExportDetailView.as_view(), name="export-detail"),
    path(
        "label-exports/<int:pk>/download/",
        versions.ExportDownloadView.as_view(),
        name="export-download",
    ),
    # The old names, easy to confuse with model exports: they answer until clients move.
    path(
        "datasets/<int:dataset_id>/exports/",
        deprecated(
            versions.ExportListView,
            "datastore:api:export-list",
            "/api/datasets/{dataset_id}/label-exports/",
        ),
    ),
    path(
        "exports/<int:pk>/",
        deprecated(
            versions.ExportDetailView, "datastore:api:export-detail", "/api/label-exports/{id}/"
        ),
    ),
    path(
        "exports/<int:pk>/download/",
        deprecated(
            versions.ExportDownloadView,
            "datastore:api:export-download",
            "/api/label-exports/{id}/download/",
        ),
    ),
]

urlpatterns = [
    path("workspaces/<slug:slug>/datasets/", views.dataset_list, name="dataset_list"),
    path("datasets/<int:pk>/", views.gallery, name="gallery"),
    path("datasets/<int:pk>/import/", views.upload, name="upload"),
    path("datasets/<int:pk>/report/", views.report, name="report"),
    path("datasets/<int:pk>/classes/", views.label_set, name="label_set"),
    path("datasets/<int:pk>/versions/", views.versions, name="versions"),
    path("api/", include((api_urlpatterns, "api"))),
]
