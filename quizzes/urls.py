from __future__ import annotations

from django.http import HttpResponse
from django.urls import path


def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("healthz", healthz, name="healthz")]
