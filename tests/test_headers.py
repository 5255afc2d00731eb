"""Response headers: CSP, Permissions-Policy, HSTS preload only when asked, no Server banner."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.django_db


def production_settings(monkeypatch, **env):
    """config/settings.py loaded afresh under `env` (as a server would start with it)."""
    monkeypatch.setenv("DJANGO_SECRET_KEY", "s" * 60)
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("fresh_settings", ROOT / "config/settings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_page_has_a_content_security_policy_and_a_permissions_policy(client):
    response = client.get(reverse("home"))
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]


def test_no_page_template_carries_an_inline_script_or_style():
    pattern = re.compile(r"<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=|javascript:")
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if pattern.search(path.read_text())
    ]
    assert offenders == []


def test_hsts_preload_is_off_unless_asked_for(monkeypatch):
    assert production_settings(monkeypatch).SECURE_HSTS_PRELOAD is False
    asked = production_settings(monkeypatch, DJANGO_HSTS_PRELOAD="1")
    assert asked.SECURE_HSTS_PRELOAD is True


@pytest.mark.parametrize("preload", [False, True])
def test_the_hsts_header_says_preload_only_when_set(client, settings, preload):
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_PRELOAD = preload
    header = client.get(reverse("home"), secure=True)["Strict-Transport-Security"]
    assert ("preload" in header) is preload


def served_headers(cwd: Path, tmp_path: Path) -> dict[str, str]:
    """Start gunicorn on a free loopback port from `cwd`, fetch /healthz, return its headers."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite3'}",
    }
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", "127.0.0.1:0"]
    server = subprocess.Popen(command, cwd=cwd, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        for line in server.stderr:
            if found := re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", line):
                break
            assert time.monotonic() < deadline, "gunicorn did not start"
        else:
            pytest.fail("gunicorn stopped before listening")
        try:
            with urllib.request.urlopen(f"{found.group(1)}/healthz", timeout=10) as response:
                return dict(response.headers)
        except urllib.error.HTTPError as error:  # 503 without a cache table: headers still count
            return dict(error.headers)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_gunicorn_sends_no_server_banner(tmp_path):
    assert "Server" in served_headers(tmp_path, tmp_path)  # the control: gunicorn's default
    assert "Server" not in served_headers(ROOT, tmp_path)  # with the repository's gunicorn.conf.py
