"""Every platform test checks the API's contract on the way: each JSON response it gets from
`/api/` through Django's test client must match the OpenAPI document (tests/api_contract.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _api_contract() -> None:
    from tests import api_contract

    api_contract.install()


@pytest.fixture(autouse=True)
def _default_language_after_each_test() -> Iterator[None]:
    """A test client request with a Chinese Accept-Language leaves zh-Hans active in this
    thread (LocaleMiddleware activates, nothing deactivates), and later tests would read
    their messages in Chinese."""
    yield
    from django.utils import translation

    translation.deactivate()
