"""English dates as Tutor has always shown them (ISO days, a 24-hour clock); German and Italian
use Django's own formats for their languages (settings.FORMAT_MODULE_PATH)."""

from __future__ import annotations

DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
MONTH_DAY_FORMAT = "M j"
