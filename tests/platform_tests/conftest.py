"""Every platform test checks the API's contract on the way: each JSON response it gets from
`/api/` through Django's test client must match the OpenAPI document (tests/api_contract.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _api_contract() -> None:
    from tests import api_contract

    api_contract.install()
