"""The predict endpoint's memory of deployments (`core.recent`).

A prediction on a small model costs less than the database round trips around it, so each
serving process remembers the deployments it has read for `DEPLOY_LOOKUP_SECONDS` (1 s by
default; 0 turns it off); verified API tokens are remembered by `accounts.authentication`.
Saving or deleting a deployment in this process forgets it at once (signals, see
`deploy.apps`); other processes see the change within the interval.
"""

from __future__ import annotations

from typing import Any

from accounts.authentication import verified_tokens
from core.recent import Recent
from deploy.conf import knob

# (deployment id, workspace id) -> Deployment
deployments: Recent[Any] = Recent(lambda: knob("DEPLOY_LOOKUP_SECONDS"))


def forget_deployment(deployment_id: int) -> None:
    deployments.forget_where(lambda key: key[0] == deployment_id)


def clear() -> None:
    """Forget everything remembered, tokens included (tests; another process's view)."""
    verified_tokens.clear()
    deployments.clear()
