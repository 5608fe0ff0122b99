"""The datastore's models, one module per family, re-exported here for `from datastore.models`."""

from __future__ import annotations

from datastore.models.dataset import Dataset, LabelClass
from datastore.models.jobs import ExportJob, ImportJob
from datastore.models.sample import Annotation, Sample
from datastore.models.text_line import TextLine
from datastore.models.upload import UploadFile, UploadSession
from datastore.models.version import DatasetVersion, VersionItem

__all__ = [
    "Annotation",
    "Dataset",
    "DatasetVersion",
    "ExportJob",
    "ImportJob",
    "LabelClass",
    "Sample",
    "TextLine",
    "UploadFile",
    "UploadSession",
    "VersionItem",
]
