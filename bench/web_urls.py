"""The app's URLs and `/bench/hello/`, the yardstick of `bench.web`."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as app_urlpatterns


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/hello/", hello), *app_urlpatterns]
