"""gunicorn's own log lines in LOG_FORMAT: with ``json``, its error log and its access log are
one JSON object per line like every other line (core.log_format), and an access line carries
the request's fields under ``http``. Named on gunicorn's command line (``--logger-class``) by
runstack, compose and the image, so every way of serving logs alike."""

from __future__ import annotations

from typing import Any

from gunicorn import glogging

from core.log_format import JsonFormatter
from studio.env import envchoice


class Logger(glogging.Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if envchoice("LOG_FORMAT", "text", ("text", "json")) != "json":
            return
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JsonFormatter())
