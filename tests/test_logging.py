"""Logging: failed requests and throttles go through Python's logging, one JSON object per line
with debug off (config/logs.py)."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from django.conf import settings
from django.test import RequestFactory

from config.logs import JsonFormatter
from config.throttling import throttled_response


def test_production_logs_are_json():
    assert not settings.DEBUG
    assert settings.LOGGING["handlers"]["console"]["formatter"] == "json"


@pytest.mark.django_db
def test_a_failed_request_is_one_json_line_with_its_path_and_status(client, caplog):
    with caplog.at_level(logging.INFO):
        client.get("/no-such-page/?q=1")
    record = next(r for r in caplog.records if r.name == "django.request")
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "WARNING"
    assert (line["method"], line["path"], line["status_code"]) == ("GET", "/no-such-page/", 404)
    assert "request" not in line  # the path, never the whole request


def test_a_throttled_request_is_logged_with_its_scope(caplog):
    request = RequestFactory().post("/accounts/login/")
    with caplog.at_level(logging.INFO, logger="tutor.throttle"):
        response = throttled_response(request, 30, "login")
    assert response.status_code == 429
    (record,) = [r for r in caplog.records if r.name == "tutor.throttle"]
    assert json.loads(JsonFormatter().format(record))["scope"] == "login"


def test_an_exception_keeps_its_traceback():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), None)
        record.exc_info = sys.exc_info()
    line = json.loads(JsonFormatter().format(record))
    assert "ValueError: boom" in line["exception"]
