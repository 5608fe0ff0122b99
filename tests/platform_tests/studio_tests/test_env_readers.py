"""The typed environment readers accept good values and reject bad ones, naming the variable."""

from __future__ import annotations

import os
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from studio.env import (
    envbool,
    envchoice,
    envint,
    envlist,
    envpath,
    envsecret,
    envstr,
    generated_secret,
    names_read,
)


@pytest.mark.parametrize("raw", ["1", "true", "True", "YES", "on"])
def test_envbool_reads_true(raw: str) -> None:
    assert envbool("FLAG", False, environ={"FLAG": raw}) is True


@pytest.mark.parametrize("raw", ["0", "false", "No", "OFF"])
def test_envbool_reads_false(raw: str) -> None:
    assert envbool("FLAG", True, environ={"FLAG": raw}) is False


def test_it_uses_the_default_when_unset_or_blank() -> None:
    assert envbool("FLAG", True, environ={}) is True
    assert envint("N", 7, environ={"N": "  "}) == 7
    assert envstr("S", "fallback", environ={"S": ""}) == "fallback"


def test_it_rejects_a_bad_boolean_naming_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG must be a boolean .* got 'maybe'"):
        envbool("DEBUG", False, environ={"DEBUG": "maybe"})


def test_it_reads_whole_numbers_with_underscores() -> None:
    assert envint("MAX_UPLOAD_BYTES", 1, environ={"MAX_UPLOAD_BYTES": "2_000_000"}) == 2_000_000


def test_it_rejects_a_bad_number() -> None:
    with pytest.raises(ImproperlyConfigured, match="MAX_UPLOAD_BYTES must be a whole number"):
        envint("MAX_UPLOAD_BYTES", 1, environ={"MAX_UPLOAD_BYTES": "2GB"})


def test_it_rejects_numbers_out_of_bounds() -> None:
    with pytest.raises(ImproperlyConfigured, match="MAX_UPLOAD_BYTES must be at least 1, got 0"):
        envint("MAX_UPLOAD_BYTES", 5, minimum=1, environ={"MAX_UPLOAD_BYTES": "0"})
    with pytest.raises(ImproperlyConfigured, match="WORKERS must be at most 8, got 9"):
        envint("WORKERS", 1, maximum=8, environ={"WORKERS": "9"})


def test_it_splits_lists_and_drops_blanks() -> None:
    hosts = envlist("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": "a.example, b.example,,"})
    assert hosts == ["a.example", "b.example"]


def test_it_rejects_a_value_outside_the_choices() -> None:
    assert envchoice("LOG_LEVEL", "INFO", ("DEBUG", "INFO"), environ={"LOG_LEVEL": "debug"}) == (
        "DEBUG"
    )
    with pytest.raises(ImproperlyConfigured, match="LOG_LEVEL must be one of DEBUG, INFO"):
        envchoice("LOG_LEVEL", "INFO", ("DEBUG", "INFO"), environ={"LOG_LEVEL": "LOUD"})


def test_it_rejects_a_relative_path() -> None:
    with pytest.raises(ImproperlyConfigured, match="MEDIA_ROOT must be an absolute path"):
        envpath("MEDIA_ROOT", Path("/srv"), environ={"MEDIA_ROOT": "media"})


def test_it_reads_a_secret_from_a_file(tmp_path: Path) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text("s3cret\n")
    assert envsecret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(secret_file)}) == "s3cret"
    assert envsecret("SECRET_KEY", environ={"SECRET_KEY": "direct"}) == "direct"
    assert envsecret("SECRET_KEY", environ={}) is None


def test_it_rejects_a_secret_set_twice(tmp_path: Path) -> None:
    environ = {"SECRET_KEY": "a", "SECRET_KEY_FILE": str(tmp_path / "b")}
    with pytest.raises(ImproperlyConfigured, match="Set SECRET_KEY or SECRET_KEY_FILE, not both"):
        envsecret("SECRET_KEY", environ=environ)


def test_it_rejects_a_missing_or_empty_secret_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FILE names .* cannot be read"):
        envsecret("SECRET_KEY", environ={"SECRET_KEY_FILE": missing})
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="which is empty"):
        envsecret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(empty)})


def test_it_records_the_names_it_read() -> None:
    envint("SOME_KNOB_FOR_THE_TEST", 1, environ={})
    assert "SOME_KNOB_FOR_THE_TEST" in names_read()


def test_generated_secret_is_kept_private_and_stable(tmp_path: Path) -> None:
    path = tmp_path / "var" / "secret_key"
    first = generated_secret(path)
    assert len(first) >= 50
    assert generated_secret(path) == first
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_concurrent_first_starts_agree_on_one_secret(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    with ThreadPoolExecutor(max_workers=8) as pool:
        secrets = set(pool.map(lambda _: generated_secret(path), range(16)))
    assert len(secrets) == 1
