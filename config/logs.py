"""Log lines: readable in development, one JSON object per line in production (LOGGING in
config/settings.py), so a log collector can filter on level, logger, path or status."""

from __future__ import annotations

import datetime
import json
import logging

# what a record may carry besides its message (django.request adds the request and status)
EXTRAS = ("status_code", "scope", "bank", "user")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "path"):
            entry |= {"method": request.method, "path": request.path}
        entry |= {name: getattr(record, name) for name in EXTRAS if hasattr(record, name)}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)
