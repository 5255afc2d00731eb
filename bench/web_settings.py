"""The production settings with a hello-world view for `bench.web` (never used to serve)."""

from __future__ import annotations

import os

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.web_urls"
STATIC_ROOT = os.environ.get("TUTOR_BENCH_STATIC_ROOT", STATIC_ROOT)  # noqa: F405
