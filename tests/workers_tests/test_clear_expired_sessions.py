from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session

from workers.tasks.housekeeping import clear_expired_sessions


@pytest.mark.django_db
def test_it_deletes_only_expired_sessions(make_session) -> None:
    expired = make_session(timedelta(days=-1))
    live = make_session(timedelta(days=1))
    assert clear_expired_sessions.apply().get() == 1
    assert not Session.objects.filter(pk=expired).exists()
    assert Session.objects.filter(pk=live).exists()
