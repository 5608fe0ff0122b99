"""Typed readers for environment variables that fail loudly on a bad value.

Settings read every variable through these helpers, so a typo in a deployment stops the
process at start-up with a message naming the variable, instead of surfacing later as odd
behaviour. Each helper records the name it read: ``names_read()`` lets the tests check that
``.env.example`` and ``docker-compose.yml`` only mention variables Sampan really reads.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_NAMES_READ: set[str] = set()


def names_read() -> frozenset[str]:
    """Every variable name a helper has been asked for in this process."""
    return frozenset(_NAMES_READ)


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    _NAMES_READ.add(name)
    value = (os.environ if environ is None else environ).get(name)
    # An empty value is how compose passes `VAR=` through; treat it as "not set".
    if value is None or value.strip() == "":
        return None
    return value.strip()


def envstr(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """A string, or ``default`` when unset."""
    value = _raw(name, environ)
    return default if value is None else value


def envbool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """A boolean written as 1/0, true/false, yes/no or on/off (any case)."""
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be a boolean (one of 1, 0, true, false, yes, no, on, off), got {value!r}"
    )


def envint(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """A whole number, optionally bounded; underscores are allowed (``2_000_000``)."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, got {number}")
    return number


def envlist(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def envchoice(
    name: str, default: str, choices: tuple[str, ...], *, environ: Mapping[str, str] | None = None
) -> str:
    """One of ``choices`` (compared case-insensitively, returned as listed)."""
    value = _raw(name, environ)
    if value is None:
        return default
    by_lower = {choice.lower(): choice for choice in choices}
    if value.lower() not in by_lower:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return by_lower[value.lower()]


def envpath(name: str, default: Path, *, environ: Mapping[str, str] | None = None) -> Path:
    """An absolute filesystem path. Relative paths are refused: they would depend on the cwd."""
    value = _raw(name, environ)
    if value is None:
        return default
    path = Path(value).expanduser()
    if not path.is_absolute():
        raise ImproperlyConfigured(f"{name} must be an absolute path, got {value!r}")
    return path


def envsecret(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """A secret from ``NAME``, or from the file named by ``NAME_FILE`` (Docker secrets).

    Returns None when neither is set; setting both is refused because it is ambiguous.
    """
    value = _raw(name, environ)
    file_name = _raw(f"{name}_FILE", environ)
    if value is not None and file_name is not None:
        raise ImproperlyConfigured(f"Set {name} or {name}_FILE, not both")
    if file_name is None:
        return value
    try:
        secret = Path(file_name).read_text(encoding="utf-8").strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"{name}_FILE names {file_name!r}, which cannot be read: {error.strerror}"
        ) from None
    if not secret:
        raise ImproperlyConfigured(f"{name}_FILE names {file_name!r}, which is empty")
    return secret


def generated_secret(path: Path) -> str:
    """A random secret created on first use and kept in ``path`` (mode 0600).

    Lets a development checkout run with no configuration while keeping sessions valid
    across restarts. O_EXCL makes concurrent first starts (test workers) agree on one value.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _attempt in range(50):
            secret = path.read_text(encoding="utf-8").strip()
            if secret:
                return secret
            # Another process created the file and is about to write it.
            time.sleep(0.02)
        raise ImproperlyConfigured(f"{path} exists but is empty; delete it to regenerate") from None
    secret = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret + "\n")
    return secret
