"""The deploy app's models, re-exported for `from deploy.models import ...`."""

from __future__ import annotations

from deploy.models.deployment import Deployment, DeploymentTraffic
from deploy.models.export import ModelExport

__all__ = ["Deployment", "DeploymentTraffic", "ModelExport"]
